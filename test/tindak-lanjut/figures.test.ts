import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { lecturerService, studentsCsv, type Lecturers } from "../dosen/support";
import { runCli, temporaryDir } from "../helpers";

// A fixed dataset of cases with hand-written timelines, and "now" fixed at Friday
// 2026-03-20 00:00 UTC (07:00 in Asia/Jakarta), with the contact target at its default (3
// days: a case opened on or before 03-17 00:00 and not reached is late). Every expected
// figure below is counted by hand from this table. Moves into dihubungi without an outcome
// were recorded before outcomes were asked for: they reached the student (decisions §19).
//
// case  student      owner  timeline (UTC)                                                   now
//  1    N001         D001   baru 03-10                                                       open 10 days, baru, late
//  2    N010         D001   baru 03-16, dihubungi 03-17                                      open, contact after 1.0 day
//  3    N011         D001   baru 02-01, dihubungi 02-04 12:00, selesai 02-10                 closed, contact 3.5 days
//  4    N002         D002   baru 03-01, dihubungi 03-02, dirujuk 03-05                       open 19 days, contact 1.0 day
//  5    N012         D002   baru 01-01, dihubungi 01-11, selesai 01-12, baru 03-18 (reopen)  open 2 days, baru, contact 10.0 days
//  6    N013         none   baru 03-12 12:00                                                 open 7.5 days, baru, late
//  7    N014 (restricted) D001 baru 01-01                                                    left out of every figure
//  8    N001         D001   baru 01-05, selesai 01-05 06:00                                  closed, no contact (a closing is none)
//  9    N020         D003   baru 03-13, dihubungi 03-13                                      open exactly 7 days (not more), contact 0 days
// 10    N021         D003   baru 03-15, dihubungi 03-16 tidak_merespons, 03-18 dijadwalkan   open, contact 3.0 days (the second attempt)
// 11    N022         D003   baru 03-16 12:00, dihubungi 03-17 tidak_merespons                open 3.5 days, not reached: late
// 12    N023 (D001's) D003  baru 03-01, dirujuk 03-02, selesai 03-19 dirujuk_layanan_konseling  closed, no contact (a referral is none);
//                                                                                            news for its advisor D001

const now = Date.parse("2026-03-20T00:00:00.000Z");

type Entry = [from: string | null, to: string, waktu: string, recorded?: { hasil_kontak?: string; alasan_selesai?: string; perlu_dukungan?: number }];
const cases: [id: number, nim: string, nip: string | null, entries: Entry[]][] = [
  [1, "N001", "D001", [[null, "baru", "2026-03-10T00:00:00.000Z"]]],
  [2, "N010", "D001", [[null, "baru", "2026-03-16T00:00:00.000Z"], ["baru", "dihubungi", "2026-03-17T00:00:00.000Z"]]],
  [3, "N011", "D001", [[null, "baru", "2026-02-01T00:00:00.000Z"], ["baru", "dihubungi", "2026-02-04T12:00:00.000Z"], ["dihubungi", "selesai", "2026-02-10T00:00:00.000Z"]]],
  [4, "N002", "D002", [[null, "baru", "2026-03-01T00:00:00.000Z"], ["baru", "dihubungi", "2026-03-02T00:00:00.000Z"], ["dihubungi", "dirujuk", "2026-03-05T00:00:00.000Z"]]],
  [5, "N012", "D002", [[null, "baru", "2026-01-01T00:00:00.000Z"], ["baru", "dihubungi", "2026-01-11T00:00:00.000Z"], ["dihubungi", "selesai", "2026-01-12T00:00:00.000Z"], ["selesai", "baru", "2026-03-18T00:00:00.000Z"]]],
  [6, "N013", null, [[null, "baru", "2026-03-12T12:00:00.000Z"]]],
  [7, "N014", "D001", [[null, "baru", "2026-01-01T00:00:00.000Z"]]],
  [8, "N001", "D001", [[null, "baru", "2026-01-05T00:00:00.000Z"], ["baru", "selesai", "2026-01-05T06:00:00.000Z"]]],
  [9, "N020", "D003", [[null, "baru", "2026-03-13T00:00:00.000Z"], ["baru", "dihubungi", "2026-03-13T00:00:00.000Z"]]],
  [
    10,
    "N021",
    "D003",
    [
      [null, "baru", "2026-03-15T00:00:00.000Z"],
      ["baru", "dihubungi", "2026-03-16T00:00:00.000Z", { hasil_kontak: "tidak_merespons" }],
      ["dihubungi", "dihubungi", "2026-03-18T00:00:00.000Z", { hasil_kontak: "dijadwalkan" }],
    ],
  ],
  [11, "N022", "D003", [[null, "baru", "2026-03-16T12:00:00.000Z"], ["baru", "dihubungi", "2026-03-17T00:00:00.000Z", { hasil_kontak: "tidak_merespons" }]]],
  [
    12,
    "N023",
    "D003",
    [
      [null, "baru", "2026-03-01T00:00:00.000Z"],
      ["baru", "dirujuk", "2026-03-02T00:00:00.000Z"],
      ["dirujuk", "selesai", "2026-03-19T00:00:00.000Z", { alasan_selesai: "dirujuk_layanan_konseling", perlu_dukungan: 1 }],
    ],
  ],
];

