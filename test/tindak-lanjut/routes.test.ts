import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { followUpStatuses } from "../../src/db/schema";
import { allowedMoves } from "../../src/modules/tindak-lanjut/moves";
import type { Lecturers } from "../dosen/support";
import { caseTexts, flaggedAnswers, moveBody, serviceWithCase, setStatus, storedCases, storedTimeline, submit } from "./support";

let fixture: Lecturers & { caseId: number };
let service: Lecturers["service"];
beforeEach(async () => {
  fixture = await serviceWithCase();
  service = fixture.service;
});
afterEach(() => service.close());

type Caller = keyof Lecturers["tokens"] | "none";
const outcomeRequired = "hasil_kontak wajib diisi untuk status dihubungi: berhasil, tidak_merespons, dijadwalkan.";
const reasonRequired = "alasan_selesai wajib diisi untuk menutup tindak lanjut: teratasi, dirujuk_layanan_konseling, tidak_merespons, mahasiswa_menolak, lainnya.";
const judgementRequired = "perlu_dukungan wajib diisi untuk menutup tindak lanjut: ya atau tidak.";
const as = (caller: Caller) => (caller === "none" ? undefined : fixture.tokens[caller]);
const studentsColumn = "(SELECT group_concat(nim, ' ') FROM audit_subjects WHERE audit_id = audit_log.id) AS nim";
const auditRows = () =>
  service.context.db.$client
    .query<{ action: string; nim: string | null; target: string; actor_role: string }, []>(`SELECT action, ${studentsColumn}, target, actor_role FROM audit_log WHERE target LIKE '%tindak-lanjut%' ORDER BY id`)
    .all();

/** Who may act on D001's case, and what the others are told (the advisor scope of decisions §9). */
const callers: [Caller, number, string | null][] = [
  ["dosen1", 200, null],
  ["admin", 200, null],
  ["dosen2", 403, caseTexts.notAdvisee],
  ["tanpaBimbingan", 403, caseTexts.notAdvisee],
  ["tanpaProfil", 403, caseTexts.notAdvisee],
  ["mhs1", 403, caseTexts.denied],
  ["none", 401, "Token akses diperlukan."],
];

