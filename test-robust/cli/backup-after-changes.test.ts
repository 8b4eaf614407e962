import { afterEach, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { automaticBackupName } from "../../src/backup/backup-names";
import { standardAccounts, temporaryDir } from "../../test/helpers";
import { startServer, stop, stopStarted, type ServerProcess } from "../../test/server-process";
import { cliProcess, csvFile, olderDataFolder } from "../../test/cli/support";

// Issue 44, item 9, as the IT person met it: the first automatic backup was of an empty
// install, and the day the roster was imported had none. serve now takes one after a roster
// import (by the command in another process, looked for every SKRINING_BACKUP_CHECK_SECONDS)
// and after a migration, named for why, rotated with the schedule's.

afterEach(stopStarted);

const savedLines = (server: ServerProcess) => server.stdout().split("\n").filter((line) => line.startsWith("Cadangan otomatis tersimpan: "));

async function waitForLine(server: ServerProcess, pattern: RegExp): Promise<string> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await Bun.sleep(50)) {
    const line = savedLines(server).find((each) => pattern.test(each));
    if (line) return line;
  }
  throw new Error(`no line ${pattern}: ${server.stdout()}${server.stderr()}`);
}

/** The usernames in an archive, as a restore of it into a fresh folder lists them. */
async function usernamesIn(archive: string): Promise<string[]> {
  const restored = join(temporaryDir("skrining-restored-"), "data");
  expect((await cliProcess(restored, ["restore", archive])).exitCode).toBe(0);
  const listed = await cliProcess(restored, ["accounts", "list", "--json"]);
  return (JSON.parse(listed.stdout) as { username: string }[]).map((account) => account.username).sort();
}

test("a roster imported by the command while serve runs is backed up within the check period, named -impor, with the accounts in it", async () => {
  const dataDir = join(temporaryDir("skrining-install-"), "data");
  const folder = temporaryDir("skrining-cadangan-");
  const server = await startServer({
    dataDir,
    env: { SKRINING_ADMIN_PASSWORD: "sandi-admin-awal", SKRINING_BACKUP_CHECK_SECONDS: "1" },
    serveOptions: ["--backup-dir", folder, "--backup-every", "24h"],
  });
  // The schedule's first: the empty install.
  await waitForLine(server, /skrining-auto-\d{8}-\d{6}Z\.tar\.gz\.$/);

  const imported = await cliProcess(dataDir, ["accounts", "import", csvFile(standardAccounts)]);
  expect(imported.exitCode).toBe(0);
  const line = await waitForLine(server, /-impor\.tar\.gz \(sesudah impor daftar akun\)\.$/);
  const archive = /tersimpan: (\S+) \(/.exec(line)![1]!;
  expect(archive).toMatch(/\/skrining-auto-\d{8}-\d{6}Z-impor\.tar\.gz$/);
  expect(await usernamesIn(archive)).toEqual(["admin", "dosen1", "dosen2", "mhs1", "mhs2", "mhs3"].sort());
  // Once per import, and the schedule's backup of the empty install is still there.
  await Bun.sleep(2500);
  expect(savedLines(server)).toHaveLength(2);
  expect(await stop(server)).toBe(0);
  expect(readdirSync(folder).filter((name) => name.endsWith(".tar.gz")).length).toBe(2);
}, 60_000);

test("a migration at serve's start is backed up at once, named -migrasi, when the newest backup is of the older schema", async () => {
  const dataDir = olderDataFolder();
  const folder = temporaryDir("skrining-cadangan-");
  // The old version's backup of an hour ago: the schedule's next is not due yet.
  const older = join(folder, automaticBackupName(new Date(Date.now() - 3_600_000)));
  expect((await cliProcess(dataDir, ["backup", older])).exitCode).toBe(0);
  const server = await startServer({ dataDir, env: { SKRINING_ADMIN_PASSWORD: "sandi-admin-awal" }, serveOptions: ["--backup-dir", folder] });
  const line = await waitForLine(server, /-migrasi\.tar\.gz \(sesudah migrasi skema basis data\)\.$/);
  expect(line).toMatch(/skrining-auto-\d{8}-\d{6}Z-migrasi\.tar\.gz/);
  expect(await stop(server)).toBe(0);
  expect(readdirSync(folder).filter((name) => name.endsWith(".tar.gz")).sort()).toEqual([older.slice(folder.length + 1), /tersimpan: \S+\/(\S+) \(/.exec(line)![1]!].sort());
}, 60_000);
