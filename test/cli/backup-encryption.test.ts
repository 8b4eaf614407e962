import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { list as listTar } from "tar";
import { hashPassword } from "../../src/accounts/passwords";
import { standardAccounts, temporaryDir } from "../helpers";
import { bytesFile, craftArchive, filesOf } from "../backup/crafted-archives";
import { cli, cliProcess, csvFile, outputLines, serviceOn, withDatabase } from "./support";

// Decisions §17: encrypted, authenticated backups. The passphrase comes from
// --passphrase-file, SKRINING_BACKUP_PASSPHRASE or the terminal (twice when an archive is
// made, once when one is read); a wrong passphrase or any changed byte is refused before
// anything is written. The format itself: test/backup/encryption.test.ts.

const passphrase = "kunci cadangan fakultas 2026";
const withPassphrase = { env: { SKRINING_BACKUP_PASSPHRASE: passphrase } };
const usernames = (dataDir: string) => withDatabase(dataDir, (db) => db.query<{ username: string }, []>("SELECT username FROM users ORDER BY Id_User").all().map((row) => row.username));
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** A file holding `text`, `fileMode` (0600 unless said), in a folder of its own. */
function passphraseFile(text: string, fileMode = 0o600): string {
  const path = join(temporaryDir("skrining-passphrase-"), "passphrase");
  writeFileSync(path, text, { mode: fileMode });
  return path;
}

/** How the refusal of a plain archive where an encrypted one is expected goes on. */
const plainTail =
  "arsip polos dapat diubah siapa saja tanpa ketahuan (misalnya hash password seorang admin ditukar), jadi tidak ada yang dipulihkan. Bila arsip polos ini memang yang dimaksud dan asalnya Anda ketahui, pulihkan dengan restore --allow-plain.";

/** A fresh target in an empty folder of its own. */
const newTarget = (name = "cadangan.tar.gz.enc") => join(temporaryDir("skrining-enc-backup-"), name);

let dataDir: string;
let encrypted: string;

