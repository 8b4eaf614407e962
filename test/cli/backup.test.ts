import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { create as createTar, extract as extractTar, list as listTar } from "tar";
import { writeBackup } from "../../src/backup/archive";
import { migrations } from "../../src/db/migrations";
import { standardAccounts, temporaryDir } from "../helpers";
import { constantModel } from "../models/support";
import { cli, cliProcess, csvFile, outputLines, withDatabase } from "./support";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

function usernames(db: Database): string[] {
  return db.query<{ username: string }, []>("SELECT username FROM users ORDER BY Id_User").all().map((row) => row.username);
}

/** Every entry of a .tar.gz as the tar tool sees it: type, mode and bytes, by path. */
async function entries(archive: string): Promise<Map<string, { type: string; mode: number; bytes: Buffer }>> {
  const found = new Map<string, { type: string; mode: number; bytes: Buffer }>();
  await listTar({
    file: archive,
    onReadEntry: (entry) => {
      const parts: Buffer[] = [];
      entry.on("data", (bytes: Buffer) => parts.push(bytes));
      entry.on("end", () => found.set(entry.path, { type: entry.type, mode: entry.mode ?? 0, bytes: Buffer.concat(parts) }));
    },
  });
  return found;
}

/** Every file under a folder (relative path → checksum), and every file's and folder's mode. */
function folderContents(folder: string): { files: Record<string, string>; modes: Record<string, string> } {
  const files: Record<string, string> = {};
  const modes: Record<string, string> = {};
  const walk = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      const key = relative(folder, path);
      modes[key] = mode(path);
      if (lstatSync(path).isDirectory()) walk(path);
      else files[key] = sha256(readFileSync(path));
    }
  };
  walk(folder);
  return { files, modes };
}

/** The database inside an archive, written to a file of its own for a look with SQLite. */
async function databaseIn(archive: string): Promise<string> {
  const path = join(temporaryDir("skrining-backup-db-"), "skrining.db");
  writeFileSync(path, (await entries(archive)).get("skrining-backup/data/skrining.db")!.bytes);
  return path;
}

const questionsReplacement = async (dataDir: string) => {
  const exported = await cli(dataDir, ["questions", "export"]);
  const questions = JSON.parse(exported.stdout) as { key: string; text: string }[];
  questions[0]!.text = "Teks butir pertama versi fakultas";
  const path = join(temporaryDir("skrining-questions-"), "questions.json");
  writeFileSync(path, JSON.stringify(questions));
  return path;
};

/**
 * A data folder with everything a backup carries: accounts, a model file, the three replaceable
 * data files, a photo; and what it leaves out: an unreferenced photo, an unfinished upload,
 * a copy from before a migration and a file a person put there.
 */
