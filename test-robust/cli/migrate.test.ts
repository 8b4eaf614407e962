import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { migrations } from "../../src/db/migrations";
import { repositoryRoot, standardAccounts, temporaryDir } from "../../test/helpers";
import { startServer, stop, stopStarted } from "../../test/server-process";
import { commandRows, needsExistingFolder, type CommandRow } from "../../test/cli/commands";
import { cli, cliProcess, csvFile, olderDataFolder, olderLevel, outputLines, withDatabase } from "../../test/cli/support";

// Only `serve` and `skrining migrate` migrate a database that holds data. Every other
// command refuses an older schema in one line that says what to run, and changes nothing;
// creating a new data folder's schema is not a migration. A migration is refused while
// another process has the database open (an older server still serving it).

afterEach(stopStarted);

const number = (tag: string) => tag.split("_")[0]!;
const from = number(migrations[olderLevel - 1]!.tag);
const to = number(migrations.at(-1)!.tag);
const journalLength = (dataDir: string) => withDatabase(dataDir, (db) => db.query<{ n: number }, []>("SELECT count(*) AS n FROM __drizzle_migrations").get()!.n);
const refusal = (dataDir: string) =>
  `skrining: Basis data ${join(dataDir, "skrining.db")} perlu dimigrasi: skemanya lebih lama (migrasi ${from}; program ini ${to}). Perintah ini tidak mengubah skema; ` +
  `hentikan server versi lama bila masih berjalan, lalu jalankan 'skrining --data ${dataDir} migrate' (atau mulai 'skrining serve' versi ini).`;

/**
 * Not refused: the commands that read any schema as it is (backup, check), the one that
 * migrates, and the exports of the replaceable texts, which read their file and never open
 * the database.
 */
const notRefused = new Set(["backup", "check", "migrate", "questions export", "contact export", "notice export"]);
const refusing: CommandRow[] = [
  ...needsExistingFolder.filter(([name]) => !notRefused.has(name)),
  ...commandRows([
    ["accounts import", () => ["accounts", "import", csvFile(standardAccounts)]],
    ["accounts add", () => ["accounts", "add", "--role", "admin", "--username", "baru", "--password", "sandi-baru-1"]],
  ]),
];

describe("a command on a database at an older schema", () => {
  test.each(refusing)("%s refuses in one line naming migrate, exit 1, and changes nothing", async (_name, args, stdin) => {
    const dataDir = olderDataFolder();
    const result = await cli(dataDir, args(), { stdin });
    expect(outputLines(result.stderr)).toEqual([refusal(dataDir)]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(journalLength(dataDir)).toBe(olderLevel);
    expect(existsSync(join(dataDir, "backups"))).toBe(false);
  });

  test("check and backup read it as it is, without migrating it", async () => {
    const dataDir = olderDataFolder();
    expect(await cli(dataDir, ["check"])).toMatchObject({ exitCode: 0, stderr: "" });
    const archive = join(temporaryDir("skrining-older-backup-"), "sebelum-migrasi.tar.gz");
    expect(await cli(dataDir, ["backup", archive])).toMatchObject({ exitCode: 0, stderr: "" });
    expect(journalLength(dataDir)).toBe(olderLevel);
    // Restoring that backup gives a folder this version can use: restore migrates what it restored.
    const restored = join(temporaryDir("skrining-restored-"), "data");
    const result = await cli(restored, ["restore", archive]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`Skema basis data akan dimigrasi (${from} → ${to})`);
    expect(journalLength(restored)).toBe(migrations.length);
    expect((await cli(restored, ["accounts", "list"])).exitCode).toBe(0);
  });

  test("migrate migrates it, says so in one line, leaves an audit row; then every command works", async () => {
    const dataDir = olderDataFolder();
    const result = await cli(dataDir, ["migrate"]);
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stdout)).toEqual([`Skema basis data ${join(dataDir, "skrining.db")} dimigrasi: ${from} → ${to}.`]);
    expect(journalLength(dataDir)).toBe(migrations.length);
    const rows = JSON.parse((await cli(dataDir, ["audit", "list", "--format", "json"])).stdout);
    expect(rows.map((row: { target: string; keterangan: string }) => [row.target, row.keterangan])).toEqual([["skrining migrate", `skema basis data dimigrasi ${from} → ${to}`]]);
    expect((await cli(dataDir, ["accounts", "list", "--json"])).exitCode).toBe(0);
  });

  // Issue 44, item 8: the restarted service migrates too, and leaves the same row, naming serve.
  test("serve's migration at its start leaves the audit row migrate leaves, naming serve; the trail verifies", async () => {
    const dataDir = olderDataFolder();
    const server = await startServer({ dataDir });
    expect(await stop(server)).toBe(0);
    const listed = await cliProcess(dataDir, ["audit", "list", "--format", "json"]);
    const rows = JSON.parse(listed.stdout) as { target: string; aksi: string; keterangan: string }[];
    expect(rows.map((row) => [row.target, row.aksi, row.keterangan])).toEqual([["skrining serve", "update", `skema basis data dimigrasi ${from} → ${to}`]]);
    expect((await cliProcess(dataDir, ["audit", "verify"])).exitCode).toBe(0);
  }, 30_000);

  test("audit verify --anchor takes the bare hash that builds before the anchor printed", async () => {
    const dataDir = olderDataFolder();
    expect((await cliProcess(dataDir, ["migrate"])).exitCode).toBe(0);
    const hash = withDatabase(dataDir, (db) => db.query<{ hash: string }, []>("SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1").get()!.hash);
    const verified = await cliProcess(dataDir, ["audit", "verify", "--anchor", hash]);
    expect(verified.stderr).toBe("");
    expect(outputLines(verified.stdout)[0]).toStartWith("Jejak audit utuh: 1 baris, termasuk jangkar 1;");
  }, 30_000);

  test("creating a new data folder's schema is not a migration: accounts add and import start one", async () => {
    for (const args of [["accounts", "add", "--role", "admin", "--username", "baru", "--password", "sandi-baru-1"], ["accounts", "import", csvFile(standardAccounts)]]) {
      const dataDir = join(temporaryDir("skrining-new-"), "data");
      expect(await cli(dataDir, args)).toMatchObject({ exitCode: 0, stderr: "" });
      expect(journalLength(dataDir)).toBe(migrations.length);
      expect(existsSync(join(dataDir, "backups"))).toBe(false);
    }
  });
});

