import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { hashSync } from "@node-rs/bcrypt";
import { chownSync, copyFileSync, existsSync, readdirSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/db";
import { migrations } from "../../src/db/migrations";
import { silentLogger } from "../../src/logger";
import { temporaryDir } from "../../test/helpers";
import { startServer, stopStarted } from "../../test/server-process";
import { cliProcess, olderLevel, outputLines } from "../../test/cli/support";

// Issue 44, item 1, as it happened: the new version migrated the database at its start,
// wrote sessions, and was killed (a power cut) with them in the -wal. The documented
// rollback then (mv skrining.db aside, cp the copy before the migration in) left that -wal
// beside the old copy: the old version read it as a malformed schema and replayed and
// deleted it, so the moved-aside database lost sessions. `skrining rollback` moves the
// database with its -wal/-shm aside, puts the copy in, and checks it.

afterEach(stopStarted);

const number = (index: number) => migrations[index]!.tag.split("_")[0]!;
const olderNumber = number(olderLevel - 1);
const newestNumber = number(migrations.length - 1);
const logins = 17;

/** A data folder of the version before (two migrations behind), with an admin who can sign in. */
function olderFolderWithAdmin(): string {
  const dataDir = temporaryDir("skrining-upgrade-");
  const db = openDatabase(join(dataDir, "skrining.db"), migrations.slice(0, olderLevel), silentLogger);
  db.$client.query("INSERT INTO users (username, password_hash, role, is_activated) VALUES ('admin', ?, 'admin', 1)").run(hashSync("sandi-admin-lama", 4));
  db.$client.close();
  return dataDir;
}

/** The new version started on it (it migrates, keeping a copy first), signed in to 17 times, then killed: the sessions are in the -wal only. */
async function upgradedThenPowerCut(): Promise<string> {
  const dataDir = olderFolderWithAdmin();
  const server = await startServer({ dataDir });
  expect(server.stdout()).toContain(`Skema basis data akan dimigrasi (${olderNumber} → ${newestNumber})`);
  for (let index = 0; index < logins; index++) {
    const response = await fetch(`http://127.0.0.1:${server.port}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: "sandi-admin-lama" }) });
    expect(response.status).toBe(200);
  }
  server.kill();
  await server.exited;
  expect(statSync(join(dataDir, "skrining.db-wal")).size).toBeGreaterThan(0);
  return dataDir;
}

const copyOf = (dataDir: string) => readdirSync(join(dataDir, "backups")).find((name) => name.startsWith("skrining-before-migration-"))!;

/** Sessions in a database file (its -wal beside it is read, as SQLite reads it). */
function sessionsIn(path: string): number {
  const db = new Database(path);
  try {
    return db.query<{ n: number }, []>("SELECT count(*) AS n FROM sessions").get()!.n;
  } finally {
    db.close();
  }
}

describe("rollback after the new version was killed", () => {
  test("the database with its -wal moved aside (every session kept there), the copy in place and checked; the old version opens it", async () => {
    const dataDir = await upgradedThenPowerCut();
    const copy = copyOf(dataDir);
    expect(copy).toMatch(new RegExp(`^skrining-before-migration-${olderNumber}-to-${newestNumber}-\\d{8}-\\d{6}Z\\.db$`));

    const result = await cliProcess(dataDir, ["rollback"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const lines = outputLines(result.stdout);
    const aside = /dipindahkan ke samping, utuh dengan file WAL-nya \(tidak dihapus\): (\S+)\.db, \1\.db-wal, \1\.db-shm\.$/.exec(lines[0]!)!;
    expect(aside).not.toBeNull();
    expect(lines.slice(1)).toEqual([
      `Salinan sebelum migrasi ${olderNumber} → ${newestNumber} (${copy.slice(-19, -3)}) dipasang sebagai ${join(dataDir, "skrining.db")}; salinannya tetap di ${join(dataDir, "backups", copy)}.`,
      `Diperiksa: integrity_check baik, skema migrasi ${olderNumber}.`,
      "Yang ditulis sesudah salinan itu dibuat tidak ada di basis data ini; masih ada di basis data yang dipindahkan ke samping.",
      `Jalankan executable versi lama (yang mengenal migrasi ${olderNumber}), lalu mulai layanan. Program ini (migrasi ${newestNumber}) akan memigrasinya lagi bila dimulai.`,
    ]);

    // No file of the new version is left beside the old database.
    expect(readdirSync(dataDir).filter((name) => name.startsWith("skrining.db"))).toEqual(["skrining.db"]);
    // Nothing lost: the moved-aside database, read with its -wal, holds every session.
    expect(sessionsIn(`${aside[1]}.db`)).toBe(logins);
    // The copy stays for another try.
    expect(existsSync(join(dataDir, "backups", copy))).toBe(true);
    // The old version (its migrations only) opens it as it is, without migrating or refusing it.
    const old = openDatabase(join(dataDir, "skrining.db"), migrations.slice(0, olderLevel), silentLogger, "current");
    try {
      expect(old.$client.query("SELECT username FROM users").all()).toEqual([{ username: "admin" }]);
      expect(old.$client.query("PRAGMA quick_check").get()).toEqual({ quick_check: "ok" });
    } finally {
      old.$client.close();
    }
  }, 60_000);

  test("why: the rollback the docs described before (mv, cp) leaves the new -wal beside the old copy; opening it consumes that -wal, and the moved database loses its sessions", async () => {
    const dataDir = await upgradedThenPowerCut();
    renameSync(join(dataDir, "skrining.db"), join(dataDir, "skrining.db.new"));
    copyFileSync(join(dataDir, "backups", copyOf(dataDir)), join(dataDir, "skrining.db"));
    expect(existsSync(join(dataDir, "skrining.db-wal"))).toBe(true);
    let problems: unknown;
    try {
      const old = openDatabase(join(dataDir, "skrining.db"), migrations.slice(0, olderLevel), silentLogger, "as-is");
      try {
        problems = old.$client.query("PRAGMA integrity_check").all();
      } finally {
        old.$client.close();
      }
    } catch (error) {
      problems = error;
    }
    // Read into the wrong database (damaged, or refused as such), and then gone.
    expect(problems).not.toEqual([{ integrity_check: "ok" }]);
    expect(existsSync(join(dataDir, "skrining.db-wal"))).toBe(false);
    expect(sessionsIn(join(dataDir, "skrining.db.new"))).toBeLessThan(logins);
  }, 60_000);

  test("as root on a folder the service's account owns: the database put in place is that account's", async () => {
    const dataDir = await upgradedThenPowerCut();
    chownSync(dataDir, 65534, 65534);
    const result = await cliProcess(dataDir, ["rollback"]);
    expect(result.exitCode).toBe(0);
    expect(statSync(join(dataDir, "skrining.db")).uid).toBe(65534);
    expect(statSync(join(dataDir, "skrining.db")).mode & 0o777).toBe(0o600);
  }, 60_000);
});

describe("what rollback refuses, changing nothing", () => {
  test("while a server holds the database: it names the process and stops nothing", async () => {
    const dataDir = olderFolderWithAdmin();
    const server = await startServer({ dataDir });
    const before = readdirSync(dataDir).sort();
    const result = await cliProcess(dataDir, ["rollback"]);
    expect(result.exitCode).toBe(1);
    expect(outputLines(result.stderr)).toEqual([
      `skrining: ${join(dataDir, "skrining.db")} sedang dibuka oleh proses ${server.child.pid} (server skrining yang berjalan?); rollback tidak menghentikannya. Hentikan layanan dulu, lalu ulangi; tidak ada yang diubah.`,
    ]);
    expect(server.exitCode()).toBeNull();
    expect(readdirSync(dataDir).sort()).toEqual(before);
    expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);
  }, 60_000);

  test("a folder without a copy before a migration: refused, naming restore", async () => {
    const dataDir = olderFolderWithAdmin();
    const result = await cliProcess(dataDir, ["rollback"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Tidak ada salinan sebelum migrasi di ${join(dataDir, "backups")}; tidak ada yang dikembalikan.`);
    expect(readdirSync(dataDir)).toEqual(["skrining.db"]);
  });
});