describe("GET /api/dosen/tindak-lanjut/:id", () => {
  test.each(callers)("%s → %d", async (caller, status, error) => {
    const response = await service.request("GET", `/api/dosen/tindak-lanjut/${fixture.caseId}`, { token: as(caller) });
    expect(response.status).toBe(status);
    if (error !== null) {
      expect(response.body).toEqual({ error });
      return;
    }
    expect(response.body).toMatchObject({
      id: fixture.caseId,
      NIM: "N001",
      nama_mahasiswa: "Mahasiswa Satu",
      NIP: "D001",
      nama_dosen: "Dosen Satu",
      alasan: ["early_warning"],
      status: "baru",
      pertama_dihubungi_pada: null,
      ditutup_pada: null,
      hari_terbuka: 0,
      dibatasi: false,
      riwayat: [{ jenis: "dibuka", status_dari: null, status_ke: "baru", catatan: "Dibuka otomatis oleh skrining: peringatan dini (stres Tinggi dengan motivasi Rendah).", oleh: "Sistem" }],
      NIP_doswal: "D001",
      nama_doswal: "Dosen Satu",
      dapat_diubah: true,
      tingkat_terakhir: [{ tingkat_stres: "Tinggi", tingkat_motivasi: "Rendah", early_warning: true }],
    });
  });

  test.each([["999"], ["abc"], ["0"]])("an unknown id (%s) → 404", async (id) => {
    const response = await service.request("GET", `/api/dosen/tindak-lanjut/${id}`, { token: fixture.tokens.admin });
    expect(response).toMatchObject({ status: 404, body: { error: caseTexts.unknown } });
  });

  test("a read leaves one view row naming the student; a refused one none", async () => {
    await service.request("GET", `/api/dosen/tindak-lanjut/${fixture.caseId}`, { token: fixture.tokens.dosen2 });
    await service.request("GET", `/api/dosen/tindak-lanjut/${fixture.caseId}`, { token: fixture.tokens.dosen1 });
    await service.context.audit.flush();
    await service.request("POST", `/api/dosen/tindak-lanjut/${fixture.caseId}/status`, { token: fixture.tokens.dosen1, body: moveBody("dihubungi", "Ditelepon.") });
    expect(auditRows()).toEqual([
      { action: "view", nim: "N001", target: "GET /api/dosen/tindak-lanjut/:id", actor_role: "dosen" },
      { action: "update", nim: "N001", target: "POST /api/dosen/tindak-lanjut/:id/status", actor_role: "dosen" },
    ]);
  });

  test("the other routes' rows: the list one view naming the students listed, the summary one without a student, a reassignment an update", async () => {
    await service.request("GET", "/api/dosen/tindak-lanjut", { token: fixture.tokens.dosen1 });
    await service.request("GET", "/api/dosen/tindak-lanjut/ringkasan", { token: fixture.tokens.dosen1 });
    await service.request("GET", "/api/dosen/tindak-lanjut/ringkasan", { token: fixture.tokens.admin });
    await service.request("PUT", `/api/dosen/tindak-lanjut/${fixture.caseId}/pemilik`, { token: fixture.tokens.admin, body: { NIP: "D002" } });
    await service.context.audit.flush();
    const rows = service.context.db.$client
      .query<{ action: string; nim: string | null; target: string; detail: string | null }, []>(`SELECT action, ${studentsColumn}, target, detail FROM audit_log WHERE target LIKE '%tindak-lanjut%' ORDER BY id`)
      .all();
    expect(rows).toEqual([
      { action: "view", nim: "N001", target: "GET /api/dosen/tindak-lanjut", detail: null },
      { action: "view", nim: null, target: "GET /api/dosen/tindak-lanjut/ringkasan", detail: "NIP D001" },
      { action: "view", nim: null, target: "GET /api/dosen/tindak-lanjut/ringkasan", detail: "semua dosen" },
      { action: "update", nim: "N001", target: "PUT /api/dosen/tindak-lanjut/:id/pemilik", detail: null },
    ]);
  });

  test("the last five screenings, newest first, each flagged against the one before it", async () => {
    const insert = service.context.db.$client.prepare(
      "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES ('N001', ?, '{}', ?, ?, 's', ?, 1)",
    );
    // Before the submitted one (which is the newest): scores 50, 60, 100 (a jump of 40), 100, 100, 100.
    for (const [day, stres, score] of [["01", "Rendah", 50], ["02", "Rendah", 60], ["03", "Sedang", 100], ["04", "Sedang", 100], ["05", "Sedang", 100], ["06", "Sedang", 100]] as const) {
      insert.run(`2026-01-${day}T00:00:00.000Z`, stres, "Sedang", score);
    }
    const response = await service.request("GET", `/api/dosen/tindak-lanjut/${fixture.caseId}`, { token: fixture.tokens.dosen1 });
    expect(response.body.tingkat_terakhir.map((row: { tanggal: string; early_warning: boolean }) => [row.tanggal.slice(0, 10), row.early_warning])).toEqual([
      [expect.any(String), true],
      ["2026-01-06", false],
      ["2026-01-05", false],
      ["2026-01-04", false],
      ["2026-01-03", true],
    ]);
  });
});