beforeAll(async () => {
  dataDir = join(temporaryDir("skrining-enc-data-"), "data");
  expect((await cli(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
  encrypted = newTarget();
  const made = await cli(dataDir, ["backup", encrypted, "--encrypt"], withPassphrase);
  expect(made.stderr).toBe("");
  expect(made.exitCode).toBe(0);
});

describe("backup --encrypt", () => {
  test("writes an encrypted archive, 0600, that tar cannot open, and says how to keep its passphrase", async () => {
    const target = newTarget();
    const result = await cli(dataDir, ["backup", target, "--encrypt"], withPassphrase);
    expect(result.stderr).toBe("");
    expect(outputLines(result.stdout)).toEqual([
      expect.stringMatching(new RegExp(`^Cadangan terenkripsi tersimpan di ${target} \\(2 file, .*; didekripsi dan diperiksa utuh\\)\\. Tanpa passphrase-nya arsip ini tidak dapat dibuka`)),
    ]);
    const bytes = readFileSync(target);
    expect(bytes.subarray(0, 8).toString("latin1")).toBe("SKRENC01");
    // Nothing of the data shows: no tar path, no account name.
    expect(bytes.includes("skrining-backup/")).toBe(false);
    expect(bytes.includes("mhs1")).toBe(false);
    await expect(listTar({ file: target, strict: true })).rejects.toThrow();
    expect(mode(target)).toBe("600");
  });

  test("the key's cost: 2^SKRINING_BACKUP_KDF_COST (15 unless set) in the header, read back by --check; outside 10..20 refused before anything is written", async () => {
    const header = (file: string) => {
      const bytes = readFileSync(file);
      return JSON.parse(bytes.subarray(12, 12 + bytes.readUInt32BE(8)).toString("utf8"));
    };
    expect(header(encrypted)).toMatchObject({ kdf: "scrypt", N: 2 ** 10, r: 8, p: 1 });
    const byDefault = newTarget();
    const made = await cli(dataDir, ["backup", byDefault, "--encrypt"], { env: { ...withPassphrase.env, SKRINING_BACKUP_KDF_COST: "" } });
    expect(made.exitCode).toBe(0);
    expect(header(byDefault)).toMatchObject({ kdf: "scrypt", N: 2 ** 15, r: 8, p: 1 });
    expect((await cli(dataDir, ["backup", "--check", byDefault], withPassphrase)).exitCode).toBe(0);
    for (const cost of ["9", "21", "15.5"]) {
      const target = newTarget();
      const refused = await cli(dataDir, ["backup", target, "--encrypt"], { env: { ...withPassphrase.env, SKRINING_BACKUP_KDF_COST: cost } });
      expect(refused).toMatchObject({ exitCode: 1, stdout: "", stderr: `skrining: SKRINING_BACKUP_KDF_COST harus bilangan bulat antara 10 dan 20 (diberikan: ${cost}).\n` });
      expect(readdirSync(dirname(target))).toEqual([]);
    }
  });

  test("with --passphrase-file: its one line, without the line end or a BOM an editor adds", async () => {
    const target = newTarget();
    const file = passphraseFile(`\uFEFF${passphrase}\r\n`);
    expect((await cli(dataDir, ["backup", target, "--encrypt", "--passphrase-file", file])).exitCode).toBe(0);
    const restored = join(temporaryDir("skrining-enc-restore-"), "data");
    const result = await cli(restored, ["restore", target], withPassphrase);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
  });

  test("--passphrase-file wins over SKRINING_BACKUP_PASSPHRASE", async () => {
    const target = newTarget();
    const other = "passphrase dari file ini";
    expect((await cli(dataDir, ["backup", target, "--encrypt", "--passphrase-file", passphraseFile(other)], withPassphrase)).exitCode).toBe(0);
    const result = await cli(join(temporaryDir("skrining-enc-restore-"), "data"), ["backup", "--check", target], { env: { SKRINING_BACKUP_PASSPHRASE: other } });
    expect(result.exitCode).toBe(0);
  });

  test("on a terminal: asked twice without echo, the prompts on stderr", async () => {
    const target = newTarget();
    const result = await cli(dataDir, ["backup", target, "--encrypt"], { terminal: [passphrase, passphrase] });
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stderr).map((line) => line.trimEnd())).toEqual(["Passphrase cadangan baru:", "Ulangi passphrase cadangan:"]);
    expect(result.stderr).not.toContain(passphrase);
    expect((await cli(dataDir, ["backup", "--check", target], withPassphrase)).exitCode).toBe(0);
  });

  const refusals: [string, () => { args: string[]; options: Parameters<typeof cli>[2] }, string][] = [
    ["two different passphrases typed", () => ({ args: [], options: { terminal: [passphrase, `${passphrase}!`] } }), "kedua passphrase tidak sama; cadangan tidak dibuat."],
    ["a short passphrase typed (refused before it is asked again)", () => ({ args: [], options: { terminal: ["pendek"] } }), "Passphrase cadangan minimal 12 karakter."],
    ["a short passphrase in the environment", () => ({ args: [], options: { env: { SKRINING_BACKUP_PASSPHRASE: "pendek" } } }), "Passphrase cadangan minimal 12 karakter."],
    ["a short passphrase in the file", () => ({ args: ["--passphrase-file", passphraseFile("pendek\n")], options: {} }), "Passphrase cadangan minimal 12 karakter."],
    ["a passphrase file that does not exist", () => ({ args: ["--passphrase-file", "/tidak/ada/passphrase"], options: {} }), "File passphrase cadangan /tidak/ada/passphrase tidak ada; periksa --passphrase-file."],
    ["a passphrase file every user may read", () => ({ args: ["--passphrase-file", passphraseFile(passphrase, 0o644)], options: {} }), "dapat dibaca semua pengguna (mode 0644); batasi dulu: chmod 600"],
    ["an empty passphrase file", () => ({ args: ["--passphrase-file", passphraseFile("")], options: {} }), "kosong."],
    ["a passphrase file of two lines", () => ({ args: ["--passphrase-file", passphraseFile(`${passphrase}\nbaris kedua\n`)], options: {} }), "berisi lebih dari satu baris"],
  ];

  test.each(refusals)("%s: refused in one line, no file", async (_case, make, message) => {
    const { args, options } = make();
    const target = newTarget();
    const result = await cli(dataDir, ["backup", target, "--encrypt", ...args], options);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.split("\n").filter((line) => line.startsWith("skrining:"))).toEqual([expect.stringContaining(message)]);
    expect(result.stdout).toBe("");
    expect(readdirSync(join(target, ".."))).toEqual([]);
  });

  test("a process without a terminal and without a passphrase: one line saying how to give it, no file", async () => {
    const target = newTarget();
    const result = await cliProcess(dataDir, ["backup", target, "--encrypt"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe("skrining: --encrypt memerlukan passphrase: beri --passphrase-file <file> atau SKRINING_BACKUP_PASSPHRASE, atau jalankan perintah ini di terminal.\n");
    expect(readdirSync(join(target, ".."))).toEqual([]);
  });

  test("--passphrase-file without --encrypt is refused rather than writing a plain archive", async () => {
    const target = newTarget();
    const result = await cli(dataDir, ["backup", target, "--passphrase-file", passphraseFile(passphrase)]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("--passphrase-file saat membuat cadangan hanya berlaku bersama --encrypt.");
    expect(existsSync(target)).toBe(false);
  });
});

describe("restore of an encrypted archive", () => {
  test("with the passphrase from the environment: every account back, and no note about a plain archive", async () => {
    const restored = join(temporaryDir("skrining-enc-restore-"), "data");
    const result = await cli(restored, ["restore", encrypted], withPassphrase);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stdout)).toHaveLength(3);
    expect(outputLines(result.stdout)[1]).toEndWith(`dipulihkan ke ${restored}.`);
    expect(outputLines(result.stdout)[2]).toStartWith("Kunci token baru dibuat");
    expect(usernames(restored)).toEqual(usernames(dataDir));
  });

  test("typed once on a terminal", async () => {
    const restored = join(temporaryDir("skrining-enc-restore-"), "data");
    const result = await cli(restored, ["restore", encrypted], { terminal: [passphrase] });
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stderr).map((line) => line.trimEnd())).toEqual([`Passphrase cadangan ${encrypted}:`]);
  });

  test("asked only after the data folder's own refusals: a folder that is not empty is refused without asking", async () => {
    const result = await cli(dataDir, ["restore", encrypted], { terminal: [] });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Folder data ${dataDir} tidak kosong`);
    expect(result.stderr).not.toContain("Passphrase cadangan");
  });

  const wrongSources: [string, Parameters<typeof cli>[2]][] = [
    ["typed on a terminal", { terminal: ["bukan passphrase-nya"] }],
    ["from the environment", { env: { SKRINING_BACKUP_PASSPHRASE: "bukan passphrase-nya" } }],
    ["from a file", {}],
  ];

  test.each(wrongSources)("a wrong passphrase %s: refused, and not even the folder is created", async (source, options) => {
    const restored = join(temporaryDir("skrining-enc-restore-"), "data");
    const args = source === "from a file" ? ["--passphrase-file", passphraseFile("bukan passphrase-nya")] : [];
    const result = await cli(restored, ["restore", encrypted, ...args], options);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`skrining: Passphrase salah untuk ${encrypted}; tidak ada yang dipulihkan.`);
    expect(existsSync(restored)).toBe(false);
  });

  test("a process without a terminal and without a passphrase: one line saying how to give it", async () => {
    const restored = join(temporaryDir("skrining-enc-restore-"), "data");
    const result = await cliProcess(restored, ["restore", encrypted]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`skrining: ${encrypted} terenkripsi; passphrase-nya diperlukan: beri --passphrase-file <file> atau SKRINING_BACKUP_PASSPHRASE, atau jalankan perintah ini di terminal.\n`);
    expect(existsSync(restored)).toBe(false);
  });

  /** A copy of the encrypted archive changed by `change`. */
  function changed(change: (bytes: Buffer) => Buffer): string {
    const path = newTarget("diubah.tar.gz.enc");
    writeFileSync(path, change(Buffer.from(readFileSync(encrypted))));
    return path;
  }
  const headerEnd = (bytes: Buffer) => 12 + bytes.readUInt32BE(8);
  const flip = (at: (bytes: Buffer) => number) => (bytes: Buffer) => {
    bytes[at(bytes)]! ^= 0x01;
    return bytes;
  };

  const damage: [string, (bytes: Buffer) => Buffer, string][] = [
    ["a byte of the archive changed", flip((bytes) => headerEnd(bytes) + Math.floor((bytes.length - headerEnd(bytes)) / 2)), "terenkripsi tetapi tidak utuh"],
    ["the last byte (the final tag) changed", flip((bytes) => bytes.length - 1), "terenkripsi tetapi tidak utuh"],
    ["cut short", (bytes) => bytes.subarray(0, Math.floor(bytes.length * 0.6)), "terenkripsi tetapi tidak utuh"],
    ["bytes appended", (bytes) => Buffer.concat([bytes, Buffer.from("tambahan")]), "terenkripsi tetapi tidak utuh"],
    ["a byte of the header changed", flip(() => 20), ""],
  ];

  test.each(damage)("%s: refused by restore and by backup --check, nothing written", async (_case, change, message) => {
    const path = changed(change);
    const restored = join(temporaryDir("skrining-enc-restore-"), "data");
    const result = await cli(restored, ["restore", path], withPassphrase);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(message);
    expect(existsSync(restored)).toBe(false);
    const checked = await cli(restored, ["backup", "--check", path], withPassphrase);
    expect(checked.exitCode).toBe(1);
    expect(checked.stdout).toBe("");
  });

  test("with --force over a folder in use and a changed byte: the folder keeps its contents, nothing is moved aside", async () => {
    const parent = temporaryDir("skrining-enc-restore-");
    const target = join(parent, "data");
    expect((await cli(target, ["accounts", "add", "--role", "admin", "--username", "lama", "--password", "sandi-lama-1"])).exitCode).toBe(0);
    const before = readdirSync(target).sort();
    const result = await cli(target, ["restore", changed(flip((bytes) => bytes.length - 100)), "--force"], withPassphrase);
    expect(result.exitCode).toBe(1);
    expect(readdirSync(parent)).toEqual(["data"]);
    expect(readdirSync(target).sort()).toEqual(before);
    expect(usernames(target)).toEqual(["lama"]);
  });
});

describe("backup --check", () => {
  test("an encrypted archive: whole, authenticated; nothing is written and no data folder is needed", async () => {
    const folder = join(temporaryDir("skrining-check-"), "tidak-ada");
    const before = readdirSync(join(encrypted, ".."));
    const result = await cli(folder, ["backup", "--check", encrypted], withPassphrase);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stdout)).toEqual([
      expect.stringMatching(new RegExp(`^Arsip ${encrypted} utuh: 2 file, .* dari folder data ${dataDir}; terenkripsi, setiap bytenya terautentikasi dengan passphrase itu\\.$`)),
    ]);
    expect(existsSync(folder)).toBe(false);
    expect(readdirSync(join(encrypted, ".."))).toEqual(before);
  });

  test("a plain archive: whole, and said to be plain, with what that cannot show", async () => {
    const plain = newTarget("biasa.tar.gz");
    expect((await cli(dataDir, ["backup", plain])).exitCode).toBe(0);
    const result = await cli(dataDir, ["backup", "--check", plain]);
    expect(result.exitCode).toBe(0);
    const lines = outputLines(result.stdout);
    expect(lines[0]).toEndWith("; tidak terenkripsi.");
    expect(lines[1]).toStartWith("Arsip ini tidak terenkripsi: isinya cocok dengan manifestnya, tetapi siapa pun");
  });

  test("a plain archive with a changed byte: refused", async () => {
    const plain = newTarget("biasa.tar.gz");
    expect((await cli(dataDir, ["backup", plain])).exitCode).toBe(0);
    truncateSync(plain, Math.floor(statSync(plain).size * 0.7));
    const result = await cli(dataDir, ["backup", "--check", plain]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("bukan arsip cadangan yang utuh");
  });

  test("a wrong passphrase: refused", async () => {
    const result = await cli(dataDir, ["backup", "--check", encrypted], { env: { SKRINING_BACKUP_PASSPHRASE: "bukan passphrase-nya" } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("Passphrase salah");
  });

  test("with --encrypt: refused", async () => {
    const result = await cli(dataDir, ["backup", "--check", encrypted, "--encrypt"], withPassphrase);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("--check dan --encrypt tidak dipakai bersama");
  });
});

describe("decisions §21: a plain archive where an encrypted one is expected", () => {
  const forgedPassword = "sandi-palsu-2026";
  let forged: string;
  beforeAll(async () => {
    // What the red team made: a plain backup unpacked, the admin's hash swapped in its
    // database, the manifest computed again, and the result named as the encrypted one is.
    const plain = newTarget("biasa.tar.gz");
    expect((await cli(dataDir, ["backup", plain])).exitCode).toBe(0);
    const { files, manifest } = await filesOf(plain);
    const database = join(temporaryDir("skrining-forge-"), "skrining.db");
    writeFileSync(database, Buffer.concat([...files.find((file) => file.path === "skrining.db")!.pieces()]));
    const db = new Database(database);
    db.query("UPDATE users SET password_hash = ? WHERE username = 'admin'").run(await hashPassword(forgedPassword, 4));
    db.close();
    forged = newTarget("cadangan.tar.gz.enc");
    await craftArchive(forged, manifest, files.map((file) => (file.path === "skrining.db" ? bytesFile(file.path, readFileSync(database)) : file)));
  });

  const refusedCases: [string, () => string, { env?: Record<string, string> }][] = [
    ["named .enc, restored with --passphrase-file", () => "--passphrase-file", {}],
    ["named .enc, no passphrase given", () => "", {}],
    ["named .enc, the passphrase in the environment", () => "", withPassphrase],
  ];
  test.each(refusedCases)("%s: refused before anything is written", async (_case, option, options) => {
    const restored = join(temporaryDir("skrining-forged-restore-"), "data");
    const args = ["restore", forged, ...(option() === "--passphrase-file" ? ["--passphrase-file", passphraseFile(passphrase)] : [])];
    const result = await cli(restored, args, options);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(outputLines(result.stderr)).toEqual([`skrining: ${forged} tidak terenkripsi, padahal namanya berakhiran .enc: ${plainTail}`]);
    expect(existsSync(restored)).toBe(false);
  });

  test("a plain name with a passphrase given is refused too; --force over a folder moves nothing", async () => {
    const renamed = newTarget("cadangan.tar.gz");
    writeFileSync(renamed, readFileSync(forged));
    const target = join(temporaryDir("skrining-forged-restore-"), "data");
    expect((await cli(target, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
    const before = usernames(target);
    const result = await cli(target, ["restore", renamed, "--force", "--passphrase-file", passphraseFile(passphrase)]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`${renamed} tidak terenkripsi, padahal passphrase diberikan untuknya`);
    expect(readdirSync(dirname(target))).toEqual(["data"]);
    expect(usernames(target)).toEqual(before);
  });

  test("backup --check calls it no whole backup", async () => {
    const result = await cli(dataDir, ["backup", "--check", forged]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("tidak terenkripsi, padahal namanya berakhiran .enc");
  });

  test("with --allow-plain the admin who chose to restores it (and the forged password is then in force: why it is refused without)", async () => {
    const restored = join(temporaryDir("skrining-forged-restore-"), "data");
    const result = await cli(restored, ["restore", forged, "--allow-plain"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("Arsip ini tidak terenkripsi");
    const service = serviceOn(restored);
    try {
      expect((await service.login("admin", forgedPassword)).status).toBe(200);
    } finally {
      service.close();
    }
  });
});
