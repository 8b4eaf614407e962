import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { catatanKonseling } from "../../src/db/schema";
import { TestService, type TestResponse, signedInService } from "../helpers";

// decisions §10: one student account cannot exhaust the service. Its writes are limited by
// a token bucket, and its diary by a quota of UTF-8 text.

let service: TestService;
afterEach(() => service?.close());

async function start(environment: Record<string, string>): Promise<Record<string, string>> {
  const signedIn = await signedInService(["admin", "dosen1", "mhs1", "mhs2"], { environment });
  service = signedIn.service;
  return signedIn.tokens;
}

const count = (table: string) => (service.context.db.$client.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

function expectLimited(response: TestResponse, seconds: number) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ error: `Terlalu banyak permintaan. Coba lagi dalam ${seconds} detik.` });
  expect(response.headers.get("retry-after")).toBe(String(seconds));
}

describe("student writes: a token bucket per account", () => {
  test("a burst of the limit passes; the next write answers 429 with Retry-After and writes nothing", async () => {
    const tokens = await start({ SKRINING_STUDENT_WRITES: "5" });
    for (let day = 1; day <= 5; day++) {
      expect((await service.request("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: `2026-01-0${day}`, mood_value: 3 } })).status).toBe(201);
    }
    // 5 a minute: the next token is back in 12 seconds.
    expectLimited(await service.request("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-01-06", mood_value: 3 } }), 12);
    expectLimited(await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-01-06", content: "isi" } }), 12);
    expect(count("mood_entries")).toBe(5);
    expect(count("diary_entries")).toBe(0);
  });

  const writes: [string, string, string, (ids: { note: number }) => unknown][] = [
    ["questionnaire", "POST", "/api/mahasiswa/kuesioner", () => ({ jawaban: {} })],
    ["mood", "POST", "/api/mahasiswa/mood", () => ({ date: "2026-02-01", mood_value: 2 })],
    ["mood edit", "PUT", "/api/mahasiswa/mood/999", () => ({})],
    ["mood delete", "DELETE", "/api/mahasiswa/mood/999", () => undefined],
    ["diary", "POST", "/api/mahasiswa/diary", () => ({ date: "2026-02-01", content: "isi" })],
    ["diary edit", "PUT", "/api/mahasiswa/diary/999", () => ({})],
    ["diary delete", "DELETE", "/api/mahasiswa/diary/999", () => undefined],
    ["reply", "POST", "/api/mahasiswa/catatan/{note}/reply", () => ({ reply: "Terima kasih" })],
    ["reply edit", "PUT", "/api/mahasiswa/catatan/{note}/reply", () => ({ reply: "Terima kasih" })],
    ["profile", "PUT", "/api/mahasiswa/profil", () => ({ usia: 20 })],
    ["photo", "PUT", "/api/mahasiswa/profil/foto", () => undefined],
    ["photo delete", "DELETE", "/api/mahasiswa/profil/foto/N001", () => undefined],
  ];
  test.each(writes)("%s is a limited write", async (_name, method, path, body) => {
    const tokens = await start({ SKRINING_STUDENT_WRITES: "1" });
    const note = service.context.db
      .insert(catatanKonseling)
      .values({ nim: "N001", nip: "D001", isi: "Catatan", tanggalCatat: "2026-01-01T00:00:00.000Z" })
      .returning({ id: catatanKonseling.id })
      .get().id;
    // The one token of the minute goes to a profile update.
    expect((await service.request("PUT", "/api/mahasiswa/profil", { token: tokens.mhs1, body: { usia: 21 } })).status).toBe(200);
    const before = service.context.db.$client.query("SELECT usia FROM mahasiswa WHERE NIM = 'N001'").get();
    expectLimited(await service.request(method, path.replace("{note}", String(note)), { token: tokens.mhs1, body: body({ note }) }), 60);
    expect(service.context.db.$client.query("SELECT usia FROM mahasiswa WHERE NIM = 'N001'").get()).toEqual(before);
    expect(service.context.db.$client.query("SELECT reply FROM catatan_konseling WHERE Id_catatan = ?").get(note)).toEqual({ reply: "" });
  });

  test("reads are not limited, nor are other students, lecturers or admins", async () => {
    const tokens = await start({ SKRINING_STUDENT_WRITES: "1" });
    expect((await service.request("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-03-01", mood_value: 4 } })).status).toBe(201);
    expectLimited(await service.request("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-03-02", mood_value: 4 } }), 60);
    for (let read = 0; read < 5; read++) expect((await service.request("GET", "/api/mahasiswa/mood/N001", { token: tokens.mhs1 })).status).toBe(200);
    expect((await service.request("POST", "/api/mahasiswa/mood", { token: tokens.mhs2, body: { date: "2026-03-02", mood_value: 4 } })).status).toBe(201);
    for (let day = 10; day < 20; day++) {
      expect((await service.request("POST", "/api/mahasiswa/mood", { token: tokens.admin, body: { nim: "N001", date: `2026-03-${day}`, mood_value: 2 } })).status).toBe(201);
      expect((await service.request("POST", "/api/dosen/catatan", { token: tokens.dosen1, body: { NIM: "N001", isi_catatan: `Catatan ${day}` } })).status).toBe(201);
    }
  });

  test("the bucket refills at the limit per minute", async () => {
    const tokens = await start({ SKRINING_STUDENT_WRITES: "60" });
    // The clock stands still, and is moved on by the refill time instead of waiting for it.
    const now = Date.now();
    setSystemTime(now);
    try {
      for (let write = 0; write < 60; write++) expect((await service.request("PUT", "/api/mahasiswa/profil", { token: tokens.mhs1, body: { usia: 20 } })).status).toBe(200);
      expectLimited(await service.request("PUT", "/api/mahasiswa/profil", { token: tokens.mhs1, body: { usia: 20 } }), 1);
      setSystemTime(now + 1100);
      expect((await service.request("PUT", "/api/mahasiswa/profil", { token: tokens.mhs1, body: { usia: 22 } })).status).toBe(200);
      expectLimited(await service.request("PUT", "/api/mahasiswa/profil", { token: tokens.mhs1, body: { usia: 23 } }), 1);
    } finally {
      setSystemTime();
    }
  });
});

