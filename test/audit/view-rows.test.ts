import { afterEach, expect, test } from "bun:test";
import { AuditTrail, verifyAuditChain, type AuditEntry } from "../../src/audit/trail";
import { loadConfig } from "../../src/config";
import { closeContext, createContext, type AppContext } from "../../src/context";
import { temporaryDir, testEnvironment } from "../helpers";

// The rows of reads are written by a worker thread on its own connection; the rows of
// writes by the service's connection. Both append to one chain.

const view = (nim: string): AuditEntry => ({
  actor: { userId: 7, username: "dosen1", role: "dosen", name: "Dosen Satu" },
  clientAddress: "10.0.0.5",
  action: "view",
  nim,
  target: "GET /api/mahasiswa/hasil/:nim",
});

let context: AppContext;
const lines: string[] = [];
const logger = { info: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
const open = () => (context = createContext(loadConfig(temporaryDir("skrining-audit-"), testEnvironment), logger));
afterEach(() => {
  closeContext(context);
  lines.length = 0;
});

const rows = () => context.db.$client.query<{ id: number; nim: string | null; action: string }, []>("SELECT id, nim, action FROM audit_log ORDER BY id").all();

test("view rows written by the worker and write rows by the service interleave in one intact chain", async () => {
  open();
  const trail = new AuditTrail(context.db.$client, context.writes, logger, context.config.databasePath);
  trail.note(view("N1"), view("N2"));
  await trail.flush();
  await trail.record({ ...view("N3"), action: "update" });
  trail.note(view("N4"));
  await trail.flush();
  trail.close();
  expect(rows().map((row) => [row.nim, row.action])).toEqual([["N1", "view"], ["N2", "view"], ["N3", "update"], ["N4", "view"]]);
  expect(verifyAuditChain(context.db.$client).problems).toEqual([]);
  expect(lines).toEqual([]);
});

test("a worker that cannot start: said once, and the rows of reads go through the service's connection instead", async () => {
  open();
  const trail = new AuditTrail(context.db.$client, context.writes, logger, context.config.databasePath, "./tidak-ada/view-writer.ts");
  trail.note(view("N1"));
  await trail.flush();
  // The first batch was handed to the worker before its start failed: lost, and said so.
  expect(lines.some((line) => line.includes("1 kelompok baris akses baca tidak tertulis"))).toBe(true);
  trail.note(view("N2"));
  await trail.flush();
  trail.close();
  expect(lines.filter((line) => line.includes("penulis baris akses baca berhenti"))).toHaveLength(1);
  expect(rows().map((row) => row.nim)).toContain("N2");
  expect(verifyAuditChain(context.db.$client).problems).toEqual([]);
});
