import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import { TestService, jawaban, standardAccounts, type RequestOptions, type TestResponse } from "../helpers";
import { pngSized } from "../photos/fixtures";
import { documentedService, operationOf, operationsOf } from "./openapi-interface";

// The answers of a walk through every route are valid against the schema the OpenAPI document
// gives for their status, so that the document cannot drift from the code (the document
// against the interface: openapi-document.test.ts).

let service: TestService;
let document: any;

beforeAll(async () => ({ service, document } = await documentedService()));
afterAll(() => service.close());

const operations = () => operationsOf(document);
const operation = (name: string) => operationOf(document, name);

describe("the answers of the service against the document", () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const validators = new Map<string, ValidateFunction>();
  /** The operations a walk met, each with the statuses it saw. */
  const seen = new Map<string, Set<number>>();
  const tokens: Record<string, string> = {};

  /** The document's path template of a request path (the most specific one that fits). */
  function templateOf(method: string, path: string): string {
    const bare = path.split("?")[0]!;
    const fitting = Object.keys(document.paths).filter(
      (template) => document.paths[template][method.toLowerCase()] && new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(bare),
    );
    if (fitting.length === 0) throw new Error(`${method} ${path} fits no documented operation`);
    return fitting.sort((a, b) => b.replace(/\{[^}]+\}/g, "").length - a.replace(/\{[^}]+\}/g, "").length)[0]!;
  }

  /** Sends a request and checks its answer: a documented status, a body valid against that status's schema. */
  async function call(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const answer = await service.request(method, path, options);
    const name = `${method} ${templateOf(method, path)}`;
    seen.set(name, (seen.get(name) ?? new Set()).add(answer.status));
    const response = operation(name).responses?.[answer.status];
    expect({ name, status: answer.status, documented: response !== undefined }).toEqual({ name, status: answer.status, documented: true });
    const mediaType = (answer.headers.get("content-type") ?? "").split(";")[0]!;
    if (answer.status === 304) return answer;
    expect({ name, status: answer.status, mediaType, documented: Object.keys(response.content ?? {}).includes(mediaType) }).toEqual({
      name,
      status: answer.status,
      mediaType,
      documented: true,
    });
    if (mediaType === "application/json") {
      const key = `${name} ${answer.status}`;
      if (!validators.has(key)) validators.set(key, ajv.compile(response.content[mediaType].schema));
      const validate = validators.get(key)!;
      const valid = validate(answer.body);
      expect({ key, body: answer.body, errors: valid ? null : validate.errors }).toEqual({ key, body: answer.body, errors: null });
    }
    return answer;
  }

  beforeAll(async () => {
    await service.importAccounts(standardAccounts);
  });

  test("the authentication routes", async () => {
    const login = await call("POST", "/api/auth/login", { body: { username: "mhs1", password: "mhs-pass-1" } });
    expect(login.status).toBe(200);
    tokens.mhs1 = login.body.access_token;
    expect((await call("POST", "/api/auth/refresh", { token: login.body.refresh_token })).status).toBe(200);
    expect((await call("GET", "/api/auth/me", { token: tokens.mhs1 })).status).toBe(200);
    Object.assign(tokens, await service.accessTokens(["admin", "dosen1", "dosen2", "mhs2"]));
    for (const token of [tokens.admin, tokens.dosen1]) expect((await call("GET", "/api/auth/me", { token })).status).toBe(200);
    expect((await call("POST", "/api/auth/activation", { body: { username: "mhs3", password: "mhs-pass-3" } })).status).toBe(200);
    expect((await call("POST", "/api/auth/activation", { body: { username: "mhs3", password: "mhs-pass-3" } })).status).toBe(400);
    expect((await call("POST", "/api/auth/activation", { body: { username: "tidak-ada", password: "x" } })).status).toBe(404);
    expect((await call("POST", "/api/auth/login", { body: { username: "mhs1", password: "salah" } })).status).toBe(401);
    expect((await call("POST", "/api/auth/login", { body: {} })).status).toBe(400);
    const mhs3 = await service.login("mhs3", "mhs-pass-3");
    expect((await call("POST", "/api/auth/password", { token: mhs3.access, body: { old_password: "mhs-pass-3", new_password: "sandi-baru-3" } })).status).toBe(200);
    expect((await call("POST", "/api/auth/password", { token: mhs3.access, body: {} })).status).toBe(401);
    expect((await call("GET", "/api/auth/me")).status).toBe(401);
  });

  test("the questionnaire, its result, history and suggestions", async () => {
    expect((await call("GET", "/api/kuesioner/questions", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("GET", "/api/kuesioner/keselamatan", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("GET", "/api/kuesioner/keselamatan")).status).toBe(401);
    expect((await call("GET", "/api/konten/bantuan")).status).toBe(200);
    expect((await call("GET", "/api/mahasiswa/can_submit/N001", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("GET", "/api/mahasiswa/hasil/N001", { token: tokens.mhs1 })).status).toBe(404);
    expect((await call("POST", "/api/mahasiswa/kuesioner", { token: tokens.mhs1, body: { jawaban: jawaban(3, 4, { freq_olahraga: "1-3 kali" }) } })).status).toBe(201);
    const limited = await call("POST", "/api/mahasiswa/kuesioner", { token: tokens.mhs1, body: { jawaban: jawaban(3, 4) } });
    expect([limited.status, limited.body.error]).toEqual([403, "Batasan Mingguan"]);
    expect((await call("POST", "/api/mahasiswa/kuesioner", { token: tokens.admin, body: { jawaban: jawaban(3, 4) } })).status).toBe(400);
    expect((await call("POST", "/api/mahasiswa/kuesioner", { token: tokens.dosen1, body: { jawaban: jawaban(3, 4) } })).status).toBe(403);
    expect((await call("GET", "/api/mahasiswa/can_submit/N001", { token: tokens.mhs1 })).body.can_submit).toBe(false);
    expect((await call("GET", "/api/mahasiswa/can_submit/N001", { token: tokens.mhs2 })).status).toBe(403);
    expect((await call("GET", "/api/mahasiswa/can_submit/N999", { token: tokens.admin })).status).toBe(404);
    expect((await call("GET", "/api/mahasiswa/hasil/N001", { token: tokens.dosen1 })).body.input_jawaban).toBeDefined();
    expect((await call("GET", "/api/mahasiswa/history", { token: tokens.mhs1 })).body.total).toBe(1);
    expect((await call("GET", "/api/mahasiswa/history?nim=N001&page=1&per_page=5", { token: tokens.admin })).status).toBe(200);
    expect((await call("GET", "/api/mahasiswa/history", { token: tokens.admin })).status).toBe(400);
    expect((await call("GET", "/api/mahasiswa/suggestions/detail?stress=Tinggi&motivation=Rendah", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("GET", "/api/mahasiswa/suggestions/detail", { token: tokens.mhs1 })).status).toBe(400);
  });

  test("the profile and its photo", async () => {
    expect((await call("GET", "/api/mahasiswa/profil/status", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("PUT", "/api/mahasiswa/profil", { token: tokens.mhs1, body: { usia: "20", IPK: 3.5, gender: "Perempuan", angkatan: 2023 } })).status).toBe(200);
    expect((await call("PUT", "/api/mahasiswa/profil", { token: tokens.mhs1, body: { IPK: 5 } })).status).toBe(400);
    expect((await call("PUT", "/api/mahasiswa/profil", { token: tokens.dosen1, body: {} })).status).toBe(403);
    expect((await call("GET", "/api/mahasiswa/profil/data/N001", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("GET", "/api/mahasiswa/profil/data/N999", { token: tokens.admin })).status).toBe(404);
    expect((await call("GET", "/api/mahasiswa/profil/foto/N001")).status).toBe(404);
    const form = new FormData();
    form.append("foto", new File([pngSized(4, 4)], "foto.png"));
    expect((await call("PUT", "/api/mahasiswa/profil/foto", { token: tokens.mhs1, rawBody: form })).status).toBe(200);
    expect((await call("PUT", "/api/mahasiswa/profil/foto", { token: tokens.mhs1, rawBody: new FormData() })).status).toBe(400);
    const photo = await call("GET", "/api/mahasiswa/profil/foto/N001");
    expect(photo.status).toBe(200);
    expect((await call("GET", "/api/mahasiswa/profil/foto/N001", { headers: { "if-none-match": photo.headers.get("etag")! } })).status).toBe(304);
    expect((await call("DELETE", "/api/mahasiswa/profil/foto/N002", { token: tokens.mhs1 })).status).toBe(403);
    expect((await call("DELETE", "/api/mahasiswa/profil/foto/N001", { token: tokens.mhs1 })).status).toBe(200);
  });

  test("mood and diary entries", async () => {
    const created = await call("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-03-01", mood_value: 4 } });
    expect(created.status).toBe(201);
    expect((await call("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-03-01", mood_value: "5" } })).status).toBe(200);
    const other = await call("POST", "/api/mahasiswa/mood", { token: tokens.admin, body: { nim: "N001", date: "2026-03-02", mood_value: 2 } });
    expect(other.status).toBe(201);
    expect((await call("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: {} })).status).toBe(400);
    expect((await call("POST", "/api/mahasiswa/mood", { token: tokens.admin, body: { nim: "N999", date: "2026-03-02", mood_value: 2 } })).status).toBe(404);
    expect((await call("GET", "/api/mahasiswa/mood/N001", { token: tokens.dosen1 })).body).toHaveLength(2);
    expect((await call("GET", "/api/mahasiswa/mood/N001", { token: tokens.dosen2 })).status).toBe(403);
    expect((await call("PUT", `/api/mahasiswa/mood/${created.body.id}`, { token: tokens.mhs1, body: { mood_value: 3 } })).status).toBe(200);
    expect((await call("PUT", `/api/mahasiswa/mood/${created.body.id}`, { token: tokens.mhs1, body: { date: "2026-03-02" } })).status).toBe(409);
    expect((await call("PUT", `/api/mahasiswa/mood/${created.body.id}`, { token: tokens.mhs2, body: { mood_value: 3 } })).status).toBe(403);
    expect((await call("DELETE", "/api/mahasiswa/mood/99999", { token: tokens.mhs1 })).status).toBe(404);
    expect((await call("DELETE", `/api/mahasiswa/mood/${created.body.id}`, { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, rawBody: `{"date":"${"x".repeat(1024 * 1024)}"}`, headers: { "content-type": "application/json" } })).status).toBe(413);

    const diary = await call("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-03-01", content: "Hari yang baik." } });
    expect(diary.status).toBe(201);
    expect((await call("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-03-01" } })).status).toBe(400);
    expect((await call("GET", "/api/mahasiswa/diary/N001", { token: tokens.mhs1 })).body).toHaveLength(1);
    expect((await call("PUT", `/api/mahasiswa/diary/${diary.body.id}`, { token: tokens.mhs1, body: { title: "Senin" } })).status).toBe(200);
    expect((await call("PUT", "/api/mahasiswa/diary/99999", { token: tokens.mhs1, body: { title: "Senin" } })).status).toBe(404);
    expect((await call("DELETE", `/api/mahasiswa/diary/${diary.body.id}`, { token: tokens.mhs1 })).status).toBe(200);
  });

  test("counselling notes from both sides", async () => {
    const note = await call("POST", "/api/dosen/catatan", { token: tokens.dosen1, body: { NIM: "N001", isi_catatan: "Mari bertemu hari Senin." } });
    expect(note.status).toBe(201);
    expect((await call("POST", "/api/dosen/catatan", { token: tokens.dosen2, body: { NIM: "N001", isi_catatan: "Halo" } })).status).toBe(403);
    expect((await call("POST", "/api/dosen/catatan", { token: tokens.dosen1, body: { NIM: "N001" } })).status).toBe(400);
    expect((await call("GET", "/api/dosen/catatan/N001", { token: tokens.dosen1 })).body).toHaveLength(1);
    expect((await call("GET", "/api/dosen/catatan/N999", { token: tokens.admin })).status).toBe(404);
    expect((await call("GET", "/api/mahasiswa/catatan", { token: tokens.mhs1 })).body).toHaveLength(1);
    expect((await call("GET", `/api/mahasiswa/catatan/detail/${note.body.id}`, { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("GET", `/api/mahasiswa/catatan/detail/${note.body.id}`, { token: tokens.mhs2 })).status).toBe(403);
    expect((await call("PUT", `/api/mahasiswa/catatan/${note.body.id}/reply`, { token: tokens.mhs1, body: { reply: "Baik." } })).status).toBe(400);
    expect((await call("POST", `/api/mahasiswa/catatan/${note.body.id}/reply`, { token: tokens.mhs1, body: { reply: "Baik, Bu." } })).body.data.status).toBe("sudah_dibalas");
    expect((await call("PUT", `/api/mahasiswa/catatan/${note.body.id}/reply`, { token: tokens.mhs1, body: { reply: "Baik, Pak." } })).status).toBe(200);
    expect((await call("POST", "/api/mahasiswa/catatan/99999/reply", { token: tokens.mhs1, body: { reply: "Halo" } })).status).toBe(404);
  });

  test("the lecturer's views and the admin's list of lecturers", async () => {
    const students = await call("GET", "/api/dosen/mahasiswa?sort=risk", { token: tokens.dosen1 });
    expect(students.body.data[0].last_skrining).not.toBeNull();
    expect((await call("GET", "/api/dosen/mahasiswa/N001", { token: tokens.dosen1 })).status).toBe(200);
    expect((await call("GET", "/api/dosen/mahasiswa/N001", { token: tokens.dosen2 })).status).toBe(403);
    expect((await call("GET", "/api/dosen/mahasiswa", { token: tokens.mhs1 })).status).toBe(403);
    expect((await call("GET", "/api/dosen/statistik", { token: tokens.dosen1 })).body.belum_skrining).toBeDefined();
    expect((await call("GET", "/api/dosen/statistik?NIP=D999", { token: tokens.admin })).body).toEqual({ total_mahasiswa: 0, sudah_skrining: 0, stress_dist: {}, motivasi_dist: {} });
    expect((await call("GET", "/api/dosen/daftar", { token: tokens.admin })).status).toBe(200);
    expect((await call("GET", "/api/dosen/daftar", { token: tokens.dosen1 })).status).toBe(403);
  });

  test("follow-up cases", async () => {
    // mhs2 (N002, advisee of dosen2) had no screening yet: this one raises an early warning and opens a case.
    const flagged = jawaban(5, 1, { M25: 7, M26: 7, M27: 7, M28: 7 });
    expect((await call("POST", "/api/mahasiswa/kuesioner", { token: tokens.mhs2, body: { jawaban: flagged } })).status).toBe(201);
    const list = await call("GET", "/api/dosen/tindak-lanjut?status=baru&min_hari=0", { token: tokens.dosen2 });
    const id = list.body.data[0].id;
    expect((await call("GET", "/api/dosen/tindak-lanjut?status=tutup", { token: tokens.dosen2 })).status).toBe(400);
    expect((await call("GET", "/api/dosen/tindak-lanjut", { token: tokens.mhs1 })).status).toBe(403);
    expect((await call("GET", `/api/dosen/tindak-lanjut/${id}`, { token: tokens.dosen2 })).body.riwayat).toHaveLength(1);
    expect((await call("GET", `/api/dosen/tindak-lanjut/${id}`, { token: tokens.dosen1 })).status).toBe(403);
    expect((await call("GET", "/api/dosen/tindak-lanjut/99999", { token: tokens.admin })).status).toBe(404);
    expect((await call("POST", `/api/dosen/tindak-lanjut/${id}/status`, { token: tokens.dosen2, body: { status: "dihubungi", catatan: "Ditelepon.", hasil_kontak: "berhasil" } })).status).toBe(200);
    expect((await call("POST", `/api/dosen/tindak-lanjut/${id}/status`, { token: tokens.dosen2, body: { status: "baru", catatan: "x" } })).status).toBe(409);
    expect((await call("POST", `/api/dosen/tindak-lanjut/${id}/status`, { token: tokens.dosen2, body: {} })).status).toBe(400);
    expect((await call("PUT", `/api/dosen/tindak-lanjut/${id}/pemilik`, { token: tokens.admin, body: { NIP: "D001" } })).body.NIP).toBe("D001");
    expect((await call("PUT", `/api/dosen/tindak-lanjut/${id}/pemilik`, { token: tokens.admin, body: { NIP: "D999" } })).status).toBe(404);
    expect((await call("PUT", `/api/dosen/tindak-lanjut/${id}/pemilik`, { token: tokens.admin, body: {} })).status).toBe(400);
    expect((await call("PUT", `/api/dosen/tindak-lanjut/${id}/pemilik`, { token: tokens.dosen1, body: { NIP: "D001" } })).status).toBe(403);
    expect((await call("GET", "/api/dosen/tindak-lanjut/ringkasan", { token: tokens.admin })).body.fakultas.terbuka).toBe(1);
    expect((await call("GET", "/api/dosen/mahasiswa/N002", { token: tokens.admin })).body.tindak_lanjut.id).toBe(id);
    // Decisions §19: another attempt, then a closing with its reason and judgement.
    expect((await call("POST", `/api/dosen/tindak-lanjut/${id}/status`, { token: tokens.admin, body: { status: "dihubungi", catatan: "Lagi.", hasil_kontak: "dijadwalkan" } })).status).toBe(200);
    const closed = await call("POST", `/api/dosen/tindak-lanjut/${id}/status`, { token: tokens.admin, body: { status: "selesai", catatan: "Selesai.", alasan_selesai: "teratasi", perlu_dukungan: "tidak" } });
    expect(closed.body).toMatchObject({ alasan_selesai: "teratasi", perlu_dukungan: "tidak" });
  });

  test("after the first contact: a student's request, the lecturer's first page and profile, the former advisor's refusal", async () => {
    expect((await call("GET", "/api/mahasiswa/minta-kontak", { token: tokens.mhs1 })).body.permintaan_terakhir).toBeNull();
    expect((await call("POST", "/api/mahasiswa/minta-kontak", { token: tokens.mhs1, body: { pesan: "Boleh bertemu?" } })).status).toBe(201);
    expect((await call("POST", "/api/mahasiswa/minta-kontak", { token: tokens.mhs1, body: {} })).status).toBe(429);
    expect((await call("POST", "/api/mahasiswa/minta-kontak", { token: tokens.mhs2, body: { pesan: 5 } })).status).toBe(400);
    expect((await call("POST", "/api/mahasiswa/minta-kontak", { token: tokens.dosen1, body: {} })).status).toBe(403);
    const today = await call("GET", "/api/dosen/hari-ini", { token: tokens.dosen1 });
    expect(today.body.jumlah.kasus).toBeGreaterThan(0);
    expect((await call("GET", "/api/dosen/hari-ini", { token: tokens.admin })).status).toBe(403);
    expect((await call("PUT", "/api/dosen/profil", { token: tokens.dosen1, body: { telepon: "0812 3456 7890" } })).status).toBe(200);
    expect((await call("PUT", "/api/dosen/profil", { token: tokens.dosen1, body: { telepon: "bukan" } })).status).toBe(400);
    expect((await call("GET", "/api/dosen/profil", { token: tokens.dosen1 })).body.telepon).toBe("0812 3456 7890");
    expect((await call("GET", "/api/dosen/profil", { token: tokens.admin })).status).toBe(403);
    // N002 moves from D002 to D001: D002's refusal says so.
    await service.importAccounts("role,username,password,nim,nip_doswal\nmahasiswa,mhs2,,N002,D001\n");
    const moved = await call("GET", "/api/dosen/mahasiswa/N002", { token: tokens.dosen2 });
    expect(moved.body.pindah_dosen_wali.nama_dosen_wali_baru).toBe("Dosen Satu");
    expect((await call("GET", "/api/auth/me", { token: tokens.mhs2 })).body.pergantian_dosen_wali).toMatchObject({ nama_baru: "Dosen Satu" });
  });

  test("the privacy notice and a student's acknowledgement", async () => {
    expect((await call("GET", "/api/privasi/pemberitahuan")).body.acknowledged).toBeNull();
    const notice = await call("GET", "/api/privasi/pemberitahuan", { token: tokens.mhs2 });
    expect(notice.body.acknowledged).toBe(false);
    expect((await call("GET", "/api/privasi/pemberitahuan", { token: "bukan-token" })).status).toBe(401);
    expect((await call("POST", "/api/privasi/pemberitahuan/setuju", { token: tokens.mhs2, body: {} })).status).toBe(400);
    expect((await call("POST", "/api/privasi/pemberitahuan/setuju", { token: tokens.mhs2, body: { version: "lama" } })).status).toBe(409);
    expect((await call("POST", "/api/privasi/pemberitahuan/setuju", { token: tokens.dosen1, body: { version: notice.body.version } })).status).toBe(403);
    expect((await call("POST", "/api/privasi/pemberitahuan/setuju", { token: tokens.mhs2, body: { version: notice.body.version } })).status).toBe(201);
    expect((await call("POST", "/api/privasi/pemberitahuan/setuju", { token: tokens.mhs2, body: { version: notice.body.version } })).status).toBe(200);
  });

  test("a student's own data document", async () => {
    expect((await call("GET", "/api/mahasiswa/data-saya", { token: tokens.mhs1 })).body.profil.nim).toBe("N001");
    expect((await call("GET", "/api/mahasiswa/data-saya", { token: tokens.dosen1 })).status).toBe(403);
    expect((await call("GET", "/api/mahasiswa/data-saya")).status).toBe(401);
  });

  test("a storage that refuses writes answers the documented 503, and the health check says so", async () => {
    service.context.db.$client.run("PRAGMA query_only = ON");
    try {
      expect((await call("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-03-05", mood_value: 3 } })).status).toBe(503);
      expect((await call("GET", "/health")).body.status).toBe("degraded");
    } finally {
      service.context.db.$client.run("PRAGMA query_only = OFF");
    }
    expect((await call("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-03-05", mood_value: 3 } })).status).toBe(201);
    expect((await call("GET", "/health")).status).toBe(200);
  });

  test("logout, last", async () => {
    expect((await call("POST", "/api/auth/logout", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("POST", "/api/auth/logout", { token: tokens.mhs1 })).status).toBe(401);
  });

  test("the walk met every operation of the document with a success", () => {
    const unmet = operations()
      .map(([name]) => name)
      .filter((name) => ![...(seen.get(name) ?? [])].some((status) => status >= 200 && status < 300));
    expect(unmet).toEqual([]);
  });
});
