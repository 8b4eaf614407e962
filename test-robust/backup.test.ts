import { Database } from "bun:sqlite";
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { list as listTar } from "tar";
import { ownerFileName } from "../src/backup/backup-folder";
import { defaultQuestions } from "../src/skrining/questions";
import { canMount, mountTmpfs, remount, sh, unmountAll } from "../test/file-systems";
import { spawnCli, temporaryDir } from "../test/helpers";
import { decodeJwt, signJwt } from "../test/auth/support";
import { constantModel } from "../test/models/support";
import { pngSized } from "../test/photos/fixtures";
import { started, startServer, stop, type Running } from "../test/server-process";
import { emptyAcknowledged, preparedDataDir, writeLoad } from "./support";

afterEach(() => {
  for (const running of started.splice(0)) if (running.child.exitCode === null) running.child.kill("SIGKILL");
});
afterAll(unmountAll);

if (!canMount) console.warn("backup.test.ts: mount is not allowed here (needs root); the full-disk and read-only backup tests are skipped.");

async function call(server: Running, method: string, path: string, options: { token?: string; body?: unknown; form?: FormData } = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  return await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    headers,
    body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    signal: AbortSignal.timeout(10_000),
  });
}

async function login(server: Running, username: string, password: string): Promise<string> {
  const response = await call(server, "POST", "/api/auth/login", { body: { username, password } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The database inside an archive, written to a file of its own for a look with SQLite. */
async function databaseIn(archive: string): Promise<Database> {
  const path = join(temporaryDir("skrining-backup-db-"), "skrining.db");
  writeFileSync(path, await fileIn(archive, "skrining.db"));
  return new Database(path, { readonly: true });
}

/** A data file of an archive, as bytes. */
async function fileIn(archive: string, path: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  await listTar({
    file: archive,
    onReadEntry: (entry) => {
      if (entry.path === `skrining-backup/data/${path}`) entry.on("data", (bytes: Buffer) => parts.push(bytes));
    },
  });
  return Buffer.concat(parts);
}

/** The folders a restore --force moved a data folder's contents to, beside it. */
const asideOf = (dataDir: string) => readdirSync(dirname(dataDir)).filter((name) => name.startsWith(`${basename(dataDir)}.before-restore-`));

/** Writes `text` to a file in a folder of its own. */
function inputFile(name: string, text: string): string {
  const path = join(temporaryDir("skrining-input-"), name);
  writeFileSync(path, text);
  return path;
}

/** Answers the thresholds would call low stress; the constant model says Tinggi. */
const calmAnswers = Object.fromEntries([...Array.from({ length: 40 }, (_, i) => [`S${i + 1}`, 1]), ...Array.from({ length: 28 }, (_, i) => [`M${i + 1}`, 7])]);

test("the restore drill: a backup taken under a write load, restored into an empty folder, serves the old passwords (not the old tokens), photo, texts and model", async () => {
  const dataDir = await preparedDataDir();
  const cliOn = (folder: string, args: string[]) => spawnCli(["--data", folder, ...args]);
  expect((await cliOn(dataDir, ["model", "add", "--type", "stress", "--file", inputFile("model.json", JSON.stringify(constantModel("Tinggi", "Rendah"))), "--activate"])).exitCode).toBe(0);
  const questions = defaultQuestions.map((question, index) => (index === 0 ? { ...question, text: "Butir pertama menurut fakultas" } : question));
  expect((await cliOn(dataDir, ["questions", "import", inputFile("questions.json", JSON.stringify(questions))])).exitCode).toBe(0);
  const help = { title: "Layanan Konseling Fakultas", text: "Ruang B.104, Senin sampai Jumat." };
  expect((await cliOn(dataDir, ["contact", "import", inputFile("help.json", JSON.stringify(help))])).exitCode).toBe(0);

  const original = await startServer({ dataDir });
  let admin = await login(original, "admin", "admin-pass-1");
  let student = await login(original, "mhs1", "mhs-pass-1");
  const form = new FormData();
  form.append("foto", new File([pngSized(8, 8)], "foto.png", { type: "image/png" }));
  expect((await call(original, "PUT", "/api/mahasiswa/profil/foto", { token: student, form })).status).toBe(200);
  const photo = new Uint8Array(await (await call(original, "GET", "/api/mahasiswa/profil/foto/N001", { token: student })).arrayBuffer());
  expect(photo.length).toBeGreaterThan(0);

  const acknowledged = emptyAcknowledged();
  let done = false;
  const load = writeLoad(original.port, admin, 3, () => done, acknowledged);
  while (acknowledged.diary.size + acknowledged.screenings.size < 10) await Bun.sleep(50);
  const archive = join(temporaryDir("skrining-backup-"), "cadangan.tar.gz");
  const backup = await cliOn(dataDir, ["backup", archive]);
  const afterBackup = acknowledged.diary.size + acknowledged.screenings.size;
  while (acknowledged.diary.size + acknowledged.screenings.size < afterBackup + 5) await Bun.sleep(50);
  done = true;
  await load;
  await stop(original);
  expect(backup.stderr).toBe("");
  expect(backup.exitCode).toBe(0);

  const restored = join(temporaryDir("skrining-restore-"), "data");
  const restore = await cliOn(restored, ["restore", archive]);
  expect(restore.stderr).toBe("");
  expect(restore.exitCode).toBe(0);

  const server = await startServer({ dataDir: restored });
  // No new admin: the restored database is the old one.
  expect(server.stdout()).not.toContain("Akun admin pertama dibuat");
  await login(server, "mhs2", "mhs-pass-2");
  // Decisions §21: the restore made a new token key; tokens of before the backup open nothing, the old passwords do.
  expect(await (await call(server, "GET", "/api/auth/me", { token: student })).json()).toEqual({ error: "Token tidak valid." });
  student = await login(server, "mhs1", "mhs-pass-1");
  admin = await login(server, "admin", "admin-pass-1");
  expect(await (await call(server, "GET", "/api/auth/me", { token: student })).json()).toMatchObject({ username: "mhs1" });
  const photoAgain = await call(server, "GET", "/api/mahasiswa/profil/foto/N001", { token: student });
  expect(photoAgain.status).toBe(200);
  expect(new Uint8Array(await photoAgain.arrayBuffer())).toEqual(photo);
  const texts = (await (await call(server, "GET", "/api/kuesioner/questions", { token: student })).json()) as { text: string }[];
  expect(texts[0]!.text).toBe("Butir pertama menurut fakultas");
  // A help text without numbers to call answers an empty list of them.
  expect(await (await call(server, "GET", "/api/konten/bantuan", { token: student })).json()).toEqual({ ...help, telepon: [] });

  const submitted = await call(server, "POST", "/api/mahasiswa/kuesioner", { token: admin, body: { NIM: "N002", jawaban: calmAnswers } });
  expect(submitted.status).toBe(201);
  const result = (await submitted.json()) as { Id_skrining: number; tingkat_stres: string };
  expect(result.tingkat_stres).toBe("Tinggi");
  await stop(server);
  const db = new Database(join(restored, "skrining.db"), { readonly: true });
  try {
    expect(db.query<{ model: number | null }, [number]>("SELECT stress_model_id AS model FROM riwayat_skrining WHERE Id_skrining = ?").get(result.Id_skrining)!.model).not.toBeNull();
  } finally {
    db.close();
  }
}, 120_000);

test("decisions §21: a token signed with the secret in a backup, naming any session the backup holds, is refused by the running server", async () => {
  const dataDir = await preparedDataDir();
  const server = await startServer({ dataDir });
  const admin = await login(server, "admin", "admin-pass-1");
  const student = await login(server, "mhs1", "mhs-pass-1");
  expect((await call(server, "POST", "/api/mahasiswa/diary", { token: student, body: { content: "isi buku harian", date: "2026-03-02" } })).status).toBe(201);
  const archive = join(temporaryDir("skrining-backup-"), "cadangan.tar.gz");
  const backup = await spawnCli(["--data", dataDir, "backup", archive]);
  expect(backup.exitCode).toBe(0);

  // What the holder of the copy has: the token key and every row of sessions.
  const secret = (await fileIn(archive, "secret")).toString("utf8").trim();
  const db = await databaseIn(archive);
  // Each open session's key as stored (its first column, whatever a version names it) and its account.
  const rows = db
    .query<Record<string, string | number>, []>("SELECT s.*, u.role FROM sessions s JOIN users u USING (Id_User) WHERE s.ended_at IS NULL")
    .all()
    .map((row) => ({ stored: String(Object.values(row)[0]), userId: Number(row.Id_User), role: String(row.role) }));
  db.close();
  expect(rows.length).toBe(2);
  const now = Math.floor(Date.now() / 1000);
  const forge = (row: (typeof rows)[number], sid: string, type: "access" | "refresh") =>
    signJwt({ sub: String(row.userId), sid, type, role: row.role, ...(row.role === "mahasiswa" ? { NIM: "N001" } : {}), jti: crypto.randomUUID(), iat: now, exp: now + 3600 }, secret);
  for (const row of rows) {
    for (const [method, path] of [["GET", "/api/auth/me"], ["GET", "/api/mahasiswa/diary/N001"]] as const) {
      const answer = await call(server, method, path, { token: forge(row, row.stored, "access") });
      expect({ path, status: answer.status, body: await answer.json() }).toEqual({ path, status: 401, body: { error: "Token sudah dicabut." } });
    }
    const refreshed = await call(server, "POST", "/api/auth/refresh", { token: forge(row, row.stored, "refresh") });
    expect({ status: refreshed.status, body: await refreshed.json() }).toEqual({ status: 401, body: { error: "Token sudah dicabut." } });
  }
  // Control: the key in the copy is the server's; only the session ids, which the copy does not hold, open it.
  const adminRow = rows.find((row) => row.role === "admin")!;
  const real = decodeJwt(admin).payload.sid as string;
  expect((await call(server, "GET", "/api/mahasiswa/diary/N001", { token: forge(adminRow, real, "access") })).status).toBe(200);
  expect(await stop(server)).toBe(0);
}, 60_000);

test("a backup taken during a write load is intact and holds every write acknowledged before it began", async () => {
  const dataDir = await preparedDataDir();
  const server = await startServer({ dataDir });
  const token = await login(server, "admin", "admin-pass-1");
  const acknowledged = emptyAcknowledged();

  let done = false;
  const load = writeLoad(server.port, token, 4, () => done, acknowledged);
  while (acknowledged.diary.size + acknowledged.screenings.size < 10) await Bun.sleep(50);
  const before = { diary: [...acknowledged.diary], screenings: [...acknowledged.screenings], moods: [...acknowledged.moods.keys()] };
  const target = join(temporaryDir("skrining-backup-"), "copy.tar.gz");
  const backup = await spawnCli(["--data", dataDir, "backup", target]);
  const afterBackup = acknowledged.diary.size + acknowledged.screenings.size;
  while (acknowledged.diary.size + acknowledged.screenings.size < afterBackup + 5) await Bun.sleep(50);
  done = true;
  await load;
  await stop(server);
  expect(backup).toMatchObject({ exitCode: 0 });

  const copy = await databaseIn(target);
  try {
    expect(copy.query("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    const diary = new Set(copy.query<{ content: string }, []>("SELECT content FROM diary_entries").all().map((row) => row.content));
    expect(before.diary.filter((content) => !diary.has(content))).toEqual([]);
    const screenings = new Set(copy.query<{ id: number }, []>("SELECT Id_skrining AS id FROM riwayat_skrining").all().map((row) => row.id));
    expect(before.screenings.filter((id) => !screenings.has(id))).toEqual([]);
    const moods = new Set(copy.query<{ key: string }, []>("SELECT nim || '|' || date AS key FROM mood_entries").all().map((row) => row.key));
    expect(before.moods.filter((key) => !moods.has(key))).toEqual([]);
  } finally {
    copy.close();
  }
}, 60_000);

test("restore --force refuses a data folder a running server holds open, and moves nothing", async () => {
  const dataDir = await preparedDataDir();
  const archive = join(temporaryDir("skrining-backup-"), "cadangan.tar.gz");
  expect((await spawnCli(["--data", dataDir, "backup", archive])).exitCode).toBe(0);
  const server = await startServer({ dataDir });
  const result = await spawnCli(["--data", dataDir, "restore", archive, "--force"]);
  expect(result.exitCode).toBe(1);
  expect(result.stderr).toContain(`sedang dibuka oleh proses ${server.child.pid}`);
  await login(server, "admin", "admin-pass-1");
  await stop(server);
  expect(asideOf(dataDir)).toEqual([]);
}, 60_000);

test("automatic backups while serving: the server keeps answering, the newest N stay, a foreign file is never deleted", async () => {
  const dataDir = await preparedDataDir();
  const folder = temporaryDir("skrining-auto-");
  const foreign = ["cadangan-manual.tar.gz", "skrining-auto-20200101-000000Z.tar.gz.keep"];
  for (const name of foreign) writeFileSync(join(folder, name), "milik admin");
  const server = await startServer({ dataDir, serveOptions: ["--backup-dir", folder, "--backup-every", "1s", "--backup-keep", "2"] });
  const saved = () => server.stdout().split("\n").filter((line) => line.startsWith("Cadangan otomatis tersimpan"));
  const deadline = Date.now() + 45_000;
  let answered = 0;
  while (saved().length < 4 && Date.now() < deadline) {
    // The server answers while backups are taken beside it.
    expect((await call(server, "POST", "/api/auth/login", { body: { username: "mhs1", password: "mhs-pass-1" } })).status).toBe(200);
    answered++;
  }
  await stop(server);
  expect(saved().length).toBeGreaterThanOrEqual(4);
  expect(answered).toBeGreaterThan(0);
  expect(server.stderr()).toBe("");
  const own = readdirSync(folder).filter((name) => /^skrining-auto-\d{8}-\d{6}Z\.tar\.gz$/.test(name)).sort();
  expect(own).toHaveLength(2);
  // Besides them, only the record of the folder's owner (decisions §17).
  expect(readdirSync(folder).sort()).toEqual([...foreign, ...own, ownerFileName].sort());
  // The newest one is a whole backup.
  const restored = join(temporaryDir("skrining-restore-"), "data");
  expect((await spawnCli(["--data", restored, "restore", join(folder, own[1]!)])).exitCode).toBe(0);
}, 90_000);

/** Whether files can be made immutable here (`chattr +i` needs root and a file system that has the flag). */
const canChattr = (() => {
  const probe = join(temporaryDir("skrining-chattr-"), "probe");
  writeFileSync(probe, "");
  const works = sh(["chattr", "+i", probe]);
  if (works) sh(["chattr", "-i", probe]);
  return works;
})();

test.skipIf(!canChattr)("restore --force that cannot move a file aside puts back what it moved and changes nothing", async () => {
  const dataDir = await preparedDataDir();
  const archive = join(temporaryDir("skrining-backup-"), "cadangan.tar.gz");
  expect((await spawnCli(["--data", dataDir, "backup", archive])).exitCode).toBe(0);
  // The last entry in the order the folder lists them: every other one is moved before it fails.
  const stuck = join(dataDir, readdirSync(dataDir).at(-1)!);
  const before = readdirSync(dataDir).sort();
  expect(sh(["chattr", "+i", stuck])).toBe(true);
  try {
    const result = await spawnCli(["--data", dataDir, "restore", archive, "--force"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`restore dibatalkan, folder data ${dataDir} tetap seperti semula`);
  } finally {
    sh(["chattr", "-i", stuck]);
  }
  expect(readdirSync(dataDir).sort()).toEqual(before);
  expect(asideOf(dataDir)).toEqual([]);
  expect((await spawnCli(["--data", dataDir, "accounts", "list"])).stdout).toContain("mhs5");
}, 60_000);

describe("a backup that cannot be written", () => {
  test.skipIf(!canMount)("to a full disk, once the photos no longer fit: exit code 3, the reason, and no file", async () => {
    const dataDir = await preparedDataDir();
    // Photos do not compress: six of 60 KB make the archive larger than the room left beside the snapshot.
    for (let i = 0; i < 6; i++) writeFileSync(join(dataDir, "photos", `N00${i + 1}_1790000000_0000000${i}.jpg`), randomBytes(60_000));
    const target = temporaryDir("skrining-backup-full-");
    // Room for the database snapshot, not for the archive besides it.
    mountTmpfs(target, "400k");
    const result = await spawnCli(["--data", dataDir, "backup", join(target, "cadangan.tar.gz")]);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain("Disk penuh");
    // A one-off command is told to run again; recovering by itself is the server's.
    expect(result.stderr).toContain("lalu jalankan perintah ini lagi.");
    expect(result.stderr).not.toContain("pulih sendiri");
    expect(readdirSync(target)).toEqual([]);
  }, 30_000);

  test.skipIf(!canMount)("to a read-only file system: exit code 3, the reason, and no file", async () => {
    const dataDir = await preparedDataDir();
    const target = temporaryDir("skrining-backup-readonly-");
    mountTmpfs(target, "4m");
    expect(remount(target, "ro")).toBe(true);
    const result = await spawnCli(["--data", dataDir, "backup", join(target, "cadangan.tar.gz")]);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain("hanya-baca");
    expect(result.stderr).not.toContain("pulih sendiri");
    expect(remount(target, "rw")).toBe(true);
    expect(readdirSync(target)).toEqual([]);
    expect(existsSync(join(target, "cadangan.tar.gz"))).toBe(false);
  }, 30_000);
});
