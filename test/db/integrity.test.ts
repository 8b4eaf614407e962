import { afterEach, describe, expect, test } from "bun:test";
import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { checkAfterListening, checkInBackground } from "../../src/db/integrity";
import { StorageError, StorageHealth } from "../../src/db/storage";
import { TestService, standardAccounts, temporaryDir } from "../helpers";

// `serve` checks its database (SQLite's quick_check) once the port listens, on a thread of
// its own. Damage it finds holds every write until the process ends: writes answer 503 with
// the storage's own text, GET /health says degraded, the admin reads one line naming the
// file and what to do; reads go on. A check that cannot run holds nothing.

const damagedText = "Basis data server rusak; data tidak dapat dibaca atau disimpan. Hubungi admin.";

let service: TestService | undefined;
let logged: string[] = [];
afterEach(() => service?.close());

async function start(): Promise<TestService> {
  const lines: string[] = [];
  logged = lines;
  service = new TestService({}, { info: (line) => lines.push(`info ${line}`), error: (line) => lines.push(`error ${line}`) });
  await service.importAccounts(standardAccounts);
  return service;
}

/** A logger that keeps the error lines in `logged`. */
const collecting = { info: () => {}, error: (line: string) => logged.push(`error ${line}`) };
const errors = () => logged.filter((line) => line.startsWith("error"));
const count = (table: string) => (service!.context.db.$client.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

/** Fills diary_entries over many pages, then overwrites those pages in the file (as a failing disk would). */
function damageDiaryPages(): void {
  const sqlite = service!.context.db.$client;
  const insert = sqlite.prepare("INSERT INTO diary_entries (nim, date, title, content, created_at, updated_at) VALUES ('N002', ?, '', ?, 'x', 'x')");
  sqlite.transaction(() => {
    for (let day = 1; day <= 200; day++) insert.run(`2026-01-${String((day % 28) + 1).padStart(2, "0")}`, "isi ".repeat(300));
  })();
  sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
  // Leaf pages only: SQLite then lists what it found rather than failing at the table's root.
  const pages = sqlite.query<{ pageno: number }, []>("SELECT pageno FROM dbstat WHERE name = 'diary_entries' AND pagetype = 'leaf' ORDER BY pageno").all();
  const { page_size: pageSize } = sqlite.query<{ page_size: number }, []>("PRAGMA page_size").get()!;
  const file = openSync(service!.context.config.databasePath, "r+");
  for (const { pageno } of pages.slice(0, 20)) writeSync(file, new Uint8Array(pageSize).fill(0xa5), 0, pageSize, (pageno - 1) * pageSize);
  closeSync(file);
}

describe("the check after listening", () => {
  test("a sound database: nothing held, nothing logged, writes taken", async () => {
    const running = await start();
    const { mhs1 } = await running.accessTokens(["mhs1"]);
    expect(await checkAfterListening(running.context.config.databasePath, running.context.health, running.context.logger).done).toBe("sound");
    expect(running.context.health.writesHeldBy).toBeNull();
    expect(errors()).toEqual([]);
    expect((await running.request("POST", "/api/mahasiswa/mood", { token: mhs1, body: { date: "2026-05-01", mood_value: 3 } })).status).toBe(201);
    expect(await running.request("GET", "/health")).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  test("damage: every write answers 503 with the storage's text and writes nothing, reads go on, /health degraded, one line for the admin", async () => {
    const running = await start();
    const { mhs1, dosen1 } = await running.accessTokens(["mhs1", "dosen1"]);
    damageDiaryPages();
    const diaries = count("diary_entries");
    expect(await checkAfterListening(running.context.config.databasePath, running.context.health, running.context.logger).done).toBe("damaged");
    expect(running.context.health.writesHeldBy?.problem).toBe("damaged");

    for (const attempt of [1, 2]) {
      const refused = await running.request("POST", "/api/mahasiswa/mood", { token: mhs1, body: { date: `2026-05-0${attempt}`, mood_value: 3 } });
      expect(refused).toMatchObject({ status: 503, body: { error: damagedText } });
      expect(refused.headers.get("retry-after")).toBe("300");
    }
    // A login writes its session: refused the same way.
    expect(await running.request("POST", "/api/auth/login", { body: { username: "mhs2", password: "mhs-pass-2" } })).toMatchObject({ status: 503, body: { error: damagedText } });
    expect(count("mood_entries")).toBe(0);
    expect(count("diary_entries")).toBe(diaries);

    // Reads of what is sound are answered.
    expect(await running.request("GET", "/api/auth/me", { token: mhs1 })).toMatchObject({ status: 200, body: { username: "mhs1" } });
    expect((await running.request("GET", "/api/dosen/mahasiswa", { token: dosen1 })).status).toBe(200);
    expect(await running.request("GET", "/health")).toMatchObject({ status: 503, body: { status: "degraded", database: "error" } });

    expect(errors()).toHaveLength(1);
    const [line] = errors();
    expect(line).toContain(`Basis data rusak (${running.context.config.databasePath})`);
    expect(line).toContain("skrining check --full");
    expect(line).toContain("pulihkan cadangan terakhir");
    expect(line).toContain("dijawab 503");
    expect(line).toContain("bacaan tetap dijawab");
  });

  test("a file that is no database is damage too; a check that cannot run for another reason is logged and holds nothing", async () => {
    const health = new StorageHealth(collecting);
    logged = [];
    const notADatabase = join(temporaryDir(), "skrining.db");
    writeFileSync(notADatabase, "bukan basis data ".repeat(500));
    expect(await checkAfterListening(notADatabase, health, collecting).done).toBe("damaged");
    expect(health.writesHeldBy?.problem).toBe("damaged");
    expect(errors()[0]).toContain(`Basis data rusak (${notADatabase})`);

    const untouched = new StorageHealth({ info: () => {}, error: () => {} });
    logged = [];
    const failingCheck = () => ({ problems: Promise.reject(new Error("pekerja tidak dapat dimulai")), stop: () => {} });
    expect(await checkAfterListening("/srv/skrining/skrining.db", untouched, collecting, failingCheck).done).toBe("unknown");
    expect(untouched.writesHeldBy).toBeNull();
    expect(untouched.problem).toBeNull();
    expect(errors()).toEqual(["error Pemeriksaan basis data /srv/skrining/skrining.db (quick_check) tidak dapat dijalankan: pekerja tidak dapat dimulai"]);
  });

  test("problems quick_check lists are damage: the first three are in the admin's line", async () => {
    const health = new StorageHealth(collecting);
    logged = [];
    const problems = ["*** in database main ***", "Page 12: never used", "Page 13: never used", "Page 14: never used"];
    expect(await checkAfterListening("/srv/skrining/skrining.db", health, collecting, () => ({ problems: Promise.resolve(problems), stop: () => {} })).done).toBe("damaged");
    expect(health.writesHeldBy?.problem).toBe("damaged");
    expect(errors()).toHaveLength(1);
    expect(errors()[0]).toContain("Basis data rusak (/srv/skrining/skrining.db): *** in database main ***; Page 12: never used; Page 13: never used. Hentikan skrining");
  });

  test("the worker: no problems for a sound file, damage as quick_check's list or SQLite's SQLITE_CORRUPT, SQLite's code when the file cannot be opened", async () => {
    const running = await start();
    expect(await checkInBackground(running.context.config.databasePath).problems).toEqual([]);
    damageDiaryPages();
    // Garbage in a table's pages stops quick_check itself (SQLITE_CORRUPT); other damage is listed.
    const found = await checkInBackground(running.context.config.databasePath).problems.then(
      (problems) => problems.length > 0,
      (error: { code?: string }) => error.code === "SQLITE_CORRUPT",
    );
    expect(found).toBe(true);
    const missing = checkInBackground(join(temporaryDir(), "tidak-ada", "skrining.db")).problems;
    expect(await missing.catch((error: { code?: string }) => error.code)).toStartWith("SQLITE_CANTOPEN");
  });
});

test("a worker that fails: the check is unknown, logged, and holds nothing", async () => {
  const broken = join(temporaryDir(), "pekerja-rusak.ts");
  writeFileSync(broken, 'throw new Error("pekerja rusak");\n');
  const health = new StorageHealth(collecting);
  logged = [];
  const verdict = await checkAfterListening("/srv/skrining/skrining.db", health, collecting, (path) => checkInBackground(path, broken)).done;
  expect(verdict).toBe("unknown");
  expect(health.writesHeldBy).toBeNull();
  expect(errors()).toHaveLength(1);
  expect(errors()[0]).toContain("Pemeriksaan basis data /srv/skrining/skrining.db (quick_check) tidak dapat dijalankan: pekerja pemeriksaan:");
  expect(errors()[0]).toContain("pekerja rusak");
});

describe("held writes", () => {
  test("stay held whatever succeeds later (a write under way when the damage was found), logged once", () => {
    const lines: string[] = [];
    const health = new StorageHealth({ info: (line) => lines.push(`info ${line}`), error: (line) => lines.push(`error ${line}`) });
    const damage = new StorageError("damaged", new Error("*** in database main ***"), "/srv/skrining/skrining.db");
    health.holdWrites(damage, "Ditahan.");
    health.holdWrites(new StorageError("damaged", new Error("lain"), "/srv/skrining/skrining.db"), "Ditahan lagi.");
    health.succeeded();
    health.failed(damage);
    expect(health.writesHeldBy).toBe(damage);
    expect(health.problem).toBe("damaged");
    expect(lines).toEqual([
      "error Basis data rusak (/srv/skrining/skrining.db): *** in database main ***. Hentikan skrining, jalankan 'skrining check --full', lalu pulihkan cadangan terakhir (docs/operations.md). Ditahan.",
    ]);
  });
});
