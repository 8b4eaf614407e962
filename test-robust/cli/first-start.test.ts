import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { unshownPasswordFile } from "../../src/accounts/first-admin";
import { cliEnvironment, repositoryRoot, temporaryDir } from "../../test/helpers";
import { freePort, launchInProcess, serveInProcess, stop, stopStarted } from "../../test/server-process";
import { cli, outputLines, withDatabase } from "../../test/cli/support";

// The first admin's random password is printed once, by the start that creates the admin.
// A first start that fails never loses it: the admin is created only once the server
// listens, and an admin whose password never reached the start-up lines' reader is
// named at every start with the command that sets one. The servers run in this process
// (serveInProcess); the start whose output meets a closed pipe is a real process.

afterEach(stopStarted);

const admins = (dataDir: string) => withDatabase(dataDir, (db) => db.query<{ username: string }, []>("SELECT username FROM users WHERE role = 'admin'").all().map((row) => row.username));
const passwordLine = /Akun admin pertama dibuat: username "admin", password "([A-Za-z0-9_-]{12,})"/;
const reminder = (dataDir: string) =>
  `Password akun admin "admin" belum pernah ditampilkan (start pertamanya berhenti sebelum mencetaknya); tetapkan password: skrining --data ${dataDir} accounts passwd admin`;

async function login(port: number, password: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password }) });
  await response.arrayBuffer();
  return response.status;
}

describe("the first start", () => {
  test("refused because the port is in use: no admin is created, and the next start prints the password", async () => {
    const dataDir = join(temporaryDir("skrining-first-"), "data");
    const occupant = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("lain") });
    try {
      const refused = await cli(dataDir, ["serve", "--host", "127.0.0.1", "--port", String(occupant.port)]);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain(`Port ${occupant.port} sudah dipakai program lain`);
      expect(refused.stdout).not.toMatch(passwordLine);
    } finally {
      occupant.stop(true);
    }
    expect(admins(dataDir)).toEqual([]);
    expect(existsSync(join(dataDir, unshownPasswordFile))).toBe(false);

    const server = await serveInProcess({ dataDir });
    const password = passwordLine.exec(server.stdout())?.[1];
    expect(password).toBeDefined();
    expect(await login(server.port, password!)).toBe(200);
    expect(await stop(server)).toBe(0);
    // Shown: nothing left to remind of.
    expect(existsSync(join(dataDir, unshownPasswordFile))).toBe(false);
    const again = await serveInProcess({ dataDir });
    expect(again.stdout()).not.toContain("belum pernah ditampilkan");
    expect(await stop(again)).toBe(0);
  }, 60_000);

  test("whose start-up lines never reached a reader (serve | true): every later start says how to set the password, until it is set", async () => {
    const dataDir = join(temporaryDir("skrining-first-"), "data");
    const port = await freePort();
    const folder = temporaryDir("skrining-first-");
    // The reader is gone before the server prints: the password line meets a closed pipe.
    const child = Bun.spawn(
      ["bash", "-c", `"$@" 2>"${folder}/stderr" | true; echo "\${PIPESTATUS[0]}" > "${folder}/status"`, "bash", process.execPath, join(repositoryRoot, "cli", "main.ts"), "--data", dataDir, "serve", "--host", "127.0.0.1", "--port", String(port)],
      { env: cliEnvironment(), stdout: "ignore", stderr: "inherit" },
    );
    await child.exited;
    expect(readFileSync(join(folder, "status"), "utf8").trim()).toBe("0");
    expect(admins(dataDir)).toEqual(["admin"]);
    expect(readFileSync(join(dataDir, unshownPasswordFile), "utf8")).toBe("admin\n");

    const next = await serveInProcess({ dataDir });
    expect(outputLines(next.stdout())).toContain(reminder(dataDir));
    expect(next.stdout()).not.toMatch(passwordLine);
    expect(await stop(next)).toBe(0);

    const set = await cli(dataDir, ["accounts", "passwd", "admin"], { stdin: "sandi-admin-baru-1\n" });
    expect(set.exitCode).toBe(0);
    expect(existsSync(join(dataDir, unshownPasswordFile))).toBe(false);
    const after = await serveInProcess({ dataDir });
    expect(after.stdout()).not.toContain("belum pernah ditampilkan");
    expect(await login(after.port, "sandi-admin-baru-1")).toBe(200);
    expect(await stop(after)).toBe(0);
  }, 60_000);

  test("a request that comes while the admin is being created waits for it: a login as soon as the port answers works", async () => {
    const dataDir = join(temporaryDir("skrining-first-"), "data");
    const port = await freePort();
    // A slow hash (cost 12, a quarter of a second) holds the admin's creation open long after
    // the port answers (the first login is tried at once).
    const server = await launchInProcess({ dataDir, port, env: { SKRINING_BCRYPT_COST: "12", SKRINING_ADMIN_PASSWORD: "sandi-admin-awal-1" } });
    try {
      let status: number | undefined;
      for (const deadline = Date.now() + 20_000; status === undefined && Date.now() < deadline; ) {
        status = await login(port, "sandi-admin-awal-1").catch(() => Bun.sleep(20).then(() => undefined));
      }
      expect(status).toBe(200);
    } finally {
      await stop(server);
    }
  }, 30_000);

  test("a read without a token does not wait for the admin (it concerns no account); a login right after it still does", async () => {
    const dataDir = join(temporaryDir("skrining-first-"), "data");
    const port = await freePort();
    // Cost 13: the admin's hash takes about half a second, long after the port answers and
    // the database is read (a few milliseconds).
    const server = await launchInProcess({ dataDir, port, env: { SKRINING_BCRYPT_COST: "13", SKRINING_ADMIN_PASSWORD: "sandi-admin-awal-1" } });
    try {
      let status: number | undefined;
      for (const deadline = Date.now() + 20_000; status === undefined && Date.now() < deadline; ) {
        status = await fetch(`http://127.0.0.1:${port}/api/auth/me`).then(
          (response) => response.status,
          () => Bun.sleep(20).then(() => undefined),
        );
      }
      expect(status).toBe(401);
      // Answered while the admin was still being created.
      expect(admins(dataDir)).toEqual([]);
      expect(await login(port, "sandi-admin-awal-1")).toBe(200);
      expect(admins(dataDir)).toEqual(["admin"]);
    } finally {
      await stop(server);
    }
  }, 30_000);

  test("with SKRINING_ADMIN_PASSWORD the admin knows the password: nothing is marked", async () => {
    const dataDir = join(temporaryDir("skrining-first-"), "data");
    const server = await serveInProcess({ dataDir, env: { SKRINING_ADMIN_PASSWORD: "sandi-dari-env-1" } });
    expect(existsSync(join(dataDir, unshownPasswordFile))).toBe(false);
    expect(await stop(server)).toBe(0);
  }, 30_000);
});
