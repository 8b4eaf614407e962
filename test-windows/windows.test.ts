import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, win32 } from "node:path";
import packageJson from "../package.json";
import { freePort } from "../test/server-process";
import { readServiceRecipe } from "../test/deploy/service-recipe";
import { limits, tail, WinePrefix, type Running } from "./wine";

// `npm run test:windows`: the real dist/skrining.exe (npm run build:windows) on Linux under
// Wine, as a faculty would first use it on a Windows PC: copied to C:\Program Files\skrining,
// a first start in an empty folder whose path has a space, a roster imported, the admin and
// a student signed in, a questionnaire stored, a backup (plain and encrypted) checked and the
// encrypted one restored into a second folder, HTTPS with the local CA there, and
// the Windows service recipe's command line. The tests run in order and share one prefix.
// What Wine cannot show is listed in docs/operations.md ("Windows").

const executable = join(import.meta.dir, "..", "dist", "skrining.exe");
const installed = "C:\\Program Files\\skrining\\skrining.exe";
const folder = "C:\\skrining uji";
const dataFolder = `${folder}\\data skrining`;
const restoredFolder = `${folder}\\data pulihan`;
const backupFile = `${folder}\\cadangan skrining.tar.gz`;
const encryptedBackupFile = `${folder}\\cadangan skrining.tar.gz.enc`;
const backupPassphrase = { SKRINING_BACKUP_PASSPHRASE: "kunci cadangan uji windows" };
const rosterFile = `${folder}\\daftar akun.csv`;
const roster = `role,username,password,nim,nip,nama,jurusan,angkatan,kelas,nip_doswal,activated
dosen,dosen.uji,sandi-dosen-uji,,198501012010011001,Dosen Uji,,,,,true
mahasiswa,2601001,sandi-mhs-uji-1,2601001,,Mahasiswa Satu,Sistem Informasi,2026,A,198501012010011001,true
mahasiswa,2601002,sandi-mhs-uji-2,2601002,,Mahasiswa Dua,Sistem Informasi,2026,A,198501012010011001,true
`;
const student = { username: "2601001", password: "sandi-mhs-uji-1" };
/** The first start-up line, which names the build since issue 27: `skrining 0.1.0 (commit …, dibangun …) berjalan.` */
const startLine = new RegExp(`skrining ${packageJson.version.replaceAll(".", "\\.")} \\(commit [0-9a-f]+(-dirty)?, dibangun [^)]+\\) berjalan\\.`);

const wine = new WinePrefix();
let server: { running: Running; port: number } | undefined;
let adminPassword: string | undefined;
let screeningId: number | undefined;

/** Whether an earlier step got this far: a later step says which one it needs, not a confusing consequence. */
function need<T>(value: T | undefined, step: string): T {
  if (value === undefined) throw new Error(`needs the earlier step "${step}", which failed`);
  return value;
}

/**
 * Starts `skrining.exe` with `args` ("{port}" becomes a free port) and waits until it
 * answers /health and has printed `until` (its banner is printed once it listens).
 */
async function startServe(args: string[], options: { cwd: string; env?: Record<string, string>; until: RegExp }): Promise<{ running: Running; port: number }> {
  const port = await freePort();
  const running = wine.start(installed, args.map((argument) => (argument === "{port}" ? String(port) : argument)), options);
  const deadline = Date.now() + limits.startSeconds * 1000;
  while (Date.now() < deadline) {
    if (running.child.exitCode !== null) throw new Error(`${running.description} ended with ${running.child.exitCode} before it answered; it printed:\n${tail(running.stdout() + running.stderr())}`);
    const answered = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5000) }).then(
      async (response) => (await response.arrayBuffer(), true),
      () => false,
    );
    if (answered && options.until.test(running.stdout())) return { running, port };
    await Bun.sleep(250);
  }
  throw new Error(`${running.description} did not answer on port ${port} and print ${options.until} within ${limits.startSeconds} s; it printed:\n${tail(running.stdout() + running.stderr())}`);
}

/** The banner's last lines: on a new installation its next steps (after the admin's password), otherwise the bcrypt line. */
const newInstallation = /Langkah berikutnya:/;
const restarted = /Password diperiksa dengan bcrypt .*\n/;

