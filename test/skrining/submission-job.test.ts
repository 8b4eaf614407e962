import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { verifyAuditChain } from "../../src/audit/verify";
import { StorageError } from "../../src/db/storage";
import { jawaban, standardAccounts, TestService } from "../helpers";

// The questionnaire's job on the server's one connection (src/modules/skrining/submission.ts),
// beside the rules kuesioner.test.ts runs: its case, its audit rows, a held lock, held
// writes, and the caches after it.

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A service with the standard accounts (closed after each test), and the admin's token. */
async function serviceWithAdmin(environment: Record<string, string> = {}) {
  const started = new TestService(environment);
  service = started;
  await started.importAccounts(standardAccounts);
  return { service: started, admin: (await started.login("admin", "admin-pass-1")).access };
}

async function submissionService(environment: Record<string, string> = {}) {
  const { service, admin } = await serviceWithAdmin(environment);
  const mhs1 = (await service.login("mhs1", "mhs-pass-1")).access;
  return { service, tokens: { admin, mhs1 } };
}

const submit = (token: string, body: unknown) => service!.request("POST", "/api/mahasiswa/kuesioner", { token, body });
const screenings = () => (service!.context.db.$client.query("SELECT count(*) AS n FROM riwayat_skrining").get() as { n: number }).n;
const auditRows = () => service!.context.db.$client.query("SELECT id, action, target FROM audit_log ORDER BY id").all() as { id: number; action: string; target: string }[];

describe("a submission's job", () => {
  test("a screening at the highest stress opens the advisor's case, and the answer says so", async () => {
    const { tokens } = await submissionService();
    const response = await submit(tokens.mhs1, { jawaban: jawaban(5, 4) });
    expect(response).toMatchObject({ status: 201, body: { score_stress: 200, tingkat_stres: "Tinggi", tindak_lanjut: { dibuka_oleh_skrining_ini: true, penerima: "dosen_wali" } } });
    const opened = service!.context.db.$client.query("SELECT NIM, NIP, Id_skrining FROM tindak_lanjut").all();
    expect(opened).toEqual([{ NIM: "N001", NIP: "D001", Id_skrining: response.body.Id_skrining }]);
  });

  test("the reads waiting for their row go into the submission's savepoint, before its row, and the chain verifies", async () => {
    const { tokens } = await submissionService();
    expect((await service!.request("GET", "/api/mahasiswa/hasil/N002", { token: tokens.admin })).status).toBe(404);
    expect((await service!.request("GET", "/api/mahasiswa/history?nim=N002", { token: tokens.admin })).status).toBe(200);
    const before = auditRows().length;
    expect((await submit(tokens.admin, { NIM: "N002", jawaban: jawaban(3, 4) })).status).toBe(201);
    const appended = auditRows().slice(before);
    expect(appended.map((row) => `${row.action} ${row.target}`)).toEqual(["view GET /api/mahasiswa/history", "create POST /api/mahasiswa/kuesioner"]);
    // The submission's row, made before its job from the request alone, names the student submitted for.
    const students = service!.context.db.$client.query("SELECT nim FROM audit_subjects WHERE audit_id = ?").all(appended[1]!.id);
    expect(students).toEqual([{ nim: "N002" }]);
    expect(verifyAuditChain(service!.context.db.$client).problems).toEqual([]);
  });

  test("while another program holds the write lock past the wait: 503, nothing written, and the waiting read rows kept", async () => {
    const { tokens } = await submissionService({ SKRINING_BUSY_WAIT: "50" });
    expect((await service!.request("GET", "/api/mahasiswa/history?nim=N002", { token: tokens.admin })).status).toBe(200);
    const other = new Database(join(service!.dataDir, "skrining.db"));
    other.run("BEGIN IMMEDIATE");
    const rowsBefore = auditRows().length;
    try {
      const refused = await submit(tokens.admin, { NIM: "N002", jawaban: jawaban(3, 4) });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("2");
    } finally {
      other.run("ROLLBACK");
      other.close();
    }
    expect(screenings()).toBe(0);
    expect(auditRows()).toHaveLength(rowsBefore);
    expect(service!.context.health.problem).toBe("busy");
    // The lock is free again: the next submission is written, with the read's row before its own.
    expect((await submit(tokens.admin, { NIM: "N002", jawaban: jawaban(3, 4) })).status).toBe(201);
    expect(auditRows().slice(rowsBefore).map((row) => row.action)).toEqual(["view", "create"]);
    expect(service!.context.health.problem).toBeNull();
  });

  test("while writes are held (a damaged database) a submission is refused, and nothing is written", async () => {
    const { tokens } = await submissionService();
    const damage = new StorageError("damaged", new Error("quick_check: 1 masalah"), join(service!.dataDir, "skrining.db"));
    service!.context.health.holdWrites(damage, "Ditahan.");
    const refused = await submit(tokens.admin, { NIM: "N002", jawaban: jawaban(3, 4) });
    expect(refused.status).toBe(503);
    expect(screenings()).toBe(0);
  });

  test("after a submission the service's caches show it: hasil and can_submit", async () => {
    const { tokens } = await submissionService();
    expect((await service!.request("GET", "/api/mahasiswa/can_submit/N001", { token: tokens.mhs1 })).body.can_submit).toBe(true);
    const written = await submit(tokens.mhs1, { jawaban: jawaban(2, 4) });
    expect((await service!.request("GET", "/api/mahasiswa/hasil/N001", { token: tokens.mhs1 })).body.Id_skrining).toBe(written.body.Id_skrining);
    expect((await service!.request("GET", "/api/mahasiswa/can_submit/N001", { token: tokens.mhs1 })).body.can_submit).toBe(false);
  });
});
