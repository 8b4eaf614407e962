import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { lecturerService, type Lecturers } from "../dosen/support";
import { flaggedAnswers, moveBody, storedCases, storedTimeline, submit } from "./support";

// Decisions §19: a student asks to be contacted (POST /api/mahasiswa/minta-kontak): a case
// opens with the reason permintaan_mahasiswa for the advisor, or the request joins the open
// case; once per 24 hours; the student sees where the request stands.

let lecturers: Lecturers;
let service: Lecturers["service"];
beforeEach(async () => {
  lecturers = await lecturerService();
  service = lecturers.service;
});
afterEach(() => service.close());

type Caller = keyof Lecturers["tokens"];
const ask = (body: unknown = {}, caller: Caller = "mhs1") => service.request("POST", "/api/mahasiswa/minta-kontak", { token: lecturers.tokens[caller], body });
const state = (caller: Caller = "mhs1") => service.request("GET", "/api/mahasiswa/minta-kontak", { token: lecturers.tokens[caller] });
const requests = () => service.context.db.$client.query<{ NIM: string; Id_tindak_lanjut: number | null; pesan: string }, []>("SELECT NIM, Id_tindak_lanjut, pesan FROM permintaan_kontak ORDER BY id").all();
/** The student's requests as made a day (and a second) ago: the next one is allowed. */
const dayPasses = () => service.context.db.$client.run("UPDATE permintaan_kontak SET waktu = strftime('%Y-%m-%dT%H:%M:%fZ', waktu, '-1 day', '-1 second')");
const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const hour = 3600 * 1000;