describe("POST /api/dosen/tindak-lanjut/:id/status", () => {
  const change = (token: string | undefined, body: unknown, id = fixture.caseId) => service.request("POST", `/api/dosen/tindak-lanjut/${id}/status`, { token, body });

  // Every (from, to) pair: the allowed moves of the contract answer 200, every other 409.
  const pairs = followUpStatuses.flatMap((from) => followUpStatuses.map((to) => [from, to] as const));
  const expected: Record<string, number> = {
    "baru→dihubungi": 200, "baru→dirujuk": 200, "baru→selesai": 200,
    "dihubungi→dihubungi": 200, "dihubungi→dirujuk": 200, "dihubungi→selesai": 200,
    "dirujuk→selesai": 200,
    "selesai→baru": 200,
  };
  test("the table of moves is the contract's", () => {
    const allowed = pairs.filter(([from, to]) => allowedMoves[from].includes(to)).map(([from, to]) => `${from}→${to}`);
    expect(allowed).toEqual(Object.keys(expected));
  });

  test.each(pairs)("%s → %s", async (from, to) => {
    setStatus(service, fixture.caseId, from);
    const before = storedTimeline(service).length;
    const response = await change(fixture.tokens.dosen1, moveBody(to, `  Catatan ${from} ke ${to}  `));
    const status = expected[`${from}→${to}`] ?? 409;
    expect(response.status).toBe(status);
    if (status === 409) {
      expect(response.body).toEqual({ error: `Status tidak dapat diubah dari ${from} ke ${to}.` });
      expect(storedCases(service)[0]!.status).toBe(from);
      expect(storedTimeline(service)).toHaveLength(before);
      return;
    }
    expect(response.body.status).toBe(to);
    const recorded = moveBody(to, "");
    expect(response.body.riwayat.at(-1)).toEqual({
      jenis: from === to ? "percobaan_kontak" : "status",
      status_dari: from,
      status_ke: to,
      catatan: `Catatan ${from} ke ${to}`,
      oleh: "Dosen Satu",
      waktu: response.body.diperbarui_pada,
      hasil_kontak: recorded.hasil_kontak ?? null,
      alasan_selesai: recorded.alasan_selesai ?? null,
      perlu_dukungan: recorded.perlu_dukungan ?? null,
    });
    expect(storedCases(service)[0]!.status).toBe(to);
    expect(response.body.ditutup_pada === null).toBe(to !== "selesai");
    expect(response.body).toMatchObject({ alasan_selesai: recorded.alasan_selesai ?? null, perlu_dukungan: recorded.perlu_dukungan ?? null });
    // Decisions §19: only a contact that reached the student is the first contact (never a referral or a closing); a reopening clears it with the closing.
    expect(response.body.pertama_dihubungi_pada === null).toBe(to !== "dihubungi");
    if (to === "baru") expect(response.body.dibuka_pada).toBe(response.body.diperbarui_pada);
  });

  test("the first contact stays the first: baru → dihubungi → dirujuk keeps its time", async () => {
    const first = await change(fixture.tokens.dosen1, moveBody("dihubungi", "Ditelepon."));
    const second = await change(fixture.tokens.dosen1, { status: "dirujuk", catatan: "Dirujuk ke layanan konseling." });
    expect(second.body.pertama_dihubungi_pada).toBe(first.body.pertama_dihubungi_pada);
    expect(second.body.riwayat.map((entry: { status_ke: string }) => entry.status_ke)).toEqual(["baru", "dihubungi", "dirujuk"]);
  });

  test.each(callers)("%s → %d", async (caller, status, error) => {
    const response = await change(as(caller), moveBody("dihubungi", "Ditelepon."));
    expect(response.status).toBe(status);
    if (error !== null) {
      expect(response.body).toEqual({ error });
      expect(storedCases(service)[0]!.status).toBe("baru");
      expect(storedTimeline(service)).toHaveLength(1);
    } else {
      // Decisions §19: timelines name people, never usernames; an admin account has no name of its own.
      expect(response.body.riwayat.at(-1).oleh).toBe(caller === "admin" ? "Admin fakultas" : "Dosen Satu");
    }
  });

  test.each([
    ["no status", { catatan: "x" }, "status harus salah satu dari: baru, dihubungi, dirujuk, selesai."],
    ["an unknown status", { status: "ditutup", catatan: "x" }, "status harus salah satu dari: baru, dihubungi, dirujuk, selesai."],
    ["no catatan", { status: "dihubungi" }, "catatan wajib diisi."],
    ["a blank catatan", { status: "dihubungi", catatan: "   " }, "catatan wajib diisi."],
    ["a catatan that is no text", { status: "dihubungi", catatan: 5 }, "catatan wajib diisi."],
    ["a catatan of 2001 characters", { status: "dihubungi", catatan: "a".repeat(2001) }, "catatan paling banyak 2000 karakter."],
    // Decisions §19: what a move records, after the note.
    ["dihubungi without hasil_kontak", { status: "dihubungi", catatan: "Ditelepon." }, outcomeRequired],
    ["dihubungi with an unknown hasil_kontak", { status: "dihubungi", catatan: "Ditelepon.", hasil_kontak: "gagal" }, outcomeRequired],
    ["selesai without alasan_selesai", { status: "selesai", catatan: "Selesai.", perlu_dukungan: "tidak" }, reasonRequired],
    ["selesai with an unknown alasan_selesai", { status: "selesai", catatan: "Selesai.", alasan_selesai: "lupa", perlu_dukungan: "tidak" }, reasonRequired],
    ["selesai without perlu_dukungan", { status: "selesai", catatan: "Selesai.", alasan_selesai: "teratasi" }, judgementRequired],
    ["selesai with perlu_dukungan true", { status: "selesai", catatan: "Selesai.", alasan_selesai: "teratasi", perlu_dukungan: true }, judgementRequired],
    ["the note before the outcome", { status: "dihubungi" }, "catatan wajib diisi."],
  ])("%s → 400, nothing written", async (_, body, error) => {
    const response = await change(fixture.tokens.dosen1, body);
    expect(response).toMatchObject({ status: 400, body: { error } });
    expect(storedTimeline(service)).toHaveLength(1);
  });

  test("a catatan of exactly 2000 characters is taken", async () => {
    expect((await change(fixture.tokens.dosen1, moveBody("dihubungi", "é".repeat(2000)))).status).toBe(200);
  });

  test("an unknown case → 404 before the body is read", async () => {
    expect(await change(fixture.tokens.dosen1, {}, 999)).toMatchObject({ status: 404, body: { error: caseTexts.unknown } });
  });

  test("reopening is refused (409) while the student has another open case", async () => {
    await change(fixture.tokens.dosen1, moveBody("selesai", "Sudah ditangani."));
    await submit(service, fixture.tokens.admin, flaggedAnswers, "N001");
    expect(storedCases(service).map((row) => row.status)).toEqual(["selesai", "baru"]);
    const response = await change(fixture.tokens.dosen1, { status: "baru", catatan: "Dibuka lagi." });
    expect(response).toMatchObject({ status: 409, body: { error: caseTexts.anotherOpen } });
    expect(storedCases(service).map((row) => row.status)).toEqual(["selesai", "baru"]);
  });

  test("two changes sent at once apply one after the other", async () => {
    const [first, second] = await Promise.all([
      change(fixture.tokens.dosen1, { status: "dirujuk", catatan: "Pertama." }),
      change(fixture.tokens.admin, { status: "dirujuk", catatan: "Kedua." }),
    ]);
    // Whichever reached the write queue first wins; the other finds the case already referred.
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const refused = first.status === 409 ? first : second;
    expect(refused.body).toEqual({ error: "Status tidak dapat diubah dari dirujuk ke dirujuk." });
    expect(storedTimeline(service)).toHaveLength(2);
  });
});

