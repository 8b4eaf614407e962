import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addNote, addScreening, type Lecturers, lecturerService, studentsCsv, texts } from "./support";

let lecturers: Lecturers;
const ids: Record<string, number> = {};

const list = (token: string, query = "") => lecturers.service.request("GET", `/api/dosen/mahasiswa${query}`, { token });
const nims = (body: { data: { NIM: string }[] }) => body.data.map((item) => item.NIM);

beforeAll(async () => {
  lecturers = await lecturerService(
    studentsCsv([
      ["S01", "Ani_Putri", "D001"],
      ["S02", "ANI PUTRI", "D001"],
      ["S03", "Budi 100% Siap", "D001"],
      ["S04", "Citra 1000", "D001"],
      ["S05", "Back\\slash Dewi", "D001"],
      ["S06", "Eka", "D001"],
      ["S07", "Fajar", "D001"],
      ["S90", "Ani Lain", "D002"],
    ]),
  );
  const service = lecturers.service;
  // N001: +30 exactly over the previous screening is a spike.
  addScreening(service, "N001", "2026-10-01T08:00:00.000Z", "Sedang", "Sedang", 80);
  ids.n001Latest = addScreening(service, "N001", "2026-11-01T08:00:00.000Z", "Sedang", "Tinggi", 110, 2.25);
  // S01: Tinggi with Rendah is an early warning without a spike.
  addScreening(service, "S01", "2026-10-01T08:00:00.000Z", "Tinggi", "Rendah", 140);
  addScreening(service, "S01", "2026-10-15T08:00:00.000Z", "Tinggi", "Rendah", 150);
  // S02: a single screening is never a spike, however high.
  addScreening(service, "S02", "2026-11-10T08:00:00.000Z", "Tinggi", "Sedang", 200);
  // S03: +29 is not a spike.
  addScreening(service, "S03", "2026-10-05T08:00:00.000Z", "Sedang", "Sedang", 100);
  addScreening(service, "S03", "2026-11-05T08:00:00.000Z", "Sedang", "Sedang", 129);
  // S04: two screenings share a tanggal; the higher Id is the latest and the lower one its previous (+35).
  ids.s04Oldest = addScreening(service, "S04", "2026-09-01T08:00:00.000Z", "Tinggi", "Tinggi", 150);
  ids.s04TieFirst = addScreening(service, "S04", "2026-11-03T10:00:00.000Z", "Rendah", "Tinggi", 60);
  ids.s04TieSecond = addScreening(service, "S04", "2026-11-03T10:00:00.000Z", "Tinggi", "Sedang", 95);
  // S06: an old spike does not count once a later screening drops.
  addScreening(service, "S06", "2026-09-01T08:00:00.000Z", "Rendah", "Rendah", 40);
  addScreening(service, "S06", "2026-09-15T08:00:00.000Z", "Tinggi", "Rendah", 190);
  addScreening(service, "S06", "2026-10-20T08:00:00.000Z", "Rendah", "Rendah", 100);
  // Another lecturer's student, an early warning that must never show up for D001.
  addScreening(service, "S90", "2026-11-11T08:00:00.000Z", "Tinggi", "Rendah", 180);
  ids.noteOlder = addNote(service, "S04", "D001", "Catatan lama", "2026-10-01T09:00:00.000Z");
  ids.noteNewer = addNote(service, "S04", "D002", "Catatan baru dari dosen lain", "2026-11-04T09:00:00.000Z");
});
afterAll(() => lecturers.service.close());

const allOfD001 = ["N001", "S01", "S02", "S03", "S04", "S05", "S06", "S07"];