describe("the diary quota", () => {
  const full = { status: 400, body: { error: "Kapasitas jurnal penuh." } };
  const diaryBytes = (nim: string) =>
    (service.context.db.$client.query("SELECT coalesce(sum(length(CAST(title AS BLOB)) + length(CAST(content AS BLOB))), 0) AS n FROM diary_entries WHERE nim = ?").get(nim) as { n: number }).n;

  test("writes fill the diary up to the quota exactly; one byte more is refused and nothing written", async () => {
    const tokens = await start({ SKRINING_DIARY_QUOTA: "2048" });
    const post = (body: object) => service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-04-01", ...body } });
    expect((await post({ title: "abc", content: "x".repeat(1000) })).status).toBe(201);
    // 1045 bytes are left. "é" is two bytes in UTF-8: title, 522 of them and a "y" make 1046.
    expect(await post({ title: "t", content: "é".repeat(522) + "y" })).toMatchObject(full);
    expect(diaryBytes("N001")).toBe(1003);
    expect((await post({ title: "", content: "é".repeat(522) + "y" })).status).toBe(201);
    expect(diaryBytes("N001")).toBe(2048);
    expect(await post({ content: "z" })).toMatchObject(full);
    expect(count("diary_entries")).toBe(2);
    // Another student's diary is not affected, and an admin's writes count against the student's.
    expect((await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs2, body: { date: "2026-04-01", content: "halo" } })).status).toBe(201);
    expect(await service.request("POST", "/api/mahasiswa/diary", { token: tokens.admin, body: { nim: "N001", date: "2026-04-01", content: "z" } })).toMatchObject(full);
  });

  test("an edit may not grow past the quota; shrinking and deleting free space", async () => {
    const tokens = await start({ SKRINING_DIARY_QUOTA: "1024" });
    const created = await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-04-02", content: "a".repeat(1000) } });
    const id = created.body.id as number;
    // The entry's own old text does not count against its new text.
    expect((await service.request("PUT", `/api/mahasiswa/diary/${id}`, { token: tokens.mhs1, body: { content: "b".repeat(1024) } })).status).toBe(200);
    expect(await service.request("PUT", `/api/mahasiswa/diary/${id}`, { token: tokens.mhs1, body: { title: "x" } })).toMatchObject(full);
    expect(await service.request("PUT", `/api/mahasiswa/diary/${id}`, { token: tokens.mhs1, body: { content: "c".repeat(1025) } })).toMatchObject(full);
    expect(diaryBytes("N001")).toBe(1024);
    expect((await service.request("PUT", `/api/mahasiswa/diary/${id}`, { token: tokens.mhs1, body: { content: "short" } })).status).toBe(200);
    expect((await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-04-03", content: "d".repeat(1019) } })).status).toBe(201);
    expect(await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-04-03", content: "e" } })).toMatchObject(full);
    expect((await service.request("DELETE", `/api/mahasiswa/diary/${id}`, { token: tokens.mhs1 })).status).toBe(200);
    expect((await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-04-03", content: "e" } })).status).toBe(201);
  });

  test("the quota is checked after the interface's own rules", async () => {
    const tokens = await start({ SKRINING_DIARY_QUOTA: "1024" });
    expect((await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-04-04", content: "a".repeat(1024) } })).status).toBe(201);
    expect(await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "bad", content: "z" } })).toMatchObject({
      status: 400,
      body: { error: "format date harus YYYY-MM-DD." },
    });
    expect(await service.request("POST", "/api/mahasiswa/diary", { token: tokens.admin, body: { nim: "X404", date: "2026-04-04", content: "z" } })).toMatchObject({
      status: 404,
      body: { error: "Mahasiswa tidak ditemukan." },
    });
  });
});