describe("PUT /api/dosen/tindak-lanjut/:id/pemilik", () => {
  const reassign = (token: string | undefined, body: unknown, id = fixture.caseId) => service.request("PUT", `/api/dosen/tindak-lanjut/${id}/pemilik`, { token, body });

  test("an admin gives the case to another lecturer: the new handler acts on it, the advisor still reads it", async () => {
    const response = await reassign(fixture.tokens.admin, { NIP: " D002 " });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ NIP: "D002", nama_dosen: "Dosen Dua", NIP_doswal: "D001", nama_doswal: "Dosen Satu", status: "baru", dapat_diubah: true });
    expect(response.body.riwayat.at(-1)).toMatchObject({ status_dari: "baru", status_ke: "baru", catatan: "Penangan dipindahkan dari Dosen Satu (D001) ke Dosen Dua (D002).", oleh: "Admin fakultas", jenis: "penangan" });
    expect((await service.request("GET", `/api/dosen/tindak-lanjut/${fixture.caseId}`, { token: fixture.tokens.dosen2 })).body).toMatchObject({ dapat_diubah: true });
    expect((await service.request("GET", `/api/dosen/tindak-lanjut/${fixture.caseId}`, { token: fixture.tokens.dosen1 })).body).toMatchObject({ NIP: "D002", dapat_diubah: false });
  });

  test("a closed case is not handed over (409), nothing written", async () => {
    setStatus(service, fixture.caseId, "selesai");
    const response = await reassign(fixture.tokens.admin, { NIP: "D002" });
    expect(response).toMatchObject({ status: 409, body: { error: caseTexts.closedNotMovable } });
    expect(storedCases(service)[0]).toMatchObject({ NIP: "D001" });
    expect(storedTimeline(service)).toHaveLength(1);
  });

  test("the same owner again changes nothing", async () => {
    const response = await reassign(fixture.tokens.admin, { NIP: "D001" });
    expect(response.body).toMatchObject({ NIP: "D001" });
    expect(storedTimeline(service)).toHaveLength(1);
  });

  test.each([
    ["dosen1", 403, caseTexts.denied],
    ["dosen2", 403, caseTexts.denied],
    ["mhs1", 403, caseTexts.denied],
    ["none", 401, "Token akses diperlukan."],
  ] as const)("%s → %d (admin only)", async (caller, status, error) => {
    expect(await reassign(as(caller), { NIP: "D002" })).toMatchObject({ status, body: { error } });
    expect(storedCases(service)[0]!.NIP).toBe("D001");
  });

  test.each([
    ["no NIP", {}, 400, "NIP wajib diisi."],
    ["an unknown lecturer", { NIP: "D999" }, 404, "Dosen tidak ditemukan."],
  ])("%s → %d", async (_, body, status, error) => {
    expect(await reassign(fixture.tokens.admin, body)).toMatchObject({ status, body: { error } });
    expect(storedCases(service)[0]!.NIP).toBe("D001");
  });

  test("an unknown case → 404", async () => {
    expect(await reassign(fixture.tokens.admin, { NIP: "D002" }, 999)).toMatchObject({ status: 404, body: { error: caseTexts.unknown } });
  });
});

