import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { unshownPasswordFile } from "../../src/accounts/first-admin";
import { cliEnvironment, repositoryRoot, temporaryDir } from "../../test/helpers";
import { freePort, launchInProcess, serveInProcess, stop, stopStarted } from "../../test/server-process";
import { cli, outputLines, withDatabase } from "../../test/cli/support";
import { httpsFetch, tlsInit } from "../../test/tls/support";

// The first admin's random password is shown once, by the start that creates the admin, on
// its terminal only: never in a log file, its rotations or a service's journal (decisions
// §21), and it must be replaced at the first sign-in. A first start that fails never loses
// it: the admin is created only once the server listens, and an admin whose password never
// reached a terminal is named at every start with the command that sets one. The servers
// run in this process (serveInProcess, its standard output a terminal when the test says
// so); the start whose output meets a closed pipe is a real process.

afterEach(stopStarted);

const admins = (dataDir: string) => withDatabase(dataDir, (db) => db.query<{ username: string }, []>("SELECT username FROM users WHERE role = 'admin'").all().map((row) => row.username));
const passwordLine = /^Password admin pertama: ([A-Za-z0-9_-]{12,})$/m;
const reminder = (dataDir: string) =>
  `Password akun admin "admin" belum pernah ditampilkan (start pertamanya tidak di terminal, atau berhenti sebelum mencetaknya); tetapkan password: skrining --data ${dataDir} accounts passwd admin`;

async function signIn(port: number, password: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password }) });
  return { status: response.status, body: await response.json() };
}

const login = async (port: number, password: string) => (await signIn(port, password)).status;

