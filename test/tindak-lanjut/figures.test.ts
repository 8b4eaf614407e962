import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import type { Lecturers } from "../dosen/support";
import { figuresService } from "./figures-cases";

// The follow-up figures of the routes against the hand count of figures-cases.ts (the
// command line's: figures-cli.test.ts).

let lecturers: Lecturers;
beforeAll(async () => {
  lecturers = await figuresService();
});
afterAll(() => {
  lecturers.service.close();
  setSystemTime();
});

const get = (path: string, token: string) => lecturers.service.request("GET", path, { token });

describe("GET /api/dosen/tindak-lanjut/ringkasan matches the hand count", () => {
  test("an admin: every lecturer, the cases without an owner, the faculty", async () => {
    const response = await get("/api/dosen/tindak-lanjut/ringkasan", lecturers.tokens.admin);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      per_dosen: [
        // Contacts 1.0 and 3.5 (case 8 closed with none) → median 2.25, one decimal; case 7 (restricted) is left out; case 1 is late.
        { NIP: "D001", nama_dosen: "Dosen Satu", terbuka: 2, baru: 1, lebih_dari_7_hari: 1, terlambat: 1, median_hari_ke_kontak_pertama: 2.3 },
        // Contacts 1.0 and 10.0 (the first episode of the reopened case 5) → 5.5; the reopening is 2 days old: not late.
        { NIP: "D002", nama_dosen: "Dosen Dua", terbuka: 2, baru: 1, lebih_dari_7_hari: 1, terlambat: 0, median_hari_ke_kontak_pertama: 5.5 },
        // Exactly 7 days is not more than 7; contacts 0 and 3.0 (case 10's scheduled one, not its first attempt); case 11 is late.
        { NIP: "D003", nama_dosen: "Dosen Tiga", terbuka: 3, baru: 0, lebih_dari_7_hari: 0, terlambat: 1, median_hari_ke_kontak_pertama: 1.5 },
        { NIP: null, nama_dosen: null, terbuka: 1, baru: 1, lebih_dari_7_hari: 1, terlambat: 1, median_hari_ke_kontak_pertama: null },
      ],
      // Contacts 0, 1.0, 1.0, 3.0, 3.5, 10.0 → (1.0 + 3.0) / 2.
      fakultas: { terbuka: 8, baru: 3, lebih_dari_7_hari: 3, terlambat: 3, median_hari_ke_kontak_pertama: 2 },
    });
  });

  test("a lecturer: their own row, which is also the faculty figures they see", async () => {
    expect((await get("/api/dosen/tindak-lanjut/ringkasan", lecturers.tokens.dosen2)).body).toEqual({
      per_dosen: [{ NIP: "D002", nama_dosen: "Dosen Dua", terbuka: 2, baru: 1, lebih_dari_7_hari: 1, terlambat: 0, median_hari_ke_kontak_pertama: 5.5 }],
      fakultas: { terbuka: 2, baru: 1, lebih_dari_7_hari: 1, terlambat: 0, median_hari_ke_kontak_pertama: 5.5 },
    });
    expect((await get("/api/dosen/tindak-lanjut/ringkasan", lecturers.tokens.tanpaProfil)).body).toEqual({
      per_dosen: [],
      fakultas: { terbuka: 0, baru: 0, lebih_dari_7_hari: 0, terlambat: 0, median_hari_ke_kontak_pertama: null },
    });
  });

  test("a student → 403", async () => {
    expect(await get("/api/dosen/tindak-lanjut/ringkasan", lecturers.tokens.mhs1)).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
  });
});

