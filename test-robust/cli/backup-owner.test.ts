import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { automaticBackupName } from "../../src/backup/backup-names";
import { ownerFileName } from "../../src/backup/backup-folder";
import { identityFileName } from "../../src/backup/folder-identity";
import { standardAccounts, temporaryDir } from "../../test/helpers";
import { serveInProcess, startServer, stop, stopStarted } from "../../test/server-process";
import { cli, cliProcess, csvFile } from "../../test/cli/support";

// Decisions §17, last rule, as an IT person meets it: one backup folder per data folder.
// A test folder pointed at the live server's backup folder is refused instead of rotating
// the live archives away, and the rotation deletes only archives whose manifest names its
// own data folder.

afterEach(stopStarted);

/**
 * A data folder with accounts, made in this process unless `make` says otherwise: a command
 * run in this process lets SQLite close its file only when the statements are collected,
 * and `restore --force` refuses a folder whose database a process holds open.
 */
async function dataFolder(make = cli): Promise<string> {
  const dataDir = join(temporaryDir("skrining-owner-"), "data");
  expect((await make(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
  return dataDir;
}

const identityOf = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, identityFileName), "utf8")).id as string;
const automatic = (folder: string) => readdirSync(folder).filter((name) => /^skrining-auto-\d{8}-\d{6}Z\.tar\.gz$/.test(name)).sort();

/**
 * Starts a server with automatic backups into `folder`, waits for `count` of them, and stops
 * it. In this process unless `start` says otherwise: a database this process had open stays
 * open until its statements are collected, which `restore --force` refuses.
 */
async function serveBackups(dataDir: string, folder: string, count: number, keep: number, start = serveInProcess): Promise<string> {
  const server = await start({ dataDir, serveOptions: ["--backup-dir", folder, "--backup-every", "1s", "--backup-keep", String(keep)] });
  const saved = () => server.stdout().split("\n").filter((line) => line.startsWith("Cadangan otomatis tersimpan")).length;
  for (const deadline = Date.now() + 30_000; saved() < count && Date.now() < deadline; ) await Bun.sleep(100);
  expect(await stop(server)).toBe(0);
  expect(saved()).toBeGreaterThanOrEqual(count);
  return server.stdout();
}

describe("serve's backup folder", () => {
  test("inside the data folder is refused, and nothing is written", async () => {
    const dataDir = await dataFolder();
    const inside = join(dataDir, "cadangan");
    mkdirSync(inside);
    const result = await cli(dataDir, ["serve", "--port", "0", "--backup-dir", inside]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Folder cadangan ${inside} ada di dalam folder data ${dataDir}; cadangan harus di luar folder data`);
    expect(readdirSync(inside)).toEqual([]);
  });

  test("another data folder's is refused, naming it, before the second folder is even created", async () => {
    const live = await dataFolder();
    const folder = temporaryDir("skrining-backups-");
    await serveBackups(live, folder, 1, 14);
    expect(JSON.parse(readFileSync(join(folder, ownerFileName), "utf8")).dataFolder).toEqual({ id: identityOf(live), path: live });

    const trial = join(temporaryDir("skrining-trial-"), "uji");
    const result = await cli(trial, ["serve", "--port", "0", "--backup-dir", folder, "--backup-every", "1s"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Folder cadangan ${folder} sudah dipakai folder data lain (${live}, sejak `);
    expect(existsSync(trial)).toBe(false);
  }, 60_000);

  test("the rotation deletes only its own folder's archives: another folder's, written there before owners were recorded, stay", async () => {
    const [live, other] = [await dataFolder(), await dataFolder()];
    const folder = temporaryDir("skrining-backups-");
    // What an older version left: the other folder's automatic backups, named as such, and no owner record.
    const othersArchives = [3, 2, 1].map((daysAgo) => automaticBackupName(new Date(Date.now() - daysAgo * 86_400_000)));
    for (const name of othersArchives) expect((await cli(other, ["backup", join(folder, name)])).exitCode).toBe(0);
    await serveBackups(live, folder, 3, 1);
    const left = automatic(folder);
    expect(left.filter((name) => !othersArchives.includes(name))).toHaveLength(1);
    expect(othersArchives.every((name) => left.includes(name))).toBe(true);
    expect(statSync(join(folder, ownerFileName)).mode & 0o777).toBe(0o600);
  }, 60_000);
});

describe("an identity through restore", () => {
  test("a drill restored into another folder is a folder of its own: the live backup folder refuses it", async () => {
    const live = await dataFolder();
    const folder = temporaryDir("skrining-backups-");
    await serveBackups(live, folder, 1, 14);
    const drill = join(temporaryDir("skrining-drill-"), "latihan");
    expect((await cli(drill, ["restore", join(folder, automatic(folder)[0]!)])).exitCode).toBe(0);
    const result = await cli(drill, ["serve", "--port", "0", "--backup-dir", folder]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("sudah dipakai folder data lain");
  }, 60_000);

  test("restore --force keeps the folder's identity; a folder rebuilt at the same path takes the backup's", async () => {
    const live = await dataFolder(cliProcess);
    const folder = temporaryDir("skrining-backups-");
    await serveBackups(live, folder, 1, 14, startServer);
    const id = identityOf(live);
    const archive = join(folder, automatic(folder)[0]!);
    expect((await cli(live, ["restore", archive, "--force"])).exitCode).toBe(0);
    expect(identityOf(live)).toBe(id);
    // The disk is lost; the folder is restored at the same path on a new one.
    rmSync(live, { recursive: true, force: true });
    expect((await cli(live, ["restore", archive])).exitCode).toBe(0);
    expect(identityOf(live)).toBe(id);
    await serveBackups(live, folder, 1, 14);
  }, 90_000);
});
