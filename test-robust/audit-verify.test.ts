import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { appendAuditRows } from "../src/audit/trail";
import { spawnCli } from "../test/helpers";
import { started, startServer, stop } from "../test/server-process";
import { adminToken, preparedDataDir, studentCount } from "./support";

// Decisions §16: `audit verify` reads one snapshot. Run while a server appends rows (an
// admin reading students, each read a row, batched ten times a second), it never reports
// the newest rows as removed, which it did 17–29 times in 30 before it read in one
// transaction.

afterAll(async () => {
  for (const running of started) await stop(running);
});

test("audit verify while the server writes rows: every run says the trail is intact", async () => {
  const dataDir = await preparedDataDir();
  // A trail long enough that one verify takes longer than the server's batch of rows.
  const db = new Database(join(dataDir, "skrining.db"));
  db.transaction(() => {
    const actor = { userId: null, username: "persiapan", role: "cli" };
    appendAuditRows(db, Array.from({ length: 20_000 }, (_, index) => ({ actor, action: "view" as const, nim: `N00${(index % studentCount) + 1}`, target: "skrining privacy export" })));
  }).immediate();
  db.close();

  const server = await startServer({ dataDir });
  const token = await adminToken(server.port);
  let reading = true;
  const readers = Array.from({ length: 2 }, async (_, worker) => {
    for (let round = 0; reading; round++) {
      const nim = `N00${((round + worker) % studentCount) + 1}`;
      await (await fetch(`http://127.0.0.1:${server.port}/api/mahasiswa/hasil/${nim}?r=${round}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
      // Another account each time (the admin, then its own query): every read a row of its own.
      await (await fetch(`http://127.0.0.1:${server.port}/api/mahasiswa/mood/${nim}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
    }
  });
  const outcomes: { exitCode: number; stderr: string }[] = [];
  try {
    for (let run = 0; run < 12; run++) outcomes.push(await spawnCli(["--data", dataDir, "audit", "verify"]));
  } finally {
    reading = false;
    await Promise.all(readers);
  }
  expect(outcomes.filter((outcome) => outcome.exitCode !== 0).map((outcome) => outcome.stderr)).toEqual([]);
  await stop(server);
  const after = await spawnCli(["--data", dataDir, "audit", "verify"]);
  expect(after.exitCode).toBe(0);
  expect(after.stdout).toMatch(/^Jejak audit utuh: \d+ baris; jangkar terbaru \d+:[0-9a-f]{64}\n/);
}, 120_000);