describe("GET /api/dosen/tindak-lanjut", () => {
  const ids = (body: { data: { id: number }[] }) => body.data.map((row) => row.id);

  test("a lecturer sees their own cases: the late ones first, then the closings new to them, the other open ones oldest first; then closed, last closed first", async () => {
    const response = await get("/api/dosen/tindak-lanjut", lecturers.tokens.dosen1);
    expect(response.status).toBe(200);
    // Late: 7 (01-01, restricted), 1 (03-10); closed by D003, news for D001 as N023's advisor: 12; open: 2 (03-16); closed: 3 (02-10), 8 (01-05).
    expect(ids(response.body)).toEqual([7, 1, 12, 2, 3, 8]);
    expect(response.body.pagination).toEqual({ total: 6, page: 1, per_page: 20, total_pages: 1 });
    expect(response.body.data.map((row: { hari_terbuka: number }) => row.hari_terbuka)).toEqual([78, 10, 18, 4, 9, 0]);
    expect(response.body.data.map((row: { terlambat: boolean; baru_ditutup: boolean }) => [row.terlambat, row.baru_ditutup])).toEqual([
      [true, false],
      [true, false],
      [false, true],
      [false, false],
      [false, false],
      [false, false],
    ]);
    expect(response.body.data[2]).toMatchObject({ id: 12, NIP: "D003", NIP_doswal: "D001", alasan_selesai: "dirujuk_layanan_konseling", perlu_dukungan: "ya", pertama_dihubungi_pada: null });
    expect(response.body.data[1]).toEqual({
      id: 1,
      NIM: "N001",
      nama_mahasiswa: "Mahasiswa Satu",
      NIP: "D001",
      nama_dosen: "Dosen Satu",
      alasan: ["early_warning"],
      status: "baru",
      dibuka_pada: "2026-03-10T00:00:00.000Z",
      pertama_dihubungi_pada: null,
      ditutup_pada: null,
      diperbarui_pada: "2026-03-10T00:00:00.000Z",
      hari_terbuka: 10,
      dibatasi: false,
      NIP_doswal: "D001",
      nama_doswal: "Dosen Satu",
      dapat_diubah: true,
      batas_kontak_pada: "2026-03-13T00:00:00.000Z",
      terlambat: true,
      percobaan_kontak: 0,
      alasan_selesai: null,
      perlu_dukungan: null,
      baru_ditutup: false,
      balasan_baru: 0,
      permintaan_menunggu: false,
      segera: false,
    });
    expect(response.body.data[0]).toMatchObject({ id: 7, alasan: [], dibatasi: true });
    // The handler who closed case 12 sees no news in it; the attempts of an episode are counted.
    const handler = await get("/api/dosen/tindak-lanjut", lecturers.tokens.tanpaBimbingan);
    expect(handler.body.data.map((row: { id: number; baru_ditutup: boolean; percobaan_kontak: number }) => [row.id, row.baru_ditutup, row.percobaan_kontak])).toEqual([
      [11, false, 1],
      [9, false, 1],
      [10, false, 2],
      [12, false, 0],
    ]);
  });

  test.each([
    // The late ones first (7, 1, 6, 11), oldest first; case 5 was reopened on 03-18: its dibuka_pada is that day. An admin sees no closing as news.
    ["admin", "", [7, 1, 6, 11, 4, 9, 10, 2, 5, 12, 3, 8]],
    ["admin", "?nip=D002", [4, 5]],
    ["admin", "?status=baru", [7, 1, 6, 5]],
    ["admin", "?status=dihubungi,%20dirujuk", [11, 4, 9, 10, 2]],
    ["admin", "?status=baru,dihubungi&min_hari=7", [7, 1, 6, 9]],
    ["admin", "?min_hari=10", [7, 1, 4, 12]],
    ["admin", "?per_page=2&page=2", [6, 11]],
    ["dosen1", "?nip=D002", [7, 1, 12, 2, 3, 8]],
    ["dosen2", "?status=selesai", []],
    ["tanpaProfil", "", []],
    ["tanpaBimbingan", "", [11, 9, 10, 12]],
  ] as const)("%s %s", async (caller, query, expected) => {
    const response = await get(`/api/dosen/tindak-lanjut${query}`, lecturers.tokens[caller]);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([...expected]);
  });

  test.each([
    ["?status=tutup", "Filter status hanya boleh berisi: baru, dihubungi, dirujuk, selesai."],
    ["?status=baru,,x", "Filter status hanya boleh berisi: baru, dihubungi, dirujuk, selesai."],
    ["?min_hari=-1", "min_hari harus bilangan bulat 0 atau lebih."],
    ["?min_hari=1.5", "min_hari harus bilangan bulat 0 atau lebih."],
    ["?min_hari=abc", "min_hari harus bilangan bulat 0 atau lebih."],
  ])("%s → 400", async (query, error) => {
    expect(await get(`/api/dosen/tindak-lanjut${query}`, lecturers.tokens.admin)).toMatchObject({ status: 400, body: { error } });
  });

  test("a student → 403; no token → 401", async () => {
    expect(await get("/api/dosen/tindak-lanjut", lecturers.tokens.mhs1)).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
    expect((await lecturers.service.request("GET", "/api/dosen/tindak-lanjut")).status).toBe(401);
  });
});