/** Whether an entry reached the student (decisions §19), as figures.ts reads the timeline. */
const reaches = ([from, to, , recorded]: Entry) => to === "dihubungi" && (recorded?.hasil_kontak === undefined ? from !== "dihubungi" : ["berhasil", "dijadwalkan"].includes(recorded.hasil_kontak));

let lecturers: Lecturers;
const sqlite = () => lecturers.service.context.db.$client;

beforeAll(async () => {
  setSystemTime(now);
  lecturers = await lecturerService(
    studentsCsv([
      ["N010", "Sepuluh", "D001"],
      ["N011", "Sebelas", "D001"],
      ["N012", "Dua Belas", "D002"],
      ["N013", "Tiga Belas", ""],
      ["N014", "Empat Belas", "D001"],
      ["N020", "Dua Puluh", "D003"],
      ["N021", "Dua Puluh Satu", "D003"],
      ["N022", "Dua Puluh Dua", "D003"],
      ["N023", "Dua Puluh Tiga", "D001"],
    ]),
  );
  sqlite().run("UPDATE mahasiswa SET dibatasi_sejak = '2026-02-01T00:00:00.000Z' WHERE NIM = 'N014'");
  // Each case's columns are what its timeline says: the status of the last entry, the last opening, the first contact after it, the closing.
  for (const [id, nim, nip, entries] of cases) {
    const last = entries.at(-1)!;
    const openingIndex = entries.findLastIndex(([from, to]) => to === "baru" && from !== "baru");
    const contact = entries.slice(openingIndex + 1).find(reaches);
    const closed = last[1] === "selesai";
    sqlite().run(
      `INSERT INTO tindak_lanjut (Id_tindak_lanjut, NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, status, dibuka_pada, pertama_dihubungi_pada, ditutup_pada, diperbarui_pada, alasan_selesai, perlu_dukungan)
       VALUES (?, ?, ?, 1, 0, ?, ?, ?, ?, ?, ?, ?)`,
      [id, nim, nip, last[1], entries[openingIndex]![2], contact?.[2] ?? null, closed ? last[2] : null, last[2], closed ? (last[3]?.alasan_selesai ?? null) : null, closed ? (last[3]?.perlu_dukungan ?? null) : null],
    );
    for (const [from, to, waktu, recorded] of entries) {
      sqlite().run(
        "INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, nama, waktu, hasil_kontak, alasan_selesai, perlu_dukungan) VALUES (?, ?, ?, 'catatan', 'Dosen', ?, ?, ?, ?)",
        [id, from, to, waktu, recorded?.hasil_kontak ?? null, recorded?.alasan_selesai ?? null, recorded?.perlu_dukungan ?? null],
      );
    }
  }
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

describe("the command line's figures match the same count", () => {
  const cli = (args: string[]) => runCli(["--data", lecturers.service.dataDir, ...args]);

  test("stats export: the follow-up figures per lecturer (json and csv)", async () => {
    const json = await cli(["stats", "export", "--format", "json"]);
    expect(json.exitCode).toBe(0);
    expect(
      JSON.parse(json.stdout).map((row: Record<string, unknown>) => [row.NIP, row.terbuka, row.baru, row.lebih_dari_7_hari, row.median_hari_ke_kontak_pertama]),
    ).toEqual([
      ["D001", 2, 1, 1, 2.3],
      ["D002", 2, 1, 1, 5.5],
      ["D003", 3, 0, 0, 1.5],
    ]);
    expect(JSON.parse(json.stdout).map((row: Record<string, unknown>) => row.terlambat)).toEqual([1, 0, 1]);
    const csv = await cli(["stats", "export", "--csv", "standard"]);
    const lines = csv.stdout.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toEndWith(",terbuka,baru,lebih_dari_7_hari,terlambat,median_hari_ke_kontak_pertama");
    expect(lines[2]).toStartWith("D002,Dosen Dua,");
    expect(lines[2]).toEndWith(",2,1,1,0,5.5");
    const excel = await cli(["stats", "export", "--nip", "D002"]);
    expect(excel.stdout.split("\r\n")[1]).toEndWith(";2;1;1;0;5,5");
  });

  /** A week's figures: zero but what is given. */
  const week = (figures: Record<string, number | null>) => ({
    dibuka: 0,
    dihubungi: 0,
    dirujuk: 0,
    selesai: 0,
    kontak_berhasil: 0,
    kontak_tidak_merespons: 0,
    kontak_dijadwalkan: 0,
    selesai_teratasi: 0,
    selesai_dirujuk_layanan_konseling: 0,
    selesai_tidak_merespons: 0,
    selesai_mahasiswa_menolak: 0,
    selesai_lainnya: 0,
    selesai_tidak_dicatat: 0,
    terbuka_lebih_dari_7_hari: 0,
    terlambat: 0,
    median_hari_ke_kontak_pertama: null,
    ...figures,
  });

  // The week of Wednesday 2026-03-18 in Asia/Jakarta: Monday 03-16 00:00 +07 (03-15 17:00 UTC)
  // up to the next Monday; "now" falls in it, so the cases open longer than 7 days and the late ones are counted now.
  const currentWeek = {
    minggu: "2026-W12",
    mulai: "2026-03-16",
    sampai: "2026-03-22",
    zona_waktu: "Asia/Jakarta",
    per_dosen: [
      // Case 2 opened and contacted (after 1.0 day); case 1 open 10 days, late.
      { NIP: "D001", nama_dosen: "Dosen Satu", ...week({ dibuka: 1, dihubungi: 1, terbuka_lebih_dari_7_hari: 1, terlambat: 1, median_hari_ke_kontak_pertama: 1 }) },
      // Case 5 reopened; case 4 open 19 days.
      { NIP: "D002", nama_dosen: "Dosen Dua", ...week({ dibuka: 1, terbuka_lebih_dari_7_hari: 1 }) },
      // Case 11 opened; 10 and 11 moved to dihubungi without a response, 10 then scheduled (its first contact, 3.0 days);
      // 12 closed as referred; 11 late.
      {
        NIP: "D003",
        nama_dosen: "Dosen Tiga",
        ...week({
          dibuka: 1,
          dihubungi: 2,
          selesai: 1,
          kontak_tidak_merespons: 2,
          kontak_dijadwalkan: 1,
          selesai_dirujuk_layanan_konseling: 1,
          terlambat: 1,
          median_hari_ke_kontak_pertama: 3,
        }),
      },
      { NIP: null, nama_dosen: null, ...week({ terbuka_lebih_dari_7_hari: 1, terlambat: 1 }) },
    ],
    fakultas: week({
      dibuka: 3,
      dihubungi: 3,
      selesai: 1,
      kontak_tidak_merespons: 2,
      kontak_dijadwalkan: 1,
      selesai_dirujuk_layanan_konseling: 1,
      terbuka_lebih_dari_7_hari: 3,
      terlambat: 3,
      median_hari_ke_kontak_pertama: 2,
    }),
  };

  test("followup report --week (this week, json)", async () => {
    const result = await cli(["followup", "report", "--week", "--format", "json"]);
    expect(result).toMatchObject({ exitCode: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual(currentWeek);
    expect((await cli(["followup", "report", "--week", "--date", "2026-03-22", "--format", "json"])).stdout).toBe(result.stdout);
  });

  test("followup report --week --date: a past week, its open and late cases counted at its end", async () => {
    // Monday 03-09 00:00 +07 to Monday 03-16 00:00 +07 (03-15 17:00 UTC). Opened: 1 (D001), 6 (none), 9 (D003, contacted the
    // same moment), 10 (D003). Open more than 7 days at its end: case 4 (from 03-01) and case 12 (referred, from 03-01);
    // case 5 was closed then. Late then (opened by 03-12 17:00, not reached): 1, 6 and 12.
    const result = await cli(["followup", "report", "--week", "--date", "2026-03-10", "--format", "json"]);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ minggu: "2026-W11", mulai: "2026-03-09", sampai: "2026-03-15" });
    expect(report.per_dosen).toEqual([
      { NIP: "D001", nama_dosen: "Dosen Satu", ...week({ dibuka: 1, terlambat: 1 }) },
      { NIP: "D002", nama_dosen: "Dosen Dua", ...week({ terbuka_lebih_dari_7_hari: 1 }) },
      { NIP: "D003", nama_dosen: "Dosen Tiga", ...week({ dibuka: 2, dihubungi: 1, terbuka_lebih_dari_7_hari: 1, terlambat: 1, median_hari_ke_kontak_pertama: 0 }) },
      { NIP: null, nama_dosen: null, ...week({ dibuka: 1, terlambat: 1 }) },
    ]);
    expect(report.fakultas).toEqual(week({ dibuka: 4, dihubungi: 1, terbuka_lebih_dari_7_hari: 2, terlambat: 3, median_hari_ke_kontak_pertama: 0 }));
  });

  test("followup report as text and csv", async () => {
    const text = await cli(["followup", "report", "--week"]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout.split("\n")).toEqual([
      "Laporan tindak lanjut minggu 2026-W12: Senin 2026-03-16 sampai Minggu 2026-03-22 (Asia/Jakarta)",
      "",
      "NIP   Dosen wali        Dibuka  Dihubungi  Dirujuk  Selesai  Terbuka >7 hari  Terlambat  Median hari ke kontak pertama",
      "D001  Dosen Satu        1       1          0        0        1                1          1,0",
      "D002  Dosen Dua         1       0          0        0        1                0          -",
      "D003  Dosen Tiga        1       2          0        1        0                1          3,0",
      "-     Tanpa dosen wali  0       0          0        0        1                1          -",
      "      Seluruh fakultas  3       3          0        1        3                3          2,0",
      "",
      "Hasil kontak (percobaan dalam minggu ini):",
      "",
      "NIP   Dosen wali        Berhasil  Tidak merespons  Dijadwalkan",
      "D001  Dosen Satu        0         0                0",
      "D002  Dosen Dua         0         0                0",
      "D003  Dosen Tiga        0         2                1",
      "-     Tanpa dosen wali  0         0                0",
      "      Seluruh fakultas  0         2                1",
      "",
      "Alasan selesai (tindak lanjut yang ditutup minggu ini):",
      "",
      "NIP   Dosen wali        Teratasi  Dirujuk ke layanan konseling  Tidak merespons  Mahasiswa menolak  Lainnya  Tidak dicatat",
      "D001  Dosen Satu        0         0                             0                0                  0        0",
      "D002  Dosen Dua         0         0                             0                0                  0        0",
      "D003  Dosen Tiga        0         1                             0                0                  0        0",
      "-     Tanpa dosen wali  0         0                             0                0                  0        0",
      "      Seluruh fakultas  0         1                             0                0                  0        0",
      "",
    ]);
    const csv = await cli(["followup", "report", "--week", "--format", "csv", "--csv", "standard"]);
    const columns =
      "dibuka,dihubungi,dirujuk,selesai,kontak_berhasil,kontak_tidak_merespons,kontak_dijadwalkan,selesai_teratasi,selesai_dirujuk_layanan_konseling," +
      "selesai_tidak_merespons,selesai_mahasiswa_menolak,selesai_lainnya,selesai_tidak_dicatat,terbuka_lebih_dari_7_hari,terlambat,median_hari_ke_kontak_pertama";
    expect(csv.stdout).toBe(
      `\uFEFFminggu,NIP,nama_dosen,${columns}\r\n` +
        "2026-W12,D001,Dosen Satu,1,1,0,0,0,0,0,0,0,0,0,0,0,1,1,1\r\n" +
        "2026-W12,D002,Dosen Dua,1,0,0,0,0,0,0,0,0,0,0,0,0,1,0,\r\n" +
        "2026-W12,D003,Dosen Tiga,1,2,0,1,0,2,1,0,1,0,0,0,0,0,1,3\r\n" +
        "2026-W12,,Tanpa dosen wali,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,\r\n" +
        "2026-W12,,Seluruh fakultas,3,3,0,1,0,2,1,0,1,0,0,0,0,3,3,2\r\n",
    );
  });

  test("--out writes a 0600 file, keeps an existing one without --force; an audit row per report", async () => {
    const out = join(temporaryDir(), "laporan.json");
    const before = sqlite().query<{ n: number }, []>("SELECT count(*) AS n FROM audit_log WHERE target = 'skrining followup report'").get()!.n;
    expect(await cli(["followup", "report", "--week", "--format", "json", "--out", out])).toMatchObject({ exitCode: 0, stdout: "" });
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(currentWeek);
    const again = await cli(["followup", "report", "--week", "--out", out]);
    expect(again).toMatchObject({ exitCode: 1, stderr: `skrining: ${out} sudah ada; pilih nama lain, atau tambahkan --force untuk menimpanya.\n` });
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(currentWeek);
    expect((await cli(["followup", "report", "--week", "--out", out, "--force"])).exitCode).toBe(0);
    expect(readFileSync(out, "utf8")).toStartWith("Laporan tindak lanjut minggu 2026-W12");
    const rows = sqlite().query<{ action: string; nim: string | null; detail: string }, []>("SELECT action, nim, detail FROM audit_log WHERE target = 'skrining followup report' ORDER BY id").all();
    expect(rows.slice(before)).toEqual([
      { action: "export", nim: null, detail: `minggu 2026-W12; json ke ${out}` },
      { action: "export", nim: null, detail: `minggu 2026-W12; text ke ${out}` },
    ]);
  });

  test.each([
    [["followup", "report"], "skrining: --week wajib diisi: laporan ini dibuat per minggu.\n"],
    [["followup", "report", "--week", "--date", "2026-02-30"], "tanggal harus YYYY-MM-DD"],
    [["followup", "report", "--week", "--format", "xml"], "xml"],
  ])("%p is refused (exit 1)", async (args, message) => {
    const result = await cli(args);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
  });
});