/** A log file and every rotation of it, as text. */
const logFiles = (file: string) =>
  readdirSync(dirname(file))
    .filter((name) => name.startsWith(basename(file)))
    .map((name) => readFileSync(join(dirname(file), name), "utf8"));

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

    const server = await serveInProcess({ dataDir, terminal: true });
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

  test("on a terminal with --log-file: the password is on the terminal, in no log file or rotation, and must be replaced at the first sign-in", async () => {
    const dataDir = join(temporaryDir("skrining-first-"), "data");
    const log = join(temporaryDir("skrining-first-log-"), "skrining.log");
    // 1 KB: the start-up lines alone fill the file, so it is set aside at least once.
    const server = await serveInProcess({ dataDir, terminal: true, serveOptions: ["--log-file", log, "--log-max-size", "1KB"] });
    const password = passwordLine.exec(server.stdout())?.[1];
    expect(password).toBeDefined();
    expect(outputLines(server.stdout())).toContain('Akun admin pertama dibuat: username "admin"; passwordnya ditampilkan sekali di bawah, di terminal ini saja (tidak di log), dan harus diganti saat masuk pertama.');
    const logged = logFiles(log);
    expect(logged.length).toBeGreaterThan(1);
    expect(logged.join("\n")).toContain('Akun admin pertama dibuat: username "admin"');
    for (const text of logged) expect(text).not.toContain(password!);

    // The first sign-in may only replace it (decisions §21).
    const first = await signIn(server.port, password!);
    expect(first.body.user.must_change_password).toBe(true);
    const consoleAnswer = await fetch(`http://127.0.0.1:${server.port}/api/admin/akun`, { headers: { authorization: `Bearer ${first.body.access_token}` } });
    expect({ status: consoleAnswer.status, body: await consoleAnswer.json() }).toEqual({ status: 403, body: { error: "Ganti password sementara Anda dahulu." } });
    const changed = await fetch(`http://127.0.0.1:${server.port}/api/auth/password`, {
      method: "POST",
      headers: { authorization: `Bearer ${first.body.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ old_password: password, new_password: "sandi-admin-sendiri" }),
    });
    expect(changed.status).toBe(200);
    expect((await signIn(server.port, "sandi-admin-sendiri")).body.user).not.toHaveProperty("must_change_password");
    expect(await stop(server)).toBe(0);
    for (const text of logFiles(log)) expect(text).not.toContain(password!);
  }, 30_000);

  test("with HTTPS (tls/ made first, as the service files do): the password comes last, after the certificate's lines, on the terminal only; it signs in over HTTPS, held", async () => {
    const dataDir = join(temporaryDir("skrining-first-"), "data");
    await tlsInit(dataDir);
    const log = join(temporaryDir("skrining-first-log-"), "skrining.log");
    const httpsPort = await freePort();
    const server = await serveInProcess({ dataDir, terminal: true, serveOptions: ["--https-port", String(httpsPort), "--log-file", log] });
    const lines = outputLines(server.stdout());
    const password = passwordLine.exec(server.stdout())?.[1];
    expect(password).toBeDefined();
    const started = lines.findIndex((line) => line.includes("berjalan dengan HTTPS"));
    expect(started).toBeGreaterThanOrEqual(0);
    expect(lines.findIndex((line) => line.startsWith("Sertifikat CA lokal untuk ponsel"))).toBeGreaterThan(started);
    expect(lines.at(-1)).toBe(`Password admin pertama: ${password}`);
    expect(logFiles(log).join("\n")).toContain("berjalan dengan HTTPS");
    expect(logFiles(log).join("\n")).not.toContain(password!);
    const signedIn = await httpsFetch(dataDir)(`https://127.0.0.1:${httpsPort}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password }) });
    expect(((await signedIn.json()) as { user: { must_change_password?: boolean } }).user.must_change_password).toBe(true);
    expect(await stop(server)).toBe(0);
  }, 30_000);

  test("without a terminal (a service's journal, a pipe, a file) the password is shown nowhere; the start and every later one say how to set one", async () => {
    const dataDir = join(temporaryDir("skrining-first-"), "data");
    const log = join(temporaryDir("skrining-first-log-"), "skrining.log");
    const server = await serveInProcess({ dataDir, serveOptions: ["--log-file", log] });
    expect(server.stdout()).not.toMatch(passwordLine);
    expect(outputLines(server.stdout())).toContain(
      `Akun admin pertama dibuat: username "admin"; passwordnya tidak ditampilkan karena keluaran ini bukan terminal (bisa tersimpan di log). Tetapkan password: skrining --data ${dataDir} accounts passwd admin`,
    );
    expect(await stop(server)).toBe(0);
    expect(logFiles(log).join("\n")).not.toMatch(/Password admin pertama/);
    expect(readFileSync(join(dataDir, unshownPasswordFile), "utf8")).toBe("admin\n");
    const next = await serveInProcess({ dataDir });
    expect(outputLines(next.stdout())).toContain(reminder(dataDir));
    expect(await stop(next)).toBe(0);
    expect((await cli(dataDir, ["accounts", "passwd", "admin"], { stdin: "sandi-admin-baru-1\n" })).exitCode).toBe(0);
    expect(existsSync(join(dataDir, unshownPasswordFile))).toBe(false);
  }, 30_000);

  test("SKRINING_ADMIN_PASSWORD obeys the password rule: a short one stops the first start in one line, and no admin is made", async () => {
    const dataDir = join(temporaryDir("skrining-first-"), "data");
    const result = await cli(dataDir, ["serve", "--host", "127.0.0.1", "--port", String(await freePort())], { env: { SKRINING_ADMIN_PASSWORD: "abc" } });
    expect(result.exitCode).toBe(1);
    expect(outputLines(result.stderr)).toContain("skrining: SKRINING_ADMIN_PASSWORD tidak dipakai: Password harus minimal 8 karakter, maksimal 72 byte, dan tidak boleh hanya berisi spasi.");
    expect(admins(dataDir)).toEqual([]);
    expect(existsSync(join(dataDir, unshownPasswordFile))).toBe(false);
  }, 30_000);

  test("with SKRINING_ADMIN_PASSWORD the admin knows the password: nothing is marked", async () => {
    const dataDir = join(temporaryDir("skrining-first-"), "data");
    const server = await serveInProcess({ dataDir, env: { SKRINING_ADMIN_PASSWORD: "sandi-dari-env-1" } });
    expect(existsSync(join(dataDir, unshownPasswordFile))).toBe(false);
    expect(await stop(server)).toBe(0);
  }, 30_000);
});