describe("GET /api/dosen/mahasiswa: the population", () => {
  test("a lecturer sees only their advisees, ordered by NIM, with the full item shape", async () => {
    const response = await list(lecturers.tokens.dosen1);
    expect(response.status).toBe(200);
    expect(nims(response.body)).toEqual(allOfD001);
    expect(response.body).toMatchObject({ total: 8, page: 1, total_pages: 1 });
    expect(response.body.data[0]).toEqual({
      NIM: "N001",
      nama_mahasiswa: "Mahasiswa Satu",
      kelas: "TI-A",
      id_jurusan: expect.any(Number),
      IPK: null,
      NIP_doswal: "D001",
      Id_User: expect.any(Number),
      foto_profil: null,
      angkatan: "2023",
      gender: null,
      usia: null,
      freq_olahraga: null,
      durasi_tidur: null,
      last_skrining: {
        Id_skrining: ids.n001Latest,
        NIM: "N001",
        tanggal_skrining: "2026-11-01T08:00:00.000Z",
        tingkat_stres: "Sedang",
        tingkat_motivasi: "Tinggi",
        saran: "saran",
        score_stress: 110,
        score_sdi: 2.25,
        probabilitas_stres: null,
        probabilitas_motivasi: null,
        // Written straight into the table (the fixture): nobody judged it, and nothing was computed (decisions §20).
        validitas: null,
        perubahan_andal: null,
        persentil_stres: null,
        persentil_motivasi: null,
        durasi_detik: null,
        jawaban_keselamatan: null,
        is_spike: true,
      },
      early_warning: true,
      stres_sangat_tinggi: false,
      balasan_baru: 0,
      dibatasi: false,
    });
  });

  test("a student without a screening has last_skrining null and no early warning", async () => {
    const item = (await list(lecturers.tokens.dosen1)).body.data.find((entry: { NIM: string }) => entry.NIM === "S05");
    expect(item).toMatchObject({ NIM: "S05", last_skrining: null, early_warning: false });
  });

  test("a lecturer cannot pick another population with NIP", async () => {
    expect(nims((await list(lecturers.tokens.dosen1, "?NIP=D002")).body)).toEqual(allOfD001);
  });

  test.each([
    ["an admin without NIP", "admin", ""],
    ["an admin with an empty NIP", "admin", "?NIP="],
    ["an admin with an unknown NIP", "admin", "?NIP=D999"],
    ["a dosen account without a lecturer profile", "tanpaProfil", ""],
    ["a dosen account without a lecturer profile naming a NIP", "tanpaProfil", "?NIP=D001"],
    ["a lecturer without advisees", "tanpaBimbingan", ""],
  ] as const)("%s gets an empty list", async (_name, who, query) => {
    expect(await list(lecturers.tokens[who], query)).toMatchObject({ status: 200, body: { data: [], total: 0, page: 1, total_pages: 0 } });
  });

  test("an admin names the lecturer with NIP (trimmed)", async () => {
    expect(nims((await list(lecturers.tokens.admin, "?NIP=D001")).body)).toEqual(allOfD001);
    expect(nims((await list(lecturers.tokens.admin, "?NIP=%20D002%20")).body)).toEqual(["N002", "S90"]);
  });
});

describe("GET /api/dosen/mahasiswa: is_spike and early_warning", () => {
  test.each([
    ["N001", true, true, "+30 over the previous screening"],
    ["S01", false, true, "Tinggi stress with Rendah motivation"],
    ["S02", false, false, "a first screening"],
    ["S03", false, false, "+29"],
    ["S04", true, true, "+35 over the screening with the same tanggal and a lower Id"],
    ["S06", false, false, "a spike that is no longer the latest screening"],
  ] as const)("%s: is_spike %p, early_warning %p (%s)", async (nim, spike, warning) => {
    const item = (await list(lecturers.tokens.dosen1)).body.data.find((entry: { NIM: string }) => entry.NIM === nim);
    expect(item.last_skrining.is_spike).toBe(spike);
    expect(item.early_warning).toBe(warning);
  });

  test("ties in tanggal are broken by the highest Id_skrining", async () => {
    const item = (await list(lecturers.tokens.dosen1)).body.data.find((entry: { NIM: string }) => entry.NIM === "S04");
    expect(item.last_skrining).toMatchObject({ Id_skrining: ids.s04TieSecond, tingkat_stres: "Tinggi", score_stress: 95 });
  });
});