async function call(port: number, method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    // An answer that never comes fails the step with its request named, not the whole file's timeout.
    signal: AbortSignal.timeout(limits.commandSeconds * 1000),
  }).catch((error: unknown) => {
    throw new Error(`${method} ${path} got no answer: ${error instanceof Error ? error.message : String(error)}`);
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function signIn(port: number, username: string, password: string): Promise<string> {
  const answer = await call(port, "POST", "/api/auth/login", { body: { username, password } });
  if (answer.status !== 200) throw new Error(`sign-in of ${username} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.access_token as string;
}

/** Answers to the 68 items: every stress item 3, every motivation item 4. */
const answers = Object.fromEntries([...Array.from({ length: 40 }, (_, item) => [`S${item + 1}`, 3]), ...Array.from({ length: 28 }, (_, item) => [`M${item + 1}`, 4])]);

beforeAll(async () => {
  if (!existsSync(executable)) throw new Error(`${executable} is missing: npm run test:windows builds it first (npm run build:windows)`);
  await wine.create();
  wine.install(executable, installed);
  mkdirSync(wine.linuxPath(folder), { recursive: true });
  await wine.checkStarts(installed, packageJson.version, folder);
  console.log(`Wine prefix ready${wine.standInBuilt ? "; this Wine lacks bcryptprimitives.dll: the test's stand-in was built into its system32" : ""}.`);
});

afterAll(() => wine.dispose());

describe("skrining.exe under Wine", () => {
  test("first start in an empty folder whose path has a space: the banner, the first admin (its password from SKRINING_ADMIN_PASSWORD), /health", async () => {
    expect(readdirSync(wine.linuxPath(folder))).toEqual([]);
    // A generated password is shown on a terminal only (decisions §21): this output is a pipe, so the test gives one.
    adminPassword = "sandi-admin-wine-1";
    server = await startServe(["--data", dataFolder, "serve", "--host", "127.0.0.1", "--port", "{port}"], { cwd: folder, env: { SKRINING_ADMIN_PASSWORD: adminPassword }, until: newInstallation });
    const printed = server.running.stdout();
    expect(printed).toContain(`Folder data baru dibuat: ${dataFolder}`);
    expect(printed).toMatch(startLine);
    expect(printed).toContain(`http://127.0.0.1:${server.port}/`);
    expect(printed).toContain(`Data: ${dataFolder}; zona waktu Asia/Jakarta;`);
    const bcryptLine = /^Password diperiksa dengan bcrypt (native|JavaScript) .*$/m.exec(printed);
    expect(bcryptLine).not.toBeNull();
    console.log(`The executable says: ${bcryptLine![0]}`);
    expect(printed).toContain('Akun admin pertama dibuat: username "admin" dengan password dari SKRINING_ADMIN_PASSWORD.');
    expect(printed).not.toContain(adminPassword);
    expect(existsSync(join(wine.linuxPath(dataFolder), "skrining.db"))).toBe(true);

    const health = await call(server.port, "GET", "/health");
    expect(health).toEqual({
      status: 200,
      body: { status: "ok", version: packageJson.version, commit: expect.stringMatching(/^[0-9a-f]+(-dirty)?$/), build_date: expect.any(String), database: "ok", bcrypt: bcryptLine![1] === "native" ? "native" : "javascript" },
    });
  });

  test("accounts import of a small roster while the service runs", async () => {
    need(server, "first start");
    writeFileSync(wine.linuxPath(rosterFile), roster);
    const imported = await wine.run(installed, ["--data", dataFolder, "accounts", "import", rosterFile], { cwd: folder });
    expect({ exitCode: imported.exitCode, stderr: imported.stderr }).toEqual({ exitCode: 0, stderr: "" });
    expect(imported.stdout).toContain("Impor selesai: 3 akun dibuat, 0 diperbarui, 0 tidak berubah");
  });

  test("the admin and an imported student sign in; the student's questionnaire is stored", async () => {
    const { port } = need(server, "first start");
    const adminToken = await signIn(port, "admin", need(adminPassword, "first start"));
    expect((await call(port, "GET", "/api/auth/me", { token: adminToken })).body).toMatchObject({ username: "admin", role: "admin" });
    expect((await call(port, "POST", "/api/auth/login", { body: { username: student.username, password: "sandi-yang-salah" } })).status).toBe(401);

    const studentToken = await signIn(port, student.username, student.password);
    const submitted = await call(port, "POST", "/api/mahasiswa/kuesioner", { token: studentToken, body: { jawaban: answers } });
    expect(submitted.status).toBe(201);
    screeningId = submitted.body.Id_skrining as number;
    const latest = await call(port, "GET", `/api/mahasiswa/hasil/${student.username}`, { token: studentToken });
    expect(latest.status).toBe(200);
    expect(latest.body).toMatchObject({ Id_skrining: screeningId, NIM: student.username });
  });

  test("a backup while it runs, then Ctrl+C stops it cleanly (exit code 0)", async () => {
    const running = need(server, "first start");
    need(screeningId, "questionnaire");
    const backup = await wine.run(installed, ["--data", dataFolder, "backup", backupFile], { cwd: folder });
    expect({ exitCode: backup.exitCode, stderr: backup.stderr }).toEqual({ exitCode: 0, stderr: "" });
    expect(backup.stdout).toStartWith(`Cadangan tersimpan di ${backupFile} (`);
    const checked = await wine.run(installed, ["backup", "--check", backupFile], { cwd: folder });
    expect({ exitCode: checked.exitCode, stderr: checked.stderr }).toEqual({ exitCode: 0, stderr: "" });
    // Encrypted too (decisions §17): AES-256-GCM and scrypt in the Windows executable.
    const encrypted = await wine.run(installed, ["--data", dataFolder, "backup", encryptedBackupFile, "--encrypt"], { cwd: folder, env: backupPassphrase });
    expect({ exitCode: encrypted.exitCode, stderr: encrypted.stderr }).toEqual({ exitCode: 0, stderr: "" });
    expect(encrypted.stdout).toStartWith(`Cadangan terenkripsi tersimpan di ${encryptedBackupFile} (`);

    expect(await wine.interrupt(running.running, 30)).toBe(0);
    expect(running.running.stdout()).toContain("SIGINT diterima, menghentikan server...");
    server = undefined;
  });

  test("the encrypted backup restored into a second folder starts, and holds the student and the questionnaire", async () => {
    const id = need(screeningId, "questionnaire");
    expect(existsSync(wine.linuxPath(encryptedBackupFile))).toBe(true);
    const restored = await wine.run(installed, ["--data", restoredFolder, "restore", encryptedBackupFile], { cwd: folder, env: backupPassphrase });
    expect({ exitCode: restored.exitCode, stderr: restored.stderr }).toEqual({ exitCode: 0, stderr: "" });
    expect(restored.stdout).toContain(`dipulihkan ke ${restoredFolder}.`);

    const second = await startServe(["--data", restoredFolder, "serve", "--host", "127.0.0.1", "--port", "{port}"], { cwd: folder, until: restarted });
    // A restored folder is not a first start: no new admin.
    expect(second.running.stdout()).not.toContain("Akun admin pertama dibuat");
    const studentToken = await signIn(second.port, student.username, student.password);
    expect((await call(second.port, "GET", `/api/mahasiswa/hasil/${student.username}`, { token: studentToken })).body).toMatchObject({ Id_skrining: id });
    await signIn(second.port, "admin", need(adminPassword, "first start"));
    expect(await wine.interrupt(second.running, 30)).toBe(0);
  });

  test("tls init makes the local CA and certificate on Windows; serve answers over HTTPS and keeps the plain port for the certificate page", async () => {
    // decisions §18 in the Windows executable: @peculiar/x509 on WebCrypto, the PC's addresses as Wine reports them.
    const made = await wine.run(installed, ["--data", restoredFolder, "tls", "init", "--hostname", "skrining.fakultas.test"], { cwd: folder });
    expect({ exitCode: made.exitCode, stderr: made.stderr }).toEqual({ exitCode: 0, stderr: "" });
    expect(made.stdout).toContain("CA lokal baru dibuat");
    const status = await wine.run(installed, ["--data", restoredFolder, "tls", "status", "--json"], { cwd: folder });
    expect(status.exitCode).toBe(0);
    const facts = JSON.parse(status.stdout) as { ca: { sidik_jari: string }; sertifikat: { nama: string[]; alamat: string[] }; peringatan: string[] };
    expect(facts.sertifikat.nama).toContain("skrining.fakultas.test");
    expect(facts.sertifikat.alamat.slice(0, 2)).toEqual(["127.0.0.1", "::1"]);
    // Windows files have no mode bits to warn about.
    expect(facts.peringatan).toEqual([]);

    const httpsPort = await freePort();
    const served = await startServe(["--data", restoredFolder, "serve", "--host", "127.0.0.1", "--port", "{port}", "--https-port", String(httpsPort)], { cwd: folder, until: restarted });
    expect(served.running.stdout()).toContain("berjalan dengan HTTPS");
    const ca = readFileSync(wine.linuxPath(`${restoredFolder}\\tls\\ca.crt`), "utf8");
    const health = (await (await fetch(`https://127.0.0.1:${httpsPort}/health`, { tls: { ca }, signal: AbortSignal.timeout(limits.commandSeconds * 1000) } as RequestInit)).json()) as { tls: { sidik_jari: string } };
    expect(health.tls.sidik_jari).toBe(facts.ca.sidik_jari);
    const refused = await call(served.port, "POST", "/api/auth/login", { body: student });
    expect(refused).toEqual({ status: 403, body: { error: `Gunakan https://127.0.0.1:${httpsPort}/ (lihat http://127.0.0.1:${served.port}/).` } });
    const authority = await fetch(`http://127.0.0.1:${served.port}/ca.crt`, { signal: AbortSignal.timeout(limits.commandSeconds * 1000) });
    expect(authority.headers.get("content-type")).toBe("application/x-x509-ca-cert");
    expect(await wine.interrupt(served.running, 30)).toBe(0);
  });

  test("deploy/skrining-service.xml: its command line, run from its working folder as the installation steps prepare it, serves, logs to its file and stops on Ctrl+C within its stoptimeout", async () => {
    const recipe = readServiceRecipe();
    // The executable is where the recipe looks for it; the folders are the ones the steps create.
    expect(recipe.executable).toBe(installed);
    const valueOf = (option: string) => recipe.arguments[recipe.arguments.indexOf(option) + 1];
    const logFile = valueOf("--log-file")!;
    const backupFolder = recipe.arguments.includes("--backup-dir") ? valueOf("--backup-dir") : undefined;
    for (const created of [recipe.workingDirectory, recipe.logPath, valueOf("--data")!, ...(backupFolder ? [backupFolder] : [])]) {
      mkdirSync(wine.linuxPath(created), { recursive: true });
    }
    // The passphrase file of the encrypted backups, as step 2 writes it (Set-Content -NoNewline).
    if (recipe.arguments.includes("--backup-passphrase-file")) writeFileSync(wine.linuxPath(valueOf("--backup-passphrase-file")!), "kunci cadangan layanan uji");
    // Only the listening address is the test's: a free port on the loopback, not 0.0.0.0:5000 of the machine.
    const args = recipe.arguments.map((argument, index) => {
      const option = recipe.arguments[index - 1];
      return option === "--port" ? "{port}" : option === "--host" ? "127.0.0.1" : argument;
    });
    const service = await startServe(args, { cwd: recipe.workingDirectory, env: { SKRINING_ADMIN_PASSWORD: "sandi-admin-layanan" }, until: newInstallation });
    await signIn(service.port, "admin", "sandi-admin-layanan");

    const stopSeconds = Number(/^(\d+)\s*sec$/.exec(recipe.stopTimeout)?.[1]);
    expect(stopSeconds).toBeGreaterThan(0);
    expect(await wine.interrupt(service.running, stopSeconds)).toBe(0);
    const logged = readFileSync(wine.linuxPath(logFile), "utf8");
    expect(logged).toMatch(startLine);
    expect(logged).toContain("SIGINT diterima, menghentikan server...");
    expect(win32.dirname(logFile)).toBe(recipe.logPath);
  });

  // Issue 44, item 16: double-clicked, skrining.exe printed its help and closed its window at once (exit 1).
  test("without a command in a console window of its own (double-clicked in Explorer): says in Indonesian how to start, and waits for Enter; from a shell's console it does not wait", async () => {
    // A wide terminal, so that Wine's console does not wrap the lines; its cursor codes are left out.
    const onTerminal = (commandLine: string) => {
      const child = Bun.spawn(["script", "-qec", `stty cols 400; ${commandLine}`, "/dev/null"], { cwd: wine.linuxPath(folder), env: wine.environment, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
      let text = "";
      void (async () => {
        for await (const chunk of child.stdout as ReadableStream<Uint8Array>) text += new TextDecoder().decode(chunk);
      })();
      return { child, output: () => text.replaceAll("\r", "").replace(/\u001b\[[?0-9;]*[A-Za-z]/g, "") };
    };
    // `wine skrining.exe` on a terminal: the process is alone in its console, as a double-click leaves it.
    const alone = onTerminal(`wine '${installed}'`);
    for (const deadline = Date.now() + limits.commandSeconds * 1000; !alone.output().includes("Tekan Enter") && alone.child.exitCode === null && Date.now() < deadline; ) await Bun.sleep(100);
    const printed = alone.output();
    expect(printed).toContain("skrining adalah layanan untuk jaringan kampus, bukan aplikasi berjendela");
    expect(printed).toContain(`& "${installed}" --data C:\\ProgramData\\skrining\\data serve`);
    expect(printed).toContain("Tekan Enter untuk menutup jendela ini.");
    await Bun.sleep(2000);
    expect(alone.child.exitCode).toBeNull();
    // Enter as a terminal sends it: Wine reads its console in raw mode, where the key is a carriage return.
    (alone.child.stdin as import("bun").FileSink).write("\r");
    (alone.child.stdin as import("bun").FileSink).flush();
    const closed = await Promise.race([alone.child.exited, Bun.sleep(limits.commandSeconds * 1000).then(() => null)]);
    if (closed === null) alone.child.kill("SIGKILL");
    expect(closed).toBe(1);

    // Typed in a console the shell (cmd) shares: the same words, and the prompt comes back at once.
    const shared = onTerminal(`wine cmd /c '${installed}'`);
    const returned = await Promise.race([shared.child.exited, Bun.sleep(limits.commandSeconds * 1000).then(() => null)]);
    if (returned === null) shared.child.kill("SIGKILL");
    expect(returned).toBe(1);
    expect(shared.output()).toContain("skrining adalah layanan untuk jaringan kampus");
    expect(shared.output()).not.toContain("Tekan Enter");
  });
});