describe("POST /api/mahasiswa/minta-kontak", () => {
  test("without an open case: a case opens for the advisor with the reason permintaan_mahasiswa, and the student is told where it stands", async () => {
    const sent = await ask({ pesan: "  Boleh saya ketemu Bapak minggu ini?  " });
    expect(sent.status).toBe(201);
    // A copy first: bun's toMatchObject leaves its asymmetric matchers in the object it compared.
    const { message: _message, ...told } = structuredClone(sent.body);
    expect(Date.parse(told.boleh_minta_lagi_pada) - Date.parse(told.permintaan_terakhir.waktu)).toBe(24 * hour);
    expect(sent.body).toMatchObject({
      message: "Permintaan Anda sudah diteruskan. Anda akan dihubungi secepatnya.",
      dosen_wali: { nama: "Dosen Satu", telepon: null },
      permintaan_terakhir: { pesan: "Boleh saya ketemu Bapak minggu ini?", status: "menunggu", penerima: "dosen_wali", waktu: expect.stringMatching(isoTimestamp) },
    });
    const [opened] = storedCases(service);
    expect(opened).toMatchObject({ NIM: "N001", NIP: "D001", status: "baru", early: 0, sudden: 0, veryHigh: 0, skrining: null });
    expect(requests()).toEqual([{ NIM: "N001", Id_tindak_lanjut: opened!.id, pesan: "Boleh saya ketemu Bapak minggu ini?" }]);
    // As the advisor reads it: the reason's badge, the student named in the timeline.
    const asAdvisor = await service.request("GET", `/api/dosen/tindak-lanjut/${opened!.id}`, { token: lecturers.tokens.dosen1 });
    expect(asAdvisor.body).toMatchObject({ alasan: ["permintaan_mahasiswa"], status: "baru", NIP: "D001" });
    expect(asAdvisor.body.riwayat).toEqual([
      expect.objectContaining({ jenis: "dibuka", status_dari: null, status_ke: "baru", oleh: "Mahasiswa Satu", catatan: "Dibuka atas permintaan mahasiswa. Pesan mahasiswa: “Boleh saya ketemu Bapak minggu ini?”" }),
    ]);
    expect((await state()).body).toEqual(told);
  });

  test("once per 24 hours: 429 with the time left and Retry-After, nothing written, before the message is read; then allowed again", async () => {
    expect((await ask()).status).toBe(201);
    const again = await ask({ pesan: "x".repeat(1001) });
    expect(again.status).toBe(429);
    expect(again.body.error).toMatch(/^Anda sudah meminta dihubungi dalam 24 jam terakhir\. Coba lagi dalam (23 jam 59 menit|24 jam)\.$/);
    expect(again.body.boleh_minta_lagi_pada).toMatch(isoTimestamp);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(24 * 3600 - 60);
    expect(requests()).toHaveLength(1);
    expect(storedTimeline(service)).toHaveLength(1);
    dayPasses();
    expect((await state()).body.boleh_minta_lagi_pada).toBeNull();
    const later = await ask({ pesan: "Saya masih menunggu." });
    expect(later.status).toBe(201);
    // The open case takes the request: no second case.
    expect(storedCases(service)).toHaveLength(1);
    expect(storedTimeline(service).at(-1)).toMatchObject({ status_dari: "baru", status_ke: "baru", catatan: "Mahasiswa meminta dihubungi. Pesan mahasiswa: “Saya masih menunggu.”", nama: "Mahasiswa Satu" });
  });

  test("with a case open from a screening and handed to a counsellor: the request joins it, and its handler sees why", async () => {
    await submit(service, lecturers.tokens.mhs1, flaggedAnswers);
    const [screened] = storedCases(service);
    await service.request("PUT", `/api/dosen/tindak-lanjut/${screened!.id}/pemilik`, { token: lecturers.tokens.admin, body: { NIP: "D003" } });
    const sent = await ask();
    expect(sent.body.permintaan_terakhir).toMatchObject({ pesan: "", status: "menunggu", penerima: "dosen_lain" });
    expect(storedCases(service)).toHaveLength(1);
    const asHandler = await service.request("GET", `/api/dosen/tindak-lanjut/${screened!.id}`, { token: lecturers.tokens.tanpaBimbingan });
    expect(asHandler.body.alasan).toEqual(["early_warning", "permintaan_mahasiswa"]);
    expect(asHandler.body.riwayat.at(-1)).toMatchObject({ jenis: "permintaan_mahasiswa", catatan: "Mahasiswa meminta dihubungi.", oleh: "Mahasiswa Satu" });
  });

  test("where the request stands follows the case: answered once someone on the staff writes on it, closed once it closes", async () => {
    await ask();
    const [opened] = storedCases(service);
    const change = (body: unknown) => service.request("POST", `/api/dosen/tindak-lanjut/${opened!.id}/status`, { token: lecturers.tokens.dosen1, body });
    expect((await change(moveBody("dihubungi", "Dijadwalkan Kamis."))).status).toBe(200);
    expect((await state()).body.permintaan_terakhir.status).toBe("ditanggapi");
    expect((await change(moveBody("selesai", "Sudah bertemu."))).status).toBe(200);
    expect((await state()).body.permintaan_terakhir.status).toBe("selesai");
    // A new request after a day opens a new case.
    dayPasses();
    await ask();
    expect(storedCases(service).map((row) => row.status)).toEqual(["selesai", "baru"]);
    expect((await state()).body.permintaan_terakhir.status).toBe("menunggu");
  });

  test("a student without an advisor reaches the admins", async () => {
    await service.importAccounts("role,username,password,nim,activated\nmahasiswa,mhs5,mhs-pass-5,N005,true\n");
    const token = (await service.login("mhs5", "mhs-pass-5")).access;
    const sent = await service.request("POST", "/api/mahasiswa/minta-kontak", { token, body: {} });
    expect(sent.body).toMatchObject({ dosen_wali: null, permintaan_terakhir: { penerima: "admin" } });
    expect(storedCases(service)[0]).toMatchObject({ NIM: "N005", NIP: null });
  });

  test("two requests sent at once make one", async () => {
    const answers = await Promise.all([ask({ pesan: "satu" }), ask({ pesan: "dua" })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 429]);
    expect(requests()).toHaveLength(1);
    expect(storedCases(service)).toHaveLength(1);
  });

  test.each([
    ["a message that is no text", "mhs1", { pesan: 5 }, 400, "pesan harus berupa teks."],
    ["a message of 1001 characters", "mhs1", { pesan: "é".repeat(1001) }, 400, "pesan paling banyak 1000 karakter."],
    ["a lecturer", "dosen1", {}, 403, "Hanya mahasiswa yang dapat meminta dihubungi."],
    ["an admin", "admin", {}, 403, "Hanya mahasiswa yang dapat meminta dihubungi."],
  ] as const)("%s → %d, nothing written", async (_name, caller, body, status, error) => {
    expect(await ask(body, caller)).toMatchObject({ status, body: { error } });
    expect(requests()).toEqual([]);
    expect(storedCases(service)).toEqual([]);
  });

  test("a message of exactly 1000 characters is taken", async () => {
    expect((await ask({ pesan: "é".repeat(1000) })).status).toBe(201);
  });

  test("a student account without a profile → 404; no token → 401", async () => {
    await service.addStudentWithoutProfile();
    const token = (await service.login("tanpaprofil", "tanpa-pass-1")).access;
    expect(await service.request("POST", "/api/mahasiswa/minta-kontak", { token, body: {} })).toMatchObject({ status: 404, body: { error: "Mahasiswa tidak ditemukan." } });
    expect(await service.request("GET", "/api/mahasiswa/minta-kontak", { token })).toMatchObject({ status: 404 });
    expect((await service.request("POST", "/api/mahasiswa/minta-kontak", { body: {} })).status).toBe(401);
  });

  test("while the student's processing is restricted: 403, no case opens", async () => {
    service.context.db.$client.run("UPDATE mahasiswa SET dibatasi_sejak = '2026-01-01T00:00:00.000Z' WHERE NIM = 'N001'");
    const refused = await ask();
    expect(refused.status).toBe(403);
    expect(refused.body.error).toStartWith("Pemrosesan data Anda sedang dibatasi");
    expect(storedCases(service)).toEqual([]);
  });

  test("the request leaves one create row naming the student", async () => {
    await ask();
    await service.context.audit.flush();
    const rows = service.context.db.$client
      .query<{ action: string; nim: string; target: string }, []>(
        "SELECT action, (SELECT group_concat(nim) FROM audit_subjects WHERE audit_id = audit_log.id) AS nim, target FROM audit_log WHERE target LIKE '%minta-kontak%'",
      )
      .all();
    expect(rows).toEqual([{ action: "create", nim: "N001", target: "POST /api/mahasiswa/minta-kontak" }]);
  });
});

describe("GET /api/mahasiswa/minta-kontak", () => {
  test("before any request: the advisor with their number, nothing asked, allowed now", async () => {
    await service.request("PUT", "/api/dosen/profil", { token: lecturers.tokens.dosen1, body: { telepon: "0812 3456 7890" } });
    expect((await state()).body).toEqual({ dosen_wali: { nama: "Dosen Satu", telepon: "0812 3456 7890" }, permintaan_terakhir: null, boleh_minta_lagi_pada: null });
  });
});