describe("GET /api/dosen/mahasiswa: sort=risk", () => {
  test("early warnings and very high stress first (S02: 200, Tinggi with Sedang), then the newest screenings, then students without one", async () => {
    const response = await list(lecturers.tokens.dosen1, "?sort=risk");
    expect(nims(response.body)).toEqual(["S02", "S04", "N001", "S01", "S03", "S06", "S05", "S07"]);
    expect(response.body.total).toBe(8);
  });

  test("the order holds across pages", async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => list(lecturers.tokens.dosen1, `?sort=risk&per_page=3&page=${page}`)));
    expect(pages.flatMap((page) => nims(page.body))).toEqual(["S02", "S04", "N001", "S01", "S03", "S06", "S05", "S07"]);
  });

  test("combines with a search", async () => {
    expect(nims((await list(lecturers.tokens.dosen1, "?sort=risk&q=ani")).body)).toEqual(["S02", "S01"]);
  });

  test("an unknown sort falls back to the NIM order", async () => {
    expect(nims((await list(lecturers.tokens.dosen1, "?sort=nama")).body)).toEqual(allOfD001);
  });
});

describe("GET /api/dosen/mahasiswa: q", () => {
  test.each([
    ["ani", ["S01", "S02"], "case-insensitive, never another lecturer's student"],
    ["ANI", ["S01", "S02"], "upper case"],
    ["ani_", ["S01"], "_ is a literal underscore, not any character"],
    ["_", ["S01"], "a lone underscore"],
    ["100%", ["S03"], "% is a literal percent sign"],
    ["%", ["S03"], "a lone percent sign"],
    ["\\", ["S05"], "a backslash"],
    ["k\\s", ["S05"], "a backslash inside the text"],
    ["s0", ["S01", "S02", "S03", "S04", "S05", "S06", "S07"], "the NIM, case-insensitive"],
    ["N00", ["N001"], "the NIM"],
    ["  eka  ", ["S06"], "trimmed"],
    ["", allOfD001, "empty: everyone"],
    ["tidak ada", [], "no match"],
  ] as const)("q=%p matches %p (%s)", async (q, expected) => {
    const response = await list(lecturers.tokens.dosen1, `?q=${encodeURIComponent(q)}`);
    expect(response.status).toBe(200);
    expect(nims(response.body)).toEqual([...expected]);
    expect(response.body.total).toBe(expected.length);
    expect(response.body.total_pages).toBe(expected.length === 0 ? 0 : 1);
  });
});

describe("GET /api/dosen/mahasiswa: pagination", () => {
  test.each([
    ["?per_page=3", 1, ["N001", "S01", "S02"]],
    ["?per_page=3&page=2", 2, ["S03", "S04", "S05"]],
    ["?per_page=3&page=3", 3, ["S06", "S07"]],
    ["?per_page=3&page=4", 4, []],
    ["?per_page=3&page=999999", 999999, []],
    ["?per_page=3&page=0", 1, ["N001", "S01", "S02"]],
    ["?per_page=3&page=-2", 1, ["N001", "S01", "S02"]],
    ["?per_page=3&page=abc", 1, ["N001", "S01", "S02"]],
  ] as const)("%s answers page %i", async (query, page, expected) => {
    const response = await list(lecturers.tokens.dosen1, query);
    expect(response.body).toMatchObject({ page, total: 8, total_pages: 3 });
    expect(nims(response.body)).toEqual([...expected]);
  });

  test.each(["?per_page=0", "?per_page=-1", "?per_page=x", "?per_page=2.5"])("%s falls back to 20 per page", async (query) => {
    expect((await list(lecturers.tokens.dosen1, query)).body).toMatchObject({ total: 8, total_pages: 1 });
  });

  test("the default page size is 20 and per_page is capped at 100", async () => {
    // 110 more advisees of D002, written directly (no login needed).
    const sqlite = lecturers.service.context.db.$client;
    sqlite.transaction(() => {
      for (let index = 0; index < 110; index++) {
        const nim = `P${String(index).padStart(3, "0")}`;
        const user = sqlite.run("INSERT INTO users (username, password_hash, role) VALUES (?, 'x', 'mahasiswa')", [`u${nim}`]);
        sqlite.run("INSERT INTO mahasiswa (NIM, nama_mahasiswa, Id_User, NIP_doswal) VALUES (?, ?, ?, 'D002')", [nim, `Peserta ${index}`, user.lastInsertRowid]);
      }
    })();
    const byDefault = await list(lecturers.tokens.admin, "?NIP=D002");
    expect(byDefault.body).toMatchObject({ total: 112, page: 1, total_pages: 6 });
    expect(byDefault.body.data).toHaveLength(20);
    const capped = await list(lecturers.tokens.admin, "?NIP=D002&per_page=500");
    expect(capped.body).toMatchObject({ total: 112, total_pages: 2 });
    expect(capped.body.data).toHaveLength(100);
    const last = await list(lecturers.tokens.admin, "?NIP=D002&per_page=500&page=2");
    // N002, P000–P109, S90 by NIM: the second page of 100 starts at P099.
    expect(nims(last.body)).toEqual(["P099", "P100", "P101", "P102", "P103", "P104", "P105", "P106", "P107", "P108", "P109", "S90"]);
  });
});