/** Another process that holds the database open, as an older server serving it does, until it is killed. */
async function holder(dataDir: string) {
  const script = `const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(join(dataDir, "skrining.db"))}); db.run("PRAGMA journal_mode = WAL"); db.query("SELECT count(*) FROM users").get(); console.log("open"); setInterval(() => db.query("SELECT count(*) FROM users").get(), 200);`;
  const child = Bun.spawn([process.execPath, "-e", script], { cwd: repositoryRoot, stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  await reader.read();
  reader.releaseLock();
  return child;
}

describe("a migration while another process has the database open (two processes)", () => {
  test("migrate is refused naming the process, and migrates once it has closed", async () => {
    const dataDir = olderDataFolder();
    const other = await holder(dataDir);
    try {
      const result = await cliProcess(dataDir, ["migrate"]);
      expect(result.exitCode).toBe(1);
      expect(outputLines(result.stderr)).toEqual([
        `skrining: Basis data ${join(dataDir, "skrining.db")} perlu dimigrasi (${from} → ${to}), tetapi sedang dibuka program lain (proses ${other.pid}): ` +
          "server skrining versi lama yang masih berjalan, perintah lain, atau sqlite3. Hentikan program itu, lalu ulangi; migrasi tidak dijalankan.",
      ]);
      expect(journalLength(dataDir)).toBe(olderLevel);
      // Nothing was written for it either: no copy before a migration that did not run.
      expect(existsSync(join(dataDir, "backups")) ? readdirSync(join(dataDir, "backups")) : []).toEqual([]);
    } finally {
      other.kill();
      await other.exited;
    }
    expect((await cliProcess(dataDir, ["migrate"])).exitCode).toBe(0);
    expect(journalLength(dataDir)).toBe(migrations.length);
  }, 30_000);

  test("serve is refused too, before it listens; it starts once the other process has gone", async () => {
    const dataDir = olderDataFolder();
    const other = await holder(dataDir);
    try {
      const result = await cliProcess(dataDir, ["serve", "--host", "127.0.0.1", "--port", "0"]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain("tetapi sedang dibuka program lain");
      expect(journalLength(dataDir)).toBe(olderLevel);
    } finally {
      other.kill();
      await other.exited;
    }
    const server = await startServer({ dataDir });
    expect(server.stdout()).toContain(`Skema basis data akan dimigrasi (${from} → ${to})`);
    expect(await stop(server)).toBe(0);
    expect(journalLength(dataDir)).toBe(migrations.length);
  }, 30_000);

  test("a command of the new version on a folder an older server serves: refused as older, nothing changed", async () => {
    const dataDir = olderDataFolder();
    const other = await holder(dataDir);
    try {
      const result = await cliProcess(dataDir, ["accounts", "list"]);
      expect(result.exitCode).toBe(1);
      expect(outputLines(result.stderr)).toEqual([refusal(dataDir)]);
      expect(journalLength(dataDir)).toBe(olderLevel);
    } finally {
      other.kill();
      await other.exited;
    }
  }, 30_000);
});
