import { afterEach, describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import packageJson from "../../package.json";
import { cliEnvironment, repositoryRoot, runCli, temporaryDir } from "../../test/helpers";
import { freePort, serveInProcess, startServer, stop, stopStarted } from "../../test/server-process";

async function login(port: number, username: string, password: string) {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

// Only the servers this file started, by their own handle.
afterEach(stopStarted);
/** serve on a terminal, by its own pid: a test that failed before stopping it leaves no server running. */
const onTerminalPids = new Set<number>();
afterEach(() => {
  for (const pid of onTerminalPids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  onTerminalPids.clear();
});

/**
 * `skrining serve` with a terminal for its output (a pseudo-terminal made by `script`), as an
 * admin starts it by hand: what it printed there, and how to stop it (SIGTERM to serve itself).
 */
async function onTerminal(env: Record<string, string>) {
  const port = await freePort();
  const command = `echo "pid $$"; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(repositoryRoot, "cli", "main.ts"))} serve --host 127.0.0.1 --port ${port}`;
  const child = Bun.spawn(["script", "-qfec", command, "/dev/null"], { cwd: repositoryRoot, env: cliEnvironment(env), stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  let text = "";
  void (async () => {
    for await (const chunk of child.stdout as ReadableStream<Uint8Array>) text += new TextDecoder().decode(chunk);
  })();
  const deadline = Date.now() + 20_000;
  // The address, and the first admin's password line to its end: it comes after the banner's
  // "Akun admin pertama" line, and a chunk read between the two ended the wait too soon.
  while (!text.includes(`:${port}/`) || !/^Password admin pertama: \S+\r?\n/m.test(text)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve on a terminal did not start: ${text}`);
    await Bun.sleep(25);
  }
  const pid = Number(/^pid (\d+)/m.exec(text)![1]);
  onTerminalPids.add(pid);
  return {
    port,
    output: () => text,
    stop: async () => {
      process.kill(pid, "SIGTERM");
      onTerminalPids.delete(pid);
      // script -e ends with the code serve ended with.
      return await child.exited;
    },
  };
}

describe("serve", () => {
  test("first start with SKRINING_ADMIN_PASSWORD: prints its URL, creates admin, lays out the data folder, stops on SIGTERM with 0", async () => {
    const dataDir = temporaryDir();
    const adminPassword = "sandi-admin-dari-env";
    const server = await startServer({ dataDir, env: { SKRINING_ADMIN_PASSWORD: adminPassword } });

    expect(server.stdout()).toContain(`http://127.0.0.1:${server.port}`);
    expect(server.stdout()).not.toContain(adminPassword);

    const answer = await login(server.port, "admin", adminPassword);
    expect(answer.status).toBe(200);
    expect(answer.body.user).toMatchObject({ username: "admin", role: "admin", is_activated: true });
    const me = await fetch(`http://127.0.0.1:${server.port}/api/auth/me`, { headers: { authorization: `Bearer ${answer.body.access_token}` } });
    expect(me.status).toBe(200);
    expect((await login(server.port, "admin", "bukan-sandinya")).status).toBe(401);

    expect(statSync(join(dataDir, "skrining.db")).isFile()).toBe(true);
    expect(statSync(join(dataDir, "photos")).isDirectory()).toBe(true);
    expect(statSync(join(dataDir, "models")).isDirectory()).toBe(true);
    const secret = statSync(join(dataDir, "secret"));
    expect(secret.isFile()).toBe(true);
    expect(secret.mode & 0o777).toBe(0o600);
    expect(secret.size).toBeGreaterThanOrEqual(32);

    expect(await stop(server, "SIGTERM")).toBe(0);
  });

  test("first start without it, on a terminal (a pty): a random admin password once (via SKRINING_DATA); a second start shows none", async () => {
    const dataDir = temporaryDir();
    const first = await onTerminal({ SKRINING_DATA: dataDir });
    const output = first.output();
    const match = /^Password admin pertama: ([A-Za-z0-9_-]{12,})\r?$/m.exec(output);
    expect(match).not.toBeNull();
    const password = match![1]!;
    expect(output.split(password).length - 1).toBe(1);
    expect((await login(first.port, "admin", password)).body.user).toMatchObject({ username: "admin", must_change_password: true });
    expect(await first.stop()).toBe(0);
    // The data folder came from SKRINING_DATA.
    expect(statSync(join(dataDir, "skrining.db")).isFile()).toBe(true);

    const second = await startServer({ env: { SKRINING_DATA: dataDir } });
    expect(second.stdout()).toContain(`http://127.0.0.1:${second.port}`);
    expect((await login(second.port, "admin", password)).status).toBe(200);
    expect(await stop(second, "SIGINT")).toBe(0);
    expect(second.stdout()).not.toContain(password);
    expect(second.stdout()).not.toMatch(/Password admin pertama/);
  });

  test("first start without it, its output a pipe (as a service's journal is): no password anywhere, and how to set one", async () => {
    const dataDir = temporaryDir();
    const server = await startServer({ env: { SKRINING_DATA: dataDir } });
    expect(server.stdout()).not.toMatch(/Password admin pertama/);
    expect(server.stdout()).toContain(`Tetapkan password: skrining --data ${dataDir} accounts passwd admin`);
    expect(await stop(server)).toBe(0);
  });
});

// The banner is what the server prints: it runs in this process (serveInProcess).
describe("the banner", () => {
  test("a new installation: where to open it, the folder, zone and backups, the admin once, then the next steps", async () => {
    const dataDir = temporaryDir();
    const server = await serveInProcess({ dataDir, env: { SKRINING_ADMIN_PASSWORD: "sandi-admin-dari-env" } });
    const lines = server.stdout().trimEnd().split("\n");
    const at = (start: string) => lines.findIndex((line) => line.startsWith(start));
    expect(lines[at("skrining ")]).toEndWith(" berjalan. Buka di peramban (browser) dari jaringan kampus:");
    expect(lines[at("skrining ")]!.replace(" berjalan. Buka di peramban (browser) dari jaringan kampus:", "")).toMatch(fromSource);
    expect(lines).toContain(`  http://127.0.0.1:${server.port}/  (hanya dari PC ini)`);
    expect(lines).toContain(`Data: ${dataDir}; zona waktu Asia/Jakarta; cadangan otomatis tidak aktif (--backup-dir).`);
    expect(lines).toContain('Akun admin pertama dibuat: username "admin" dengan password dari SKRINING_ADMIN_PASSWORD.');
    const steps = at("Langkah berikutnya:");
    expect(steps).toBeGreaterThan(at("Akun admin pertama"));
    // With the absolute --data (issue 44, item 3): run from another folder it lands in this one.
    expect(lines[steps + 1]).toStartWith(`  1. Impor daftar dosen dan mahasiswa: skrining --data ${dataDir} accounts import daftar.csv`);
    expect(lines[steps + 2]).toStartWith("  2. Pilihan: daftarkan model prediksi");
    expect(lines[steps + 3]).toStartWith("  3. Jalankan dengan --backup-dir <folder> --backup-passphrase-file <file>");
    expect(await stop(server)).toBe(0);
  });

  test("once students exist: no admin line, no next steps; the backups and the zone as configured", async () => {
    const dataDir = temporaryDir();
    const imported = await runCli(["--data", dataDir, "accounts", "import", "examples/demo-accounts.csv"]);
    expect(imported.exitCode).toBe(0);
    const backups = temporaryDir();
    const server = await serveInProcess({ dataDir, env: { SKRINING_TZ: "Asia/Makassar" }, serveOptions: ["--backup-dir", backups, "--backup-every", "6h", "--backup-keep", "3"] });
    const output = server.stdout();
    expect(output).toContain(`Data: ${dataDir}; zona waktu Asia/Makassar; cadangan otomatis ke ${backups} tiap 6 jam, 3 terakhir disimpan, tidak terenkripsi.`);
    // Plain automatic backups: the banner recommends encryption for copies kept off the PC (decisions §17).
    expect(output).toContain("Cadangan yang dibawa keluar PC ini sebaiknya terenkripsi: jalankan dengan --backup-passphrase-file <file>");
    expect(output).toContain("Akun admin pertama dibuat");
    expect(output).not.toContain("Langkah berikutnya");
    expect(await stop(server)).toBe(0);
    const again = await serveInProcess({ dataDir });
    expect(again.stdout()).not.toContain("Akun admin pertama dibuat");
    expect(again.stdout()).not.toContain("Langkah berikutnya");
    expect(await stop(again)).toBe(0);
  });
});

// Issue 43, finding 7 (plain HTTP on the LAN, silently), as the red team met it: serve as a
// process of its own, bound to the LAN (`--host 0.0.0.0`, the default), without TLS.
describe("serve without TLS on the LAN", () => {
  const plainHttpWarning =
    "PERINGATAN: tanpa TLS, password dan data mahasiswa melintas jaringan kampus tanpa enkripsi (siapa pun di Wi-Fi yang sama dapat membacanya), dan ponsel tidak mendapat mode offline. " +
    "Jalankan 'skrining --data DATA tls init', lalu mulai ulang serve untuk HTTPS (docs/operations.md, bagian HTTPS).";
  const env = { SKRINING_ADMIN_PASSWORD: "sandi-admin-dari-env" };

  /** The start-up lines of a serve process, once all of them are out (the "Data:" line follows the warning). */
  async function startUpLines(options: Parameters<typeof startServer>[0]): Promise<{ lines: string[]; stop: () => Promise<number> }> {
    const server = await startServer(options);
    for (const deadline = Date.now() + 10_000; !/^Konsol admin/m.test(server.stdout()); await Bun.sleep(25)) {
      if (Date.now() > deadline) throw new Error(`no start-up lines: ${server.stdout()}`);
    }
    return { lines: server.stdout().trimEnd().split("\n"), stop: () => stop(server) };
  }

  test("every start warns, right after the addresses, that passwords cross the network unencrypted, naming skrining tls init; on loopback and with TLS it does not", async () => {
    const dataDir = temporaryDir();
    for (const start of ["first", "second"]) {
      const { lines, stop: stopped } = await startUpLines({ dataDir, env, serveOptions: ["--host", "0.0.0.0"] });
      const warning = lines.indexOf(plainHttpWarning.replace("DATA", dataDir));
      expect({ start, warned: warning > 0 }).toEqual({ start, warned: true });
      // After the addresses to open (the loopback one last), before the data folder's line.
      expect(lines[warning - 1]).toMatch(/^ {2}http:\/\/127\.0\.0\.1:\d+\/ {2}\(hanya dari PC ini\)$/);
      expect(lines[warning + 1]).toStartWith(`Data: ${dataDir};`);
      expect(await stopped()).toBe(0);
    }

    const loopback = await startUpLines({ dataDir, env });
    expect(loopback.lines.join("\n")).not.toContain("tanpa TLS");
    expect(await loopback.stop()).toBe(0);

    expect((await runCli(["--data", dataDir, "tls", "init"])).exitCode).toBe(0);
    const secure = await startUpLines({ dataDir, env, serveOptions: ["--host", "0.0.0.0", "--https-port", String(await freePort())] });
    expect(secure.lines[0]).toContain("berjalan dengan HTTPS");
    expect(secure.lines.join("\n")).not.toContain("tanpa TLS");
    expect(await secure.stop()).toBe(0);
  }, 60_000);
});

test("a port already in use: exit 1 with a sentence naming the port, no stack trace", async () => {
  const occupant = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  try {
    const dataDir = temporaryDir();
    const result = await runCli(["serve", "--data", dataDir, "--host", "127.0.0.1", "--port", String(occupant.port)], { env: { SKRINING_ADMIN_PASSWORD: "sandi-admin-dari-env" } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Port ${occupant.port} sudah dipakai program lain`);
    expect(result.stderr).not.toContain("kesalahan tak terduga");
    expect(result.stderr).not.toContain(" at ");
    // The data folder is usable afterwards: the database was closed, not left half-open.
    expect((await runCli(["accounts", "list", "--data", dataDir])).exitCode).toBe(0);
  } finally {
    occupant.stop(true);
  }
});

/** The commit the tests run from: from source, the program names it (with `-dirty` when files changed) instead of a build date. */
const head = Bun.spawnSync(["git", "rev-parse", "--short=12", "HEAD"]).stdout.toString().trim();
const fromSource = new RegExp(`^skrining ${packageJson.version.replaceAll(".", "\\.")} \\(commit ${head}(-dirty)?, dari kode sumber\\)$`);

test("--version prints the package.json version and the commit (run from source: no build date)", async () => {
  for (const flag of ["--version", "-V"]) {
    const result = await runCli([flag]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trimEnd()).toMatch(fromSource);
    expect(result.stderr).toBe("");
  }
});