describe("a restricted student's case", () => {
  beforeEach(() => service.context.db.$client.run("UPDATE mahasiswa SET dibatasi_sejak = '2026-01-01T00:00:00.000Z' WHERE NIM = 'N001'"));

  test("is listed with dibatasi and without its reasons", async () => {
    const response = await service.request("GET", "/api/dosen/tindak-lanjut", { token: fixture.tokens.dosen1 });
    expect(response.body.data).toMatchObject([{ NIM: "N001", alasan: [], dibatasi: true, status: "baru" }]);
  });

  test.each([
    ["GET", "", undefined, "dosen1"],
    ["GET", "", undefined, "admin"],
    ["POST", "/status", { status: "dihubungi", catatan: "x" }, "dosen1"],
    ["PUT", "/pemilik", { NIP: "D002" }, "admin"],
  ] as const)("%s %s by %s → 403 with the restriction's text, nothing written", async (method, suffix, body, caller) => {
    const response = await service.request(method, `/api/dosen/tindak-lanjut/${fixture.caseId}${suffix}`, { token: fixture.tokens[caller], body });
    expect(response).toMatchObject({ status: 403, body: { error: caseTexts.restricted } });
    expect(storedCases(service)[0]).toMatchObject({ NIP: "D001", status: "baru" });
    expect(storedTimeline(service)).toHaveLength(1);
  });

  test("the lecturer's student detail shows no case", async () => {
    const response = await service.request("GET", "/api/dosen/mahasiswa/N001", { token: fixture.tokens.dosen1 });
    expect(response.body).toMatchObject({ dibatasi: true, tindak_lanjut: null });
  });
});