async function populatedDataDir(): Promise<string> {
  const dataDir = temporaryDir("skrining-backup-data-");
  expect((await cli(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
  const modelFile = join(temporaryDir("skrining-model-"), "model.json");
  writeFileSync(modelFile, JSON.stringify(constantModel("Tinggi", "Rendah")));
  expect((await cli(dataDir, ["model", "add", "--type", "stress", "--file", modelFile, "--activate"])).exitCode).toBe(0);
  expect((await cli(dataDir, ["questions", "import", await questionsReplacement(dataDir)])).exitCode).toBe(0);
  const help = join(temporaryDir("skrining-help-"), "help.json");
  writeFileSync(help, JSON.stringify({ title: "Layanan Konseling Fakultas", text: "Ruang B.104, Senin–Jumat." }));
  expect((await cli(dataDir, ["contact", "import", help])).exitCode).toBe(0);
  const notice = join(temporaryDir("skrining-notice-"), "privacy-notice.json");
  writeFileSync(notice, JSON.stringify({ version: "2027-1", title: "Pemberitahuan Privasi Fakultas", text: "Data Anda kami jaga." }));
  expect((await cli(dataDir, ["notice", "import", notice])).exitCode).toBe(0);
  writeFileSync(join(dataDir, "photos", "N001_1790000000_0a1b2c3d.jpg"), Buffer.alloc(5000, 7), { mode: 0o600 });
  mkdirSync(join(dataDir, "photos", "unreferenced"));
  writeFileSync(join(dataDir, "photos", "unreferenced", "N009_1.jpg"), "tanpa pemilik");
  writeFileSync(join(dataDir, "photos", ".upload-0123456789abcdef"), "setengah");
  mkdirSync(join(dataDir, "backups"));
  writeFileSync(join(dataDir, "backups", "skrining-before-migration-0003-to-0004-20260101-000000Z.db"), "salinan lama");
  writeFileSync(join(dataDir, "catatan-admin.txt"), "bukan milik skrining");
  return dataDir;
}

describe("backup", () => {
  let dataDir: string;
  let archive: string;
  let stdout: string;

  beforeAll(async () => {
    dataDir = await populatedDataDir();
    archive = join(temporaryDir("skrining-backup-"), "cadangan.tar.gz");
    const result = await cli(dataDir, ["backup", archive]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    stdout = result.stdout;
  });

  test("writes one .tar.gz of the whole data folder: the database snapshot, the secret, the data files, photos and models", async () => {
    expect(outputLines(stdout)).toEqual([expect.stringMatching(new RegExp(`^Cadangan tersimpan di ${archive.replaceAll(".", "\\.")} \\(7 file, \\d+(,\\d)? KB sebelum dimampatkan; diperiksa utuh\\)\\.$`))]);
    const found = await entries(archive);
    const model = readdirSync(join(dataDir, "models"))[0]!;
    expect([...found.keys()].sort()).toEqual(
      [
        "skrining-backup/data/help.json",
        `skrining-backup/data/models/${model}`,
        "skrining-backup/data/photos/N001_1790000000_0a1b2c3d.jpg",
        "skrining-backup/data/privacy-notice.json",
        "skrining-backup/data/questions.json",
        "skrining-backup/data/secret",
        "skrining-backup/data/skrining.db",
        "skrining-backup/manifest.json",
      ].sort(),
    );
    for (const [path, entry] of found) {
      expect({ path, type: entry.type, mode: entry.mode }).toEqual({ path, type: "File", mode: 0o600 });
      if (path.endsWith("skrining.db") || path.endsWith("manifest.json")) continue;
      // Every other file is carried byte for byte.
      expect(sha256(entry.bytes)).toBe(sha256(readFileSync(join(dataDir, path.slice("skrining-backup/data/".length)))));
    }
    expect(mode(archive)).toBe("600");
  });

  test("the manifest lists every file with its size and SHA-256, the schema level and when it was made", async () => {
    const found = await entries(archive);
    const manifest = JSON.parse(found.get("skrining-backup/manifest.json")!.bytes.toString("utf8"));
    const journal = withDatabase(dataDir, (db) => db.query<{ n: number; last: number }, []>("SELECT count(*) AS n, max(created_at) AS last FROM __drizzle_migrations").get()!);
    expect(manifest).toMatchObject({ format: "skrining-backup", formatVersion: 1, program: expect.stringMatching(/^skrining \d+\.\d+\.\d+/), dataDir });
    expect(manifest.schema).toEqual({ migrations: journal.n, lastMigrationCreatedAt: journal.last });
    expect(Date.now() - Date.parse(manifest.createdAt)).toBeLessThan(10 * 60_000);
    const listed = Object.fromEntries(manifest.files.map((file: { path: string; size: number; sha256: string }) => [file.path, file]));
    expect(Object.keys(listed).sort()).toEqual([...found.keys()].filter((path) => path !== "skrining-backup/manifest.json").map((path) => path.slice("skrining-backup/data/".length)).sort());
    for (const [path, entry] of found) {
      if (path === "skrining-backup/manifest.json") continue;
      expect(listed[path.slice("skrining-backup/data/".length)]).toEqual({ path: path.slice("skrining-backup/data/".length), size: entry.bytes.length, sha256: sha256(entry.bytes) });
    }
  });

  test("the database in the archive is a sound copy with the same rows and the same migration journal", async () => {
    const copy = new Database(await databaseIn(archive), { readonly: true });
    try {
      expect(copy.query("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
      expect(copy.query("SELECT * FROM users ORDER BY Id_User").all()).toEqual(withDatabase(dataDir, (db) => db.query("SELECT * FROM users ORDER BY Id_User").all()));
      expect(copy.query("SELECT * FROM prediction_models").all()).toEqual(withDatabase(dataDir, (db) => db.query("SELECT * FROM prediction_models").all()));
      const journal = withDatabase(dataDir, (db) => db.query("SELECT hash, created_at FROM __drizzle_migrations").all());
      expect(copy.query("SELECT hash, created_at FROM __drizzle_migrations").all()).toEqual(journal);
    } finally {
      copy.close();
    }
  });

  test("refuses to overwrite an existing file and leaves it untouched", async () => {
    const target = join(temporaryDir("skrining-backup-"), "ada.tar.gz");
    writeFileSync(target, "jangan ditimpa");
    const result = await cli(dataDir, ["backup", target]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(outputLines(result.stderr)).toEqual([`skrining: ${target} sudah ada; pilih nama file lain.`]);
    expect(readFileSync(target, "utf8")).toBe("jangan ditimpa");
  });

  test("refuses a target folder that does not exist, and writes nothing", async () => {
    const folder = join(temporaryDir("skrining-backup-"), "tidak-ada");
    const result = await cli(dataDir, ["backup", join(folder, "cadangan.tar.gz")]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`folder ${folder} tidak ada`);
    expect(existsSync(folder)).toBe(false);
  });

  test("is taken while another process holds an open write transaction, without that uncommitted write", async () => {
    const writer = new Database(join(dataDir, "skrining.db"));
    const target = join(temporaryDir("skrining-backup-"), "saat-menulis.tar.gz");
    const before = withDatabase(dataDir, usernames);
    try {
      writer.run("PRAGMA busy_timeout = 10000");
      writer.run("BEGIN IMMEDIATE");
      writer.run("INSERT INTO users (username, password_hash, role) VALUES ('belum.commit', 'x', 'admin')");
      const result = await cli(dataDir, ["backup", target]);
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      writer.run("COMMIT");
    } finally {
      if (writer.inTransaction) writer.run("ROLLBACK");
      writer.close();
    }
    const copy = new Database(await databaseIn(target), { readonly: true });
    try {
      expect(usernames(copy)).toEqual(before);
    } finally {
      copy.close();
    }
    expect(withDatabase(dataDir, usernames)).toEqual([...before, "belum.commit"]);
  });
});

describe("restore", () => {
  let dataDir: string;
  let archive: string;

  beforeAll(async () => {
    dataDir = await populatedDataDir();
    archive = join(temporaryDir("skrining-backup-"), "cadangan.tar.gz");
    expect((await cli(dataDir, ["backup", archive])).exitCode).toBe(0);
  });

  /** A data folder in use before the restore. */
  const oldDataFolder = (target: string) => cli(target, ["accounts", "add", "--role", "admin", "--username", "lama", "--password", "sandi-lama-1"]);

  /**
   * What a restored folder must hold: every carried file of the original, byte for byte (the
   * database compared by rows), but the token secret: a new one (decisions §21) unless kept.
   */
  function expectRestored(restored: string, secret: "new" | "kept" = "new"): void {
    const { files, modes } = folderContents(restored);
    const original = folderContents(dataDir).files;
    // Not carried: the WAL files, the copies before a migration, a person's own file, set-aside photos, and the folder's identity (a restore elsewhere is another folder).
    const carried = Object.keys(original).filter((path) => !/^(skrining\.db-|backups|catatan-admin|photos\/unreferenced|photos\/\.upload-|folder-id$)/.test(path) && path !== "skrining.db");
    // The restore's own audit row is written and its database closed: no WAL file stays.
    expect(Object.keys(files).sort()).toEqual([...carried, "skrining.db"].sort());
    for (const path of carried.filter((path) => path !== "secret")) expect({ path, sha256: files[path] }).toEqual({ path, sha256: original[path]! });
    if (secret === "kept") expect(files.secret).toBe(original.secret!);
    else expect(files.secret).not.toBe(original.secret!);
    expect(readFileSync(join(restored, "secret"), "utf8")).toMatch(/^[A-Za-z0-9_-]{64}\n$/);
    expect(withDatabase(restored, (db) => db.query("SELECT * FROM users ORDER BY Id_User").all())).toEqual(withDatabase(dataDir, (db) => db.query("SELECT * FROM users ORDER BY Id_User").all()));
    for (const [path, found] of Object.entries(modes)) expect({ path, mode: found }).toEqual({ path, mode: lstatSync(join(restored, path)).isDirectory() ? "700" : "600" });
    expect(mode(restored)).toBe("700");
  }

  test("into a folder that does not exist: every file back, 0600 and 0700 whatever the umask, and one line saying the folder is new", async () => {
    const restored = join(temporaryDir("skrining-restore-"), "data");
    const result = await cliProcess(restored, ["restore", archive], { umask: "022" });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const lines = outputLines(result.stdout);
    expect(lines[0]).toBe(`Folder data baru dibuat: ${restored}`);
    expect(lines[1]).toStartWith(`Cadangan ${archive} (dibuat `);
    expect(lines[1]).toEndWith(`7 file) dipulihkan ke ${restored}.`);
    // A plain archive's restore says what it could not show (decisions §17).
    expect(lines[2]).toStartWith("Arsip ini tidak terenkripsi: isinya cocok dengan manifestnya, tetapi siapa pun yang memegang salinannya dapat mengubah keduanya");
    expect(lines[3]).toStartWith("Kunci token baru dibuat: semua sesi login berakhir");
    expect(lines).toHaveLength(4);
    expectRestored(restored);
    const listed = await cli(restored, ["accounts", "list", "--json"]);
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout).map((account: { username: string }) => account.username)).toEqual(withDatabase(dataDir, usernames));
  });

  test("into an empty folder that exists", async () => {
    const restored = temporaryDir("skrining-restore-");
    const result = await cli(restored, ["restore", archive]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain("Folder data baru dibuat");
    expectRestored(restored);
  });

  test("refuses a folder that is not empty without --force, and changes nothing", async () => {
    const before = folderContents(dataDir);
    const result = await cli(dataDir, ["restore", archive]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`Folder data ${dataDir} tidak kosong`);
    expect(result.stderr).toContain("--force");
    expect(folderContents(dataDir)).toEqual(before);
  });

  test("with --force first moves the old contents, whole, beside the folder, then restores", async () => {
    const parent = temporaryDir("skrining-restore-");
    const target = join(parent, "data");
    expect((await oldDataFolder(target)).exitCode).toBe(0);
    writeFileSync(join(target, "photos", "lama.jpg"), "foto lama");
    const old = folderContents(target).files;

    const result = await cli(target, ["restore", archive, "--force"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const aside = readdirSync(parent).filter((name) => name !== "data");
    expect(aside).toEqual([expect.stringMatching(/^data\.before-restore-\d{8}-\d{6}Z$/)]);
    expect(outputLines(result.stdout)[0]).toBe(`Isi lama folder data dipindahkan ke ${join(parent, aside[0]!)} (tidak dihapus).`);
    expect(folderContents(join(parent, aside[0]!)).files).toEqual(old);
    expect(withDatabase(join(parent, aside[0]!), usernames)).toEqual(["lama"]);
    expectRestored(target);
  });

  test("refuses, with --force too, while a process holds the folder's database open, and moves nothing", async () => {
    const parent = temporaryDir("skrining-restore-");
    const target = join(parent, "data");
    expect((await oldDataFolder(target)).exitCode).toBe(0);
    const before = folderContents(target).files;
    const holder = new Database(join(target, "skrining.db"));
    try {
      const result = await cli(target, ["restore", archive, "--force"]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(`sedang dibuka oleh proses ${process.pid}`);
    } finally {
      holder.close();
    }
    expect(readdirSync(parent)).toEqual(["data"]);
    expect(folderContents(target).files).toEqual(before);
  });

  /** A copy of the good archive changed by `change`, in a folder of its own. */
  function damaged(name: string, change: (path: string) => void): string {
    const path = join(temporaryDir("skrining-damaged-"), name);
    writeFileSync(path, readFileSync(archive));
    change(path);
    return path;
  }

  /** The good archive unpacked, changed, and packed again as a person would with tar. */
  async function repacked(change: (root: string) => void): Promise<string> {
    const root = temporaryDir("skrining-repack-");
    await extractTar({ file: archive, cwd: root });
    change(join(root, "skrining-backup"));
    const path = join(temporaryDir("skrining-repacked-"), "ulang.tar.gz");
    await createTar({ gzip: true, file: path, cwd: root }, ["skrining-backup"]);
    return path;
  }

  async function newerSchemaArchive(): Promise<string> {
    const folder = temporaryDir("skrining-newer-");
    expect((await cli(folder, ["accounts", "add", "--role", "admin", "--username", "baru", "--password", "sandi-baru-1"])).exitCode).toBe(0);
    const db = new Database(join(folder, "skrining.db"));
    db.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('dari-versi-mendatang', 4102444800000)");
    // This program refuses to open a newer schema, so the archive is written as a newer
    // program's `backup` would write it, from the database handle directly.
    const path = join(temporaryDir("skrining-newer-"), "baru.tar.gz");
    await writeBackup({ sqlite: db, dataDir: folder, target: path });
    db.close();
    return path;
  }

  const refusals: [string, () => Promise<string> | string, string][] = [
    ["a byte flipped in the middle", () => damaged("rusak.tar.gz", (path) => {
      const bytes = readFileSync(path);
      bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
      writeFileSync(path, bytes);
    }), "bukan arsip cadangan yang utuh"],
    ["cut short", () => damaged("terpotong.tar.gz", (path) => truncateSync(path, Math.floor(statSync(path).size * 0.6))), "bukan arsip cadangan yang utuh"],
    ["a bare database copy of an earlier version", () => damaged("lama.db", (path) => writeFileSync(path, readFileSync(join(dataDir, "skrining.db")))), "salinan basis data saja"],
    ["a text file", () => damaged("bukan.tar.gz", (path) => writeFileSync(path, "bukan arsip")), "bukan arsip cadangan yang utuh"],
    ["a file that does not exist", () => join(temporaryDir("skrining-missing-"), "tidak-ada.tar.gz"), "tidak ada"],
    ["a file the manifest does not list", () => repacked((root) => writeFileSync(join(root, "data", "photos", "sisipan.jpg"), "x")), "photos/sisipan.jpg tidak tercantum di manifest"],
    ["a file changed after it was written", () => repacked((root) => writeFileSync(join(root, "data", "secret"), "kunci lain\n")), "secret tidak sama dengan checksum di manifest"],
    ["a file missing", () => repacked((root) => rmSync(join(root, "data", "help.json"))), "help.json tidak ada di arsip"],
    ["a symbolic link", () => repacked((root) => symlinkSync("/etc/passwd", join(root, "data", "photos", "tautan.jpg"))), "bukan bagian cadangan skrining"],
    ["an empty manifest", () => repacked((root) => truncateSync(join(root, "manifest.json"), 0)), "manifest cadangan tidak dapat dibaca"],
    ["no manifest", () => repacked((root) => rmSync(join(root, "manifest.json"))), "manifest tidak ada"],
    // Worded and counted as every command refuses a newer database (issue 44).
    ["a database from a newer program", newerSchemaArchive, `skema basis datanya lebih baru dari program ini (migrasi ${String(migrations.length).padStart(4, "0")}; program ini ${migrations.at(-1)!.tag.split("_")[0]})`],
  ];

  test.each(refusals)("refuses an archive with %s, creating and changing nothing", async (_case, make, message) => {
    const file = await make();
    const target = join(temporaryDir("skrining-restore-"), "data");
    const result = await cli(target, ["restore", file]);
    expect(result.stderr).toContain(message);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(existsSync(target)).toBe(false);
  });

  test("with --force and a damaged archive: the folder keeps its contents and nothing is moved aside", async () => {
    const parent = temporaryDir("skrining-restore-");
    const target = join(parent, "data");
    expect((await oldDataFolder(target)).exitCode).toBe(0);
    const before = folderContents(target);
    const file = damaged("rusak.tar.gz", (path) => {
      const bytes = readFileSync(path);
      bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
      writeFileSync(path, bytes);
    });
    const result = await cli(target, ["restore", file, "--force"]);
    expect(result.exitCode).toBe(1);
    expect(readdirSync(parent)).toEqual(["data"]);
    expect(folderContents(target)).toEqual(before);
  });
});
