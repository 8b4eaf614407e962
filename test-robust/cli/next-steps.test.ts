import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnvironment, repositoryRoot, temporaryDir } from "../../test/helpers";
import { freePort } from "../../test/server-process";
import { serviceAccountUnavailable } from "../support";

// Issue 44, item 3, as the IT person met it: the start-up lines' next steps, run from another
// folder, made a second data/ there that the server never sees. The printed commands name the
// data folder by its absolute path (and `sudo -u` the account that owns it); accounts import,
// accounts add and tls init start a data folder only where --data or SKRINING_DATA names it.

const program = [process.execPath, join(repositoryRoot, "cli", "main.ts")];
const unavailable = serviceAccountUnavailable();
if (unavailable) console.warn(`next-steps, serve as the service's account: skipped, ${unavailable}`);

/** `skrining <args>` as a process started in `cwd`, as a person at a shell in that folder. */
async function skrining(cwd: string, args: string[], env: Record<string, string> = {}, runAs?: number) {
  const command = runAs === undefined ? [...program, ...args] : ["setpriv", `--reuid=${runAs}`, `--regid=${runAs}`, "--clear-groups", ...program, ...args];
  const child = Bun.spawn(command, { cwd, env: cliEnvironment(env), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, exitCode };
}

const running: ReturnType<typeof Bun.spawn>[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) {
    child.kill("SIGTERM");
    await child.exited;
  }
});

