import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { QuestionsService } from "../../src/modules/questions/service";
import { TestService, jawaban, signedInService } from "../helpers";

// A full, read-only or failing storage answers a distinct status with an Indonesian text
// that says the server cannot store data now (507 for no space, 503 otherwise), is logged
// once rather than per request, and is left by itself when the storage works again.
// SQLite's own switches stand in for the disk here (test-robust/faults.test.ts uses real
// file systems): `query_only` refuses every write like a read-only disk, `max_page_count`
// refuses growth like a full one.

let service: TestService;
const logged: string[] = [];
afterEach(() => service?.close());

async function start(): Promise<Record<string, string>> {
  logged.length = 0;
  // The log is captured: the fault must be logged once, and its end once.
  const signedIn = await signedInService(["admin", "mhs1"], { logger: { info: (line) => logged.push(`info ${line}`), error: (line) => logged.push(`error ${line}`) } });
  service = signedIn.service;
  return signedIn.tokens;
}

const sqlite = () => service.context.db.$client;
const count = (table: string) => (sqlite().query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const full = "Penyimpanan server penuh; data tidak dapat disimpan saat ini. Coba lagi nanti.";
const readOnly = "Server tidak dapat menyimpan data saat ini (penyimpanan hanya-baca). Coba lagi nanti.";

describe("a storage that refuses writes", () => {
  test("writes answer 503 with Retry-After and write nothing; reads go on; logged once; recovered by itself", async () => {
    const tokens = await start();
    sqlite().run("PRAGMA query_only = ON");
    for (let day = 1; day <= 3; day++) {
      const response = await service.request("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: `2026-06-0${day}`, mood_value: 3 } });
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ error: readOnly });
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect((await service.request("GET", "/api/mahasiswa/mood/N001", { token: tokens.mhs1 })).status).toBe(200);
    expect(logged.filter((line) => line.startsWith("error"))).toHaveLength(1);

    sqlite().run("PRAGMA query_only = OFF");
    expect((await service.request("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-06-04", mood_value: 3 } })).status).toBe(201);
    expect(count("mood_entries")).toBe(1);
    expect(logged.filter((line) => line.startsWith("info Penyimpanan pulih"))).toHaveLength(1);
  });

  const writes: [string, string, string, string, unknown][] = [
    ["questionnaire", "POST", "/api/mahasiswa/kuesioner", "admin", { NIM: "N001", jawaban: jawaban(3, 4) }],
    ["diary", "POST", "/api/mahasiswa/diary", "mhs1", { date: "2026-06-01", content: "isi" }],
    ["profile", "PUT", "/api/mahasiswa/profil", "mhs1", { usia: 20 }],
    ["note", "POST", "/api/dosen/catatan", "admin", { NIP: "D001", NIM: "N001", isi_catatan: "Halo" }],
    ["password", "POST", "/api/auth/password", "mhs1", { old_password: "mhs-pass-1", new_password: "sandi-baru-1" }],
  ];
  test.each(writes)("%s: 503, and nothing is written", async (_name, method, path, who, body) => {
    const tokens = await start();
    const before = ["riwayat_skrining", "diary_entries", "catatan_konseling"].map(count);
    const hash = sqlite().query("SELECT password_hash FROM users WHERE username = 'mhs1'").get();
    sqlite().run("PRAGMA query_only = ON");
    expect(await service.request(method, path, { token: tokens[who], body })).toMatchObject({ status: 503, body: { error: readOnly } });
    sqlite().run("PRAGMA query_only = OFF");
    expect(["riwayat_skrining", "diary_entries", "catatan_konseling"].map(count)).toEqual(before);
    expect(sqlite().query("SELECT password_hash FROM users WHERE username = 'mhs1'").get()).toEqual(hash);
    expect(sqlite().query("SELECT usia FROM mahasiswa WHERE NIM = 'N001'").get()).toEqual({ usia: null });
  });

  test("a login that cannot start its session answers 503 and hands out no token", async () => {
    await start();
    sqlite().run("PRAGMA query_only = ON");
    const response = await service.request("POST", "/api/auth/login", { body: { username: "mhs2", password: "mhs-pass-2" } });
    expect(response).toMatchObject({ status: 503, body: { error: readOnly } });
    expect(response.body.access_token).toBeUndefined();
  });

  test("a logout that cannot be written answers 503, and the token then still works: the answer tells the truth", async () => {
    const tokens = await start();
    sqlite().run("PRAGMA query_only = ON");
    expect(await service.request("POST", "/api/auth/logout", { token: tokens.mhs1 })).toMatchObject({ status: 503, body: { error: readOnly } });
    sqlite().run("PRAGMA query_only = OFF");
    expect((await service.request("GET", "/api/auth/me", { token: tokens.mhs1 })).status).toBe(200);
    expect((await service.request("POST", "/api/auth/logout", { token: tokens.mhs1 })).status).toBe(200);
    expect((await service.request("GET", "/api/auth/me", { token: tokens.mhs1 })).status).toBe(401);
  });
});

describe("a full storage", () => {
  test("a write that needs space answers 507 with Retry-After and writes nothing; space again, it succeeds", async () => {
    const tokens = await start();
    const pages = (sqlite().query("PRAGMA page_count").get() as { page_count: number }).page_count;
    sqlite().run(`PRAGMA max_page_count = ${pages + 1}`);
    const body = { date: "2026-06-01", content: "x".repeat(20_000) };
    const refused = await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body });
    expect(refused).toMatchObject({ status: 507, body: { error: full } });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(count("diary_entries")).toBe(0);
    sqlite().run("PRAGMA max_page_count = 1073741823");
    expect((await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body })).status).toBe(201);
  });
});

test("a damaged page met by a route answers 503 with its own text, not a 500", async () => {
  const tokens = await start();
  // What SQLite reports for a malformed page, thrown where a route reads.
  const damage = Object.assign(new Error("database disk image is malformed"), { code: "SQLITE_CORRUPT" });
  const list = spyOn(QuestionsService.prototype, "list").mockImplementation(() => {
    throw damage;
  });
  const response = await service.request("GET", "/api/kuesioner/questions", { token: tokens.mhs1 }).finally(() => list.mockRestore());
  expect(response).toMatchObject({ status: 503, body: { error: "Basis data server rusak; data tidak dapat dibaca atau disimpan. Hubungi admin." } });
  expect(logged.some((line) => line.includes("skrining check --full"))).toBe(true);
});
