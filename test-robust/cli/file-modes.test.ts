import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { temporaryDir } from "../../test/helpers";
import { startServer, stop, stopStarted } from "../../test/server-process";
import { cliProcess } from "../../test/cli/support";

// decisions §9: the data folder is its owner's alone (0700), and the database, its WAL and
// SHM files, the secret, backups and exports are created 0600, whatever the umask. Every
// process here runs under umask 022, under which files would otherwise be 0644: real
// processes, since the umask a process starts with is the subject.

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

afterEach(stopStarted);

test("a data folder made by the server under umask 022: folders 0700, database, WAL, SHM and secret 0600", async () => {
  const dataDir = join(temporaryDir(), "data");
  const server = await startServer({ dataDir, umask: "022", env: { SKRINING_ADMIN_PASSWORD: "sandi-admin-1" } });
  const login = await fetch(`http://127.0.0.1:${server.port}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: "sandi-admin-1" }),
  });
  expect(login.status).toBe(200);
  // While the server runs, the WAL and SHM files exist.
  expect(existsSync(join(dataDir, "skrining.db-wal"))).toBe(true);
  expect(existsSync(join(dataDir, "skrining.db-shm"))).toBe(true);
  for (const folder of ["", "photos", "models"]) expect(mode(join(dataDir, folder))).toBe("700");
  for (const file of ["skrining.db", "skrining.db-wal", "skrining.db-shm", "secret"]) expect(mode(join(dataDir, file))).toBe("600");
  expect(await stop(server)).toBe(0);
});

test("backups and exports written under umask 022 are 0600", async () => {
  const dataDir = temporaryDir();
  expect((await cliProcess(dataDir, ["accounts", "add", "--role", "dosen", "--username", "d1", "--password", "sandi-dosen-1", "--nip", "D1"], { umask: "022" })).exitCode).toBe(0);
  const out = temporaryDir();
  const backup = join(out, "cadangan.tar.gz");
  expect((await cliProcess(dataDir, ["backup", backup], { umask: "022" })).exitCode).toBe(0);
  const exported = join(out, "statistik.csv");
  expect((await cliProcess(dataDir, ["stats", "export", "--out", exported], { umask: "022" })).exitCode).toBe(0);
  expect(mode(backup)).toBe("600");
  expect(mode(exported)).toBe("600");
});

test("an existing folder and database left readable by others are narrowed when opened", async () => {
  const dataDir = temporaryDir();
  mkdirSync(join(dataDir, "photos"), { mode: 0o755 });
  const database = new Database(join(dataDir, "skrining.db"), { create: true });
  database.close();
  writeFileSync(join(dataDir, "secret"), "s".repeat(64) + "\n");
  for (const path of [dataDir, join(dataDir, "photos")]) chmodSync(path, 0o755);
  for (const path of [join(dataDir, "skrining.db"), join(dataDir, "secret")]) chmodSync(path, 0o644);

  expect((await cliProcess(dataDir, ["accounts", "list"], { umask: "022" })).exitCode).toBe(0);
  for (const folder of ["", "photos"]) expect(mode(join(dataDir, folder))).toBe("700");
  for (const file of ["skrining.db", "secret"]) expect(mode(join(dataDir, file))).toBe("600");
});