/** serve started in `cwd`; resolves with its start-up lines once the next steps are printed. */
async function serveIn(cwd: string, dataDir: string, env: Record<string, string> = {}, runAs?: number): Promise<string[]> {
  const port = await freePort();
  const args = ["--data", dataDir, "serve", "--host", "127.0.0.1", "--port", String(port)];
  const command = runAs === undefined ? [...program, ...args] : ["setpriv", `--reuid=${runAs}`, `--regid=${runAs}`, "--clear-groups", ...program, ...args];
  const child = Bun.spawn(command, { cwd, env: cliEnvironment({ SKRINING_ADMIN_PASSWORD: "sandi-admin-awal", ...env }), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  running.push(child);
  let text = "";
  void (async () => {
    for await (const chunk of child.stdout as ReadableStream<Uint8Array>) text += new TextDecoder().decode(chunk);
  })();
  for (const deadline = Date.now() + 20_000; !/^ {2}2\. /m.test(text); await Bun.sleep(25)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not print its next steps: ${text}${await new Response(child.stderr).text()}`);
  }
  return text.split("\n");
}

const roster = "role,username,password,nim,activated\nmahasiswa,2301001,sandi-mhs-001,2301001,true\n";

describe("commands that start a data folder only where --data names it", () => {
  const runs: [string, (folder: string) => string[]][] = [
    ["accounts import", (folder) => ["accounts", "import", join(folder, "daftar.csv")]],
    ["accounts add", () => ["accounts", "add", "--role", "admin", "--username", "admin2", "--password", "sandi-admin-2"]],
    ["tls init", () => ["tls", "init"]],
  ];

  test.each(runs)("%s from a folder without data/: refused naming --data, exit 1, nothing created", async (_name, args) => {
    const elsewhere = temporaryDir("skrining-elsewhere-");
    writeFileSync(join(elsewhere, "daftar.csv"), roster);
    const result = await skrining(elsewhere, args(elsewhere));
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([
      `skrining: Folder data ${join(elsewhere, "data")} (bawaan ./data di folder kerja ini) tidak ada; folder data baru tidak dibuat di sini tanpa disebut. ` +
        "Beri --data <folder data server> (atau SKRINING_DATA), mis. --data /var/lib/skrining; untuk sengaja memulai folder data baru di sini: --data ./data.",
    ]);
    expect(readdirSync(elsewhere)).toEqual(["daftar.csv"]);
  });

  test.each(runs)("%s with --data ./data or SKRINING_DATA named: starts the folder and says so", async (_name, args) => {
    const ways: { args: string[]; env: Record<string, string> }[] = [{ args: ["--data", "./data"], env: {} }, { args: [], env: { SKRINING_DATA: "data" } }];
    for (const named of ways) {
      const elsewhere = temporaryDir("skrining-elsewhere-");
      writeFileSync(join(elsewhere, "daftar.csv"), roster);
      const result = await skrining(elsewhere, [...named.args, ...args(elsewhere)], named.env);
      expect({ exitCode: result.exitCode, stderr: result.stderr }).toEqual({ exitCode: 0, stderr: "" });
      expect(result.stdout.split("\n")[0]).toBe(`Folder data baru dibuat: ${join(elsewhere, "data")}`);
    }
  });
});

describe("the start-up lines' next steps", () => {
  test("name the data folder by its absolute path: run from another folder, the printed import reaches the server's data", async () => {
    const home = temporaryDir("skrining-server-");
    const dataDir = join(home, "data");
    const lines = await serveIn(home, "data");
    const step = lines.find((line) => line.startsWith("  1. Impor daftar dosen dan mahasiswa: "))!;
    const printed = / dan mahasiswa: (.*) \(format kolom/.exec(step)![1]!;
    expect(printed).toBe(`skrining --data ${dataDir} accounts import daftar.csv`);
    expect(lines.find((line) => line.startsWith("  2. "))).toContain(`skrining --data ${dataDir} model add --type stress`);

    // The IT person's shell is elsewhere, with the roster beside them.
    const elsewhere = temporaryDir("skrining-elsewhere-");
    writeFileSync(join(elsewhere, "daftar.csv"), roster);
    const imported = await skrining(elsewhere, printed.split(" ").slice(1));
    expect(imported.exitCode).toBe(0);
    expect(imported.stdout).toStartWith("Impor selesai: 1 akun dibuat");
    expect(readdirSync(elsewhere)).toEqual(["daftar.csv"]);
    const listed = await skrining(elsewhere, ["--data", dataDir, "accounts", "list", "--json"]);
    expect(JSON.parse(listed.stdout).map((account: { username: string }) => account.username).sort()).toEqual(["2301001", "admin"]);
  }, 60_000);

  test("a folder another account owns: the printed commands run as that account (sudo -u)", async () => {
    const dataDir = join(temporaryDir("skrining-owned-"), "data");
    expect((await skrining(repositoryRoot, ["--data", dataDir, "accounts", "add", "--role", "admin", "--username", "admin", "--password", "sandi-admin-awal"])).exitCode).toBe(0);
    chownSync(dataDir, 65534, 65534);
    // Root (the test) runs a command on it, as an IT person at a root shell would.
    const added = await skrining(repositoryRoot, ["--data", dataDir, "accounts", "add", "--role", "mahasiswa", "--username", "2301002", "--password", "sandi-mhs-002", "--nim", "2301002"]);
    expect(added.stdout).toContain(`atau jalankan "sudo -u nobody skrining --data ${dataDir} accounts activate 2301002".`);
  });

  test.skipIf(unavailable !== null)("under systemd (INVOCATION_ID) as the service's own account: sudo -u that account", async () => {
    const parent = temporaryDir("skrining-service-");
    chmodSync(parent, 0o755);
    const dataDir = join(parent, "data");
    // The service's account owns its folder, as StateDirectory= makes it.
    const made = await skrining(repositoryRoot, ["--data", dataDir, "accounts", "add", "--role", "admin", "--username", "admin", "--password", "sandi-admin-awal"]);
    expect(made.exitCode).toBe(0);
    for (const entry of ["", "skrining.db", "secret", "photos", "models"]) chownSync(join(dataDir, entry), 65534, 65534);
    for (const entry of readdirSync(dataDir).filter((name) => name.startsWith("skrining.db-"))) chownSync(join(dataDir, entry), 65534, 65534);
    const lines = await serveIn(parent, dataDir, { INVOCATION_ID: "4f2d0c1e9b7a4e21a0c3d5e6f7a8b9c0", TMPDIR: parent }, 65534);
    expect(lines.find((line) => line.startsWith("  1. "))).toContain(`sudo -u nobody skrining --data ${dataDir} accounts import daftar.csv`);
    expect(existsSync(join(parent, "data", "skrining.db"))).toBe(true);
  }, 60_000);
});
