import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { closeContext, createContext, type AppContext } from "../../src/context";
import { silentLogger } from "../../src/logger";
import { runCli, temporaryDir, testEnvironment } from "../helpers";
import { cli, csvFile, outputLines, reportedLines, rowCounts, userRow, withDatabase } from "./support";

describe("accounts add and accounts list", () => {
  const dataDir = temporaryDir();

  test("add creates a lecturer and a student with every profile option", async () => {
    const lecturer = await cli(dataDir, ["accounts", "add", "--role", "dosen", "--username", "dsn.wali", "--password", "dosen-wali-1", "--nip", "D77", "--nama", "Dosen Wali", "--activated"]);
    expect(lecturer.stderr).toBe("");
    expect(lecturer.exitCode).toBe(0);
    // The folder was empty: the first command says it starts a data folder there.
    expect(outputLines(lecturer.stdout)).toEqual([`Folder data baru dibuat: ${dataDir}`, expect.stringContaining("dsn.wali")]);

    const student = await cli(dataDir, [
      "accounts", "add", "--role", "mahasiswa", "--username", "budi", "--password", "budi-pass-1", "--nim", "2401999",
      "--nama", "Budi Utomo", "--jurusan", "Informatika", "--angkatan", "2024", "--kelas", "TI-A", "--nip-doswal", "D77",
    ]);
    expect(student.stderr).toBe("");
    expect(student.exitCode).toBe(0);

    expect(rowCounts(dataDir)).toEqual({ users: 2, dosen: 1, mahasiswa: 1, jurusan: 1 });
    withDatabase(dataDir, (db) => {
      expect(db.query("SELECT NIP, nama_dosen FROM dosen").all()).toEqual([{ NIP: "D77", nama_dosen: "Dosen Wali" }]);
      expect(
        db.query("SELECT m.NIM, m.nama_mahasiswa, j.nama_jurusan, m.angkatan, m.kelas, m.NIP_doswal FROM mahasiswa m LEFT JOIN jurusan j ON j.Id_Jurusan = m.id_jurusan").get(),
      ).toEqual({ NIM: "2401999", nama_mahasiswa: "Budi Utomo", nama_jurusan: "Informatika", angkatan: "2024", kelas: "TI-A", NIP_doswal: "D77" });
    });
    expect(userRow(dataDir, "dsn.wali")).toMatchObject({ role: "dosen", is_activated: 1 });
    // Without --activated the account waits for its owner's activation.
    const budi = userRow(dataDir, "budi")!;
    expect(budi).toMatchObject({ role: "mahasiswa", is_activated: 0 });
    expect(await Bun.password.verify("budi-pass-1", budi.password_hash)).toBe(true);
  });

  test("add refuses a username that already exists, whatever the role, and writes nothing", async () => {
    const before = rowCounts(dataDir);
    const hash = userRow(dataDir, "budi")!.password_hash;
    for (const args of [
      ["--role", "mahasiswa", "--username", "budi", "--password", "other-pass-1", "--nim", "2401888"],
      ["--role", "admin", "--username", "budi", "--password", "other-pass-1"],
    ]) {
      const result = await cli(dataDir, ["accounts", "add", ...args]);
      expect(result.exitCode).not.toBe(0);
      expect(result.stdout).toBe("");
      const lines = outputLines(result.stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("budi");
    }
    expect(rowCounts(dataDir)).toEqual(before);
    expect(userRow(dataDir, "budi")!.password_hash).toBe(hash);
  });

  test("add refuses a student without --nim and a lecturer without --nip", async () => {
    const before = rowCounts(dataDir);
    const student = await cli(dataDir, ["accounts", "add", "--role", "mahasiswa", "--username", "tanpa.nim", "--password", "pass-tanpa-1"]);
    expect(student.exitCode).not.toBe(0);
    expect(outputLines(student.stderr)).toHaveLength(1);
    expect(student.stderr).toMatch(/nim/i);
    const lecturer = await cli(dataDir, ["accounts", "add", "--role", "dosen", "--username", "tanpa.nip", "--password", "pass-tanpa-1"]);
    expect(lecturer.exitCode).not.toBe(0);
    expect(lecturer.stderr).toMatch(/nip/i);
    expect(rowCounts(dataDir)).toEqual(before);
  });

  test("list prints a table: a header, then one line per account in id order", async () => {
    const added = await cli(dataDir, ["accounts", "add", "--role", "dosen", "--username", "dsn.dua", "--password", "dosen-dua-01", "--nip", "D78", "--nama", "Dosen Dua"]);
    expect(added.exitCode).toBe(0);

    const result = await cli(dataDir, ["accounts", "list"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const lines = outputLines(result.stdout);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/USERNAME/);
    expect(lines[0]).toMatch(/ROLE/);
    const cells = lines.slice(1).map((line) => line.trim().split(/\s{2,}/));
    expect(cells.map((row) => row[1])).toEqual(["dsn.wali", "budi", "dsn.dua"]);
    expect(lines[1]).toMatch(/\bdosen\b/);
    expect(lines[1]).toContain("D77");
    expect(lines[2]).toMatch(/\bmahasiswa\b/);
    expect(lines[2]).toContain("2401999");
    expect(lines[2]).toContain("Budi Utomo");
    expect(result.stdout).not.toMatch(/\$2[aby]\$/);
  });

  test("list --role dosen --json: a JSON array of lecturers only, without any password field", async () => {
    const result = await cli(dataDir, ["accounts", "list", "--role", "dosen", "--json"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const list = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((account) => account.username)).toEqual(["dsn.wali", "dsn.dua"]);
    for (const account of list) {
      expect(account.role).toBe("dosen");
      for (const key of Object.keys(account)) expect(key).not.toMatch(/pass|hash/i);
    }
    expect(result.stdout).not.toMatch(/\$2[aby]\$/);

    const none = await cli(dataDir, ["accounts", "list", "--role", "admin", "--json"]);
    expect(none.exitCode).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual([]);
  });

  test("list --role with an unknown role fails", async () => {
    const result = await cli(dataDir, ["accounts", "list", "--role", "guru"]);
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("guru");
  });
});

describe("the data folder", () => {
  test("SKRINING_DATA is used when --data is absent, and --data wins over it", async () => {
    const fromEnvironment = temporaryDir();
    const fromOption = temporaryDir();
    const viaEnvironment = await runCli(["accounts", "add", "--role", "admin", "--username", "root.env", "--password", "root-pass-01"], {
      env: { SKRINING_DATA: fromEnvironment },
    });
    expect(viaEnvironment.stderr).toBe("");
    expect(viaEnvironment.exitCode).toBe(0);
    expect(userRow(fromEnvironment, "root.env")).toMatchObject({ role: "admin" });
    for (const entry of ["skrining.db", "photos", "models", "secret"]) expect(existsSync(join(fromEnvironment, entry))).toBe(true);

    const viaOption = await runCli(["--data", fromOption, "accounts", "add", "--role", "admin", "--username", "root.opt", "--password", "root-pass-02"], {
      env: { SKRINING_DATA: fromEnvironment },
    });
    expect(viaOption.exitCode).toBe(0);
    expect(userRow(fromOption, "root.opt")).toMatchObject({ role: "admin" });
    expect(userRow(fromEnvironment, "root.opt")).toBeNull();
  });
});

describe("accounts passwd", () => {
  let dataDir: string;
  let context: AppContext;
  let app: ReturnType<typeof createApp>;

  async function call(method: string, path: string, options: { body?: unknown; token?: string } = {}) {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await app.handle(
      new Request(`http://localhost${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) }),
    );
    return { status: response.status, body: (await response.json()) as any };
  }

  const login = (username: string, password: string) => call("POST", "/api/auth/login", { body: { username, password } });

  beforeAll(async () => {
    dataDir = temporaryDir();
    const imported = await cli(dataDir, [
      "accounts",
      "import",
      csvFile(`role,username,password,nim,nip,nama,activated
mahasiswa,mhs1,mhs-pass-01,N001,,Mahasiswa Satu,true
mahasiswa,mhs2,mhs-pass-02,N002,,Mahasiswa Dua,true
mahasiswa,mhs3,mhs-pass-03,N003,,Mahasiswa Tiga,true
`),
    ]);
    expect(imported.exitCode).toBe(0);
    // The running "server": the same data folder, opened in this process.
    context = createContext(loadConfig(dataDir, testEnvironment), silentLogger);
    app = createApp(context, () => "203.0.113.9");
  });
  afterAll(() => closeContext(context));

  test("reads the new password from stdin without its trailing newline, and ends the tokens issued before", async () => {
    const before = await login("mhs1", "mhs-pass-01");
    expect(before.status).toBe(200);
    const { access_token: access, refresh_token: refresh } = before.body;
    expect((await call("GET", "/api/auth/me", { token: access })).status).toBe(200);

    const result = await cli(dataDir, ["accounts", "passwd", "mhs1"], { stdin: "ganti-sandi-baru\n" });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("mhs1");

    expect(await call("GET", "/api/auth/me", { token: access })).toEqual({ status: 401, body: { error: "Token sudah dicabut." } });
    expect(await call("POST", "/api/auth/refresh", { token: refresh })).toEqual({ status: 401, body: { error: "Token sudah dicabut." } });

    expect((await login("mhs1", "mhs-pass-01")).status).toBe(401);
    expect((await login("mhs1", "ganti-sandi-baru\n")).status).toBe(401);
    const after = await login("mhs1", "ganti-sandi-baru");
    expect(after.status).toBe(200);
    expect((await call("GET", "/api/auth/me", { token: after.body.access_token })).status).toBe(200);

    // Other users' tokens are untouched.
    const other = await login("mhs2", "mhs-pass-02");
    await cli(dataDir, ["accounts", "passwd", "mhs3"], { stdin: "sandi-mhs3-baru\n" });
    expect((await call("GET", "/api/auth/me", { token: other.body.access_token })).status).toBe(200);
  });

  test("a Windows line end (CRLF) is stripped too", async () => {
    const result = await cli(dataDir, ["accounts", "passwd", "mhs2"], { stdin: "sandi-dari-windows\r\n" });
    expect(result.exitCode).toBe(0);
    expect((await login("mhs2", "sandi-dari-windows")).status).toBe(200);
  });

  test("a too-short password is refused and changes nothing, not even the tokens", async () => {
    const token = (await login("mhs2", "sandi-dari-windows")).body.access_token;
    const stored = userRow(dataDir, "mhs2")!;
    const result = await cli(dataDir, ["accounts", "passwd", "mhs2"], { stdin: "pendek\n" });
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(outputLines(result.stderr)).toHaveLength(1);
    expect(userRow(dataDir, "mhs2")).toEqual(stored);
    expect((await call("GET", "/api/auth/me", { token })).status).toBe(200);

    const empty = await cli(dataDir, ["accounts", "passwd", "mhs2"], { stdin: "" });
    expect(empty.exitCode).not.toBe(0);
    expect(userRow(dataDir, "mhs2")).toEqual(stored);
  });

  test("an unknown username is refused with a one-line reason", async () => {
    const before = rowCounts(dataDir);
    const result = await cli(dataDir, ["accounts", "passwd", "tidak.ada"], { stdin: "sandi-yang-cukup-panjang\n" });
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe("");
    const lines = outputLines(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("tidak.ada");
    expect(rowCounts(dataDir)).toEqual(before);
  });
});

// decisions §10: one password rule, and one text for it, wherever a password is set.
describe("the password rule in every command", () => {
  const rule = "Password harus minimal 8 karakter, maksimal 72 byte, dan tidak boleh hanya berisi spasi.";
  const refused: [string, string][] = [
    ["7 characters", "1234567"],
    ["73 bytes", "a".repeat(73)],
    ["8 spaces", " ".repeat(8)],
    ["tabs and spaces", "\t \t \t \t \t"],
  ];

  test.each(refused)("a password of %s is refused by add, import and passwd, and nothing is written", async (_name, password) => {
    const dataDir = temporaryDir();
    expect((await cli(dataDir, ["accounts", "add", "--role", "admin", "--username", "ada", "--password", "sandi-awal-1"])).exitCode).toBe(0);
    const before = rowCounts(dataDir);
    const stored = userRow(dataDir, "ada");

    const added = await cli(dataDir, ["accounts", "add", "--role", "admin", "--username", "baru", "--password", password]);
    expect(added.exitCode).not.toBe(0);
    expect(added.stderr).toContain(rule);

    const imported = await cli(dataDir, ["accounts", "import", csvFile(`role,username,password\nadmin,baru,"${password}"\n`)]);
    expect(imported.exitCode).not.toBe(0);
    expect(reportedLines(imported.stderr).get(2)).toEqual([rule]);

    const changed = await cli(dataDir, ["accounts", "passwd", "ada"], { stdin: `${password}\n` });
    expect(changed.exitCode).not.toBe(0);
    expect(changed.stderr).toContain(rule);

    // At a terminal the rule is checked before the password is asked for a second time.
    const typed = await cli(dataDir, ["accounts", "passwd", "ada"], { terminal: [password] });
    expect(typed.exitCode).toBe(1);
    expect(outputLines(typed.stderr)).toEqual(["Password baru: ", `skrining: ${rule}`]);

    expect(rowCounts(dataDir)).toEqual(before);
    expect(userRow(dataDir, "ada")).toEqual(stored);
  });
});

/** Every account and session row, to show that a refused command wrote nothing. */