describe("GET /api/dosen/mahasiswa/<nim>", () => {
  test("a lecturer's advisee in full: riwayat and catatan newest first, all notes of the student", async () => {
    const response = await lecturers.service.request("GET", "/api/dosen/mahasiswa/S04", { token: lecturers.tokens.dosen1 });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["catatan", "dibatasi", "mahasiswa", "riwayat", "tindak_lanjut"]);
    // No screening of this data raised a warning through the questionnaire: no case (test/tindak-lanjut covers one).
    expect(response.body.tindak_lanjut).toBeNull();
    expect(response.body.dibatasi).toBe(false);
    expect(response.body.mahasiswa).toMatchObject({ NIM: "S04", nama_mahasiswa: "Citra 1000", NIP_doswal: "D001" });
    expect(response.body.riwayat.map((record: { Id_skrining: number }) => record.Id_skrining)).toEqual([ids.s04TieSecond, ids.s04TieFirst, ids.s04Oldest]);
    expect(Object.keys(response.body.riwayat[0]).sort()).toEqual(
      [
        ...["Id_skrining", "NIM", "saran", "score_sdi", "score_stress", "tanggal_skrining", "tingkat_motivasi", "tingkat_stres", "probabilitas_stres", "probabilitas_motivasi"],
        ...["validitas", "perubahan_andal", "persentil_stres", "persentil_motivasi", "durasi_detik", "jawaban_keselamatan"],
      ].sort(),
    );
    expect(response.body.catatan.map((note: { Id_catatan: number }) => note.Id_catatan)).toEqual([ids.noteNewer, ids.noteOlder]);
    expect(response.body.catatan[0]).toMatchObject({ NIP: "D002", reply: "", tanggal_reply: null, status: "belum_dibalas" });
  });

  test("a student without screenings or notes", async () => {
    const response = await lecturers.service.request("GET", "/api/dosen/mahasiswa/S07", { token: lecturers.tokens.dosen1 });
    expect(response).toMatchObject({ status: 200, body: { riwayat: [], catatan: [] } });
  });

  test.each([
    ["an unknown student (lecturer)", "dosen1", "X404", 404, texts.studentUnknown],
    ["an unknown student (admin)", "admin", "X404", 404, texts.studentUnknown],
    ["an unknown student (no lecturer profile): 404 before 403", "tanpaProfil", "X404", 404, texts.studentUnknown],
    ["another lecturer's student", "dosen1", "N002", 403, texts.notAdvisee],
    ["a student without an advisor", "dosen1", "N003", 403, texts.notAdvisee],
    ["a dosen account without a lecturer profile", "tanpaProfil", "N001", 403, texts.notAdvisee],
    ["a dosen account without a lecturer profile, for a student without an advisor", "tanpaProfil", "N003", 403, texts.notAdvisee],
    ["a lecturer without advisees", "tanpaBimbingan", "N001", 403, texts.notAdvisee],
  ] as const)("%s", async (_name, who, nim, status, error) => {
    expect(await lecturers.service.request("GET", `/api/dosen/mahasiswa/${nim}`, { token: lecturers.tokens[who] })).toMatchObject({ status, body: { error } });
  });

  test("an admin sees any student", async () => {
    for (const nim of ["N002", "N003", "S04"]) {
      const response = await lecturers.service.request("GET", `/api/dosen/mahasiswa/${nim}`, { token: lecturers.tokens.admin });
      expect(response.status).toBe(200);
      expect(response.body.mahasiswa.NIM).toBe(nim);
    }
  });
});