describe("GET /api/dosen/mahasiswa/:nim gains the open case", () => {
  test("the open case, then null once it is closed", async () => {
    const open = await service.request("GET", "/api/dosen/mahasiswa/N001", { token: fixture.tokens.dosen1 });
    expect(open.body.tindak_lanjut).toMatchObject({ id: fixture.caseId, status: "baru", alasan: ["early_warning"] });
    expect(open.body.tindak_lanjut).not.toHaveProperty("riwayat");
    await service.request("POST", `/api/dosen/tindak-lanjut/${fixture.caseId}/status`, { token: fixture.tokens.dosen1, body: moveBody("selesai", "Selesai.") });
    expect((await service.request("GET", "/api/dosen/mahasiswa/N001", { token: fixture.tokens.dosen1 })).body.tindak_lanjut).toBeNull();
  });
});

describe("case notes never reach a student", () => {
  test("no route a student can call (every GET outside /api/dosen, data-saya among them) shows the case or its notes", async () => {
    const note = "Catatan internal: orang tua sedang sakit, rujuk ke konselor";
    await service.request("POST", `/api/dosen/tindak-lanjut/${fixture.caseId}/status`, { token: fixture.tokens.dosen1, body: moveBody("dihubungi", note) });
    const counselling = await service.request("POST", "/api/dosen/catatan", { token: fixture.tokens.dosen1, body: { NIM: "N001", isi_catatan: "Catatan biasa untuk mahasiswa." } });
    const paths = [...new Set(service.app.routes.filter((route) => route.method === "GET" && route.path.startsWith("/api/") && !route.path.startsWith("/api/dosen/")).map((route) => route.path))];
    expect(paths).toContain("/api/mahasiswa/data-saya");
    const answered: string[] = [];
    for (const path of paths) {
      const concrete = path.replace(":nim", "N001").replace(":id_catatan", String(counselling.body.id));
      const response = await service.request("GET", `${concrete}${concrete.includes("suggestions") ? "?stress=Tinggi&motivation=Rendah" : ""}`, { token: fixture.tokens.mhs1 });
      const text = typeof response.body === "string" ? response.body : JSON.stringify(response.body);
      // Only whether a person was alerted may reach the student (decisions §13), never the case itself.
      const caseShown = text.includes(note) || text.includes("Dibuka otomatis") || text.includes("riwayat\"") || text.includes("dihubungi");
      expect({ path, leaks: caseShown }).toEqual({ path, leaks: false });
      if (response.status === 200) answered.push(path);
    }
    expect((await service.request("GET", "/api/mahasiswa/hasil/N001", { token: fixture.tokens.mhs1 })).body.tindak_lanjut).toEqual({ dibuka_oleh_skrining_ini: true, penerima: "dosen_wali" });
    // The walk reached the student's data, not only refusals.
    expect(answered).toEqual(expect.arrayContaining(["/api/mahasiswa/data-saya", "/api/mahasiswa/catatan", "/api/mahasiswa/hasil/:nim", "/api/mahasiswa/history"]));
    // Every follow-up route refuses a student.
    for (const [method, suffix] of [["GET", ""], ["GET", "/ringkasan"], ["GET", `/${fixture.caseId}`], ["POST", `/${fixture.caseId}/status`], ["PUT", `/${fixture.caseId}/pemilik`]] as const) {
      expect(await service.request(method, `/api/dosen/tindak-lanjut${suffix}`, { token: fixture.tokens.mhs1, body: {} })).toMatchObject({ status: 403, body: { error: caseTexts.denied } });
    }
  });
});
