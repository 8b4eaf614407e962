import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { lecturerService, studentsCsv, type Lecturers } from "../dosen/support";
import { runCli, temporaryDir } from "../helpers";

// A fixed dataset of cases with hand-written timelines, and "now" fixed at Friday
// 2026-03-20 00:00 UTC (07:00 in Asia/Jakarta). Every expected figure below is counted by
// hand from this table.
//
// case  student      owner  timeline (UTC)                                                   now
//  1    N001         D001   baru 03-10                                                       open 10 days, baru
//  2    N010         D001   baru 03-16, dihubungi 03-17                                      open, contact after 1.0 day
//  3    N011         D001   baru 02-01, dihubungi 02-04 12:00, selesai 02-10                 closed, contact 3.5 days
//  4    N002         D002   baru 03-01, dihubungi 03-02, dirujuk 03-05                       open 19 days, contact 1.0 day
//  5    N012         D002   baru 01-01, dihubungi 01-11, selesai 01-12, baru 03-18 (reopen)  open 2 days, baru, contact 10.0 days
//  6    N013         none   baru 03-12 12:00                                                 open 7.5 days, baru
//  7    N014 (restricted) D001 baru 01-01                                                    left out of every figure
//  8    N001         D001   baru 01-05, selesai 01-05 06:00                                  closed, contact 0.25 day
//  9    N020         D003   baru 03-13, dihubungi 03-13                                      open exactly 7 days (not more), contact 0 days

const now = Date.parse("2026-03-20T00:00:00.000Z");

type Entry = [from: string | null, to: string, waktu: string];
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
];

let lecturers: Lecturers;
const sqlite = () => lecturers.service.context.db.$client;

beforeAll(async () => {
  setSystemTime(now);
  lecturers = await lecturerService(
    studentsCsv([["N010", "Sepuluh", "D001"], ["N011", "Sebelas", "D001"], ["N012", "Dua Belas", "D002"], ["N013", "Tiga Belas", ""], ["N014", "Empat Belas", "D001"], ["N020", "Dua Puluh", "D003"]]),
  );
  sqlite().run("UPDATE mahasiswa SET dibatasi_sejak = '2026-02-01T00:00:00.000Z' WHERE NIM = 'N014'");
  // Each case's columns are what its timeline says: the status of the last entry, the last opening, the first contact after it, the closing.
  for (const [id, nim, nip, entries] of cases) {
    const last = entries.at(-1)!;
    const openingIndex = entries.findLastIndex(([from, to]) => to === "baru" && from !== "baru");
    const contact = entries.slice(openingIndex + 1).find(([from]) => from === "baru");
    sqlite().run(
      "INSERT INTO tindak_lanjut (Id_tindak_lanjut, NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, status, dibuka_pada, pertama_dihubungi_pada, ditutup_pada, diperbarui_pada) VALUES (?, ?, ?, 1, 0, ?, ?, ?, ?, ?)",
      [id, nim, nip, last[1], entries[openingIndex]![2], contact?.[2] ?? null, last[1] === "selesai" ? last[2] : null, last[2]],
    );
    for (const [from, to, waktu] of entries) {
      sqlite().run("INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, nama, waktu) VALUES (?, ?, ?, 'catatan', 'Dosen', ?)", [id, from, to, waktu]);
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
        // Contacts 1.0, 3.5, 0.25 → median 1.0; case 7 (restricted) is left out.
        { NIP: "D001", nama_dosen: "Dosen Satu", terbuka: 2, baru: 1, lebih_dari_7_hari: 1, median_hari_ke_kontak_pertama: 1 },
        // Contacts 1.0 and 10.0 (the first episode of the reopened case 5) → 5.5.
        { NIP: "D002", nama_dosen: "Dosen Dua", terbuka: 2, baru: 1, lebih_dari_7_hari: 1, median_hari_ke_kontak_pertama: 5.5 },
        // Exactly 7 days is not more than 7.
        { NIP: "D003", nama_dosen: "Dosen Tiga", terbuka: 1, baru: 0, lebih_dari_7_hari: 0, median_hari_ke_kontak_pertama: 0 },
        { NIP: null, nama_dosen: null, terbuka: 1, baru: 1, lebih_dari_7_hari: 1, median_hari_ke_kontak_pertama: null },
      ],
      // Contacts 0, 0.25, 1.0, 1.0, 3.5, 10.0 → (1.0 + 1.0) / 2.
      fakultas: { terbuka: 6, baru: 3, lebih_dari_7_hari: 3, median_hari_ke_kontak_pertama: 1 },
    });
  });

  test("a lecturer: their own row, which is also the faculty figures they see", async () => {
    expect((await get("/api/dosen/tindak-lanjut/ringkasan", lecturers.tokens.dosen2)).body).toEqual({
      per_dosen: [{ NIP: "D002", nama_dosen: "Dosen Dua", terbuka: 2, baru: 1, lebih_dari_7_hari: 1, median_hari_ke_kontak_pertama: 5.5 }],
      fakultas: { terbuka: 2, baru: 1, lebih_dari_7_hari: 1, median_hari_ke_kontak_pertama: 5.5 },
    });
    expect((await get("/api/dosen/tindak-lanjut/ringkasan", lecturers.tokens.tanpaProfil)).body).toEqual({
      per_dosen: [],
      fakultas: { terbuka: 0, baru: 0, lebih_dari_7_hari: 0, median_hari_ke_kontak_pertama: null },
    });
  });

  test("a student → 403", async () => {
    expect(await get("/api/dosen/tindak-lanjut/ringkasan", lecturers.tokens.mhs1)).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
  });
});

describe("GET /api/dosen/tindak-lanjut", () => {
  const ids = (body: { data: { id: number }[] }) => body.data.map((row) => row.id);

  test("a lecturer sees their own cases: open first, oldest first; then closed, last closed first", async () => {
    const response = await get("/api/dosen/tindak-lanjut", lecturers.tokens.dosen1);
    expect(response.status).toBe(200);
    // Open: 7 (01-01, restricted), 1 (03-10), 2 (03-16); closed: 3 (02-10), 8 (01-05).
    expect(ids(response.body)).toEqual([7, 1, 2, 3, 8]);
    expect(response.body.pagination).toEqual({ total: 5, page: 1, per_page: 20, total_pages: 1 });
    expect(response.body.data.map((row: { hari_terbuka: number }) => row.hari_terbuka)).toEqual([78, 10, 4, 9, 0]);
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
    });
    expect(response.body.data[0]).toMatchObject({ id: 7, alasan: [], dibatasi: true });
  });

  test.each([
    // Case 5 was reopened on 03-18: its dibuka_pada is that day.
    ["admin", "", [7, 4, 1, 6, 9, 2, 5, 3, 8]],
    ["admin", "?nip=D002", [4, 5]],
    ["admin", "?status=baru", [7, 1, 6, 5]],
    ["admin", "?status=dihubungi,%20dirujuk", [4, 9, 2]],
    ["admin", "?status=baru,dihubungi&min_hari=7", [7, 1, 6, 9]],
    ["admin", "?min_hari=10", [7, 4, 1]],
    ["admin", "?per_page=2&page=2", [1, 6]],
    ["dosen1", "?nip=D002", [7, 1, 2, 3, 8]],
    ["dosen2", "?status=selesai", []],
    ["tanpaProfil", "", []],
    ["tanpaBimbingan", "", [9]],
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
      ["D001", 2, 1, 1, 1],
      ["D002", 2, 1, 1, 5.5],
      ["D003", 1, 0, 0, 0],
    ]);
    const csv = await cli(["stats", "export", "--csv", "standard"]);
    const lines = csv.stdout.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toEndWith(",terbuka,baru,lebih_dari_7_hari,median_hari_ke_kontak_pertama");
    expect(lines[2]).toStartWith("D002,Dosen Dua,");
    expect(lines[2]).toEndWith(",2,1,1,5.5");
    const excel = await cli(["stats", "export", "--nip", "D002"]);
    expect(excel.stdout.split("\r\n")[1]).toEndWith(";2;1;1;5,5");
  });

  // The week of Wednesday 2026-03-18 in Asia/Jakarta: Monday 03-16 00:00 +07 (03-15 17:00 UTC)
  // up to the next Monday; "now" falls in it, so the cases open longer than 7 days are counted now.
  const currentWeek = {
    minggu: "2026-W12",
    mulai: "2026-03-16",
    sampai: "2026-03-22",
    zona_waktu: "Asia/Jakarta",
    per_dosen: [
      // Case 2 opened and contacted (after 1.0 day); case 1 open 10 days.
      { NIP: "D001", nama_dosen: "Dosen Satu", dibuka: 1, dihubungi: 1, dirujuk: 0, selesai: 0, terbuka_lebih_dari_7_hari: 1, median_hari_ke_kontak_pertama: 1 },
      // Case 5 reopened; case 4 open 19 days.
      { NIP: "D002", nama_dosen: "Dosen Dua", dibuka: 1, dihubungi: 0, dirujuk: 0, selesai: 0, terbuka_lebih_dari_7_hari: 1, median_hari_ke_kontak_pertama: null },
      { NIP: "D003", nama_dosen: "Dosen Tiga", dibuka: 0, dihubungi: 0, dirujuk: 0, selesai: 0, terbuka_lebih_dari_7_hari: 0, median_hari_ke_kontak_pertama: null },
      { NIP: null, nama_dosen: null, dibuka: 0, dihubungi: 0, dirujuk: 0, selesai: 0, terbuka_lebih_dari_7_hari: 1, median_hari_ke_kontak_pertama: null },
    ],
    fakultas: { dibuka: 2, dihubungi: 1, dirujuk: 0, selesai: 0, terbuka_lebih_dari_7_hari: 3, median_hari_ke_kontak_pertama: 1 },
  };

  test("followup report --week (this week, json)", async () => {
    const result = await cli(["followup", "report", "--week", "--format", "json"]);
    expect(result).toMatchObject({ exitCode: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual(currentWeek);
    expect((await cli(["followup", "report", "--week", "--date", "2026-03-22", "--format", "json"])).stdout).toBe(result.stdout);
  });

  test("followup report --week --date: a past week, its open cases counted at its end", async () => {
    // Monday 03-09 00:00 +07 to Monday 03-16 00:00 +07 (03-15 17:00 UTC). Opened: 1 (D001), 6 (none), 9 (D003, contacted the
    // same moment). Open more than 7 days at its end: only case 4 (from 03-01); case 5 was closed then.
    const result = await cli(["followup", "report", "--week", "--date", "2026-03-10", "--format", "json"]);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ minggu: "2026-W11", mulai: "2026-03-09", sampai: "2026-03-15" });
    expect(report.per_dosen.map((row: Record<string, unknown>) => Object.values(row))).toEqual([
      ["D001", "Dosen Satu", 1, 0, 0, 0, 0, null],
      ["D002", "Dosen Dua", 0, 0, 0, 0, 1, null],
      ["D003", "Dosen Tiga", 1, 1, 0, 0, 0, 0],
      [null, null, 1, 0, 0, 0, 0, null],
    ]);
    expect(report.fakultas).toEqual({ dibuka: 3, dihubungi: 1, dirujuk: 0, selesai: 0, terbuka_lebih_dari_7_hari: 1, median_hari_ke_kontak_pertama: 0 });
  });

  test("followup report as text and csv", async () => {
    const text = await cli(["followup", "report", "--week"]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout.split("\n")).toEqual([
      "Laporan tindak lanjut minggu 2026-W12: Senin 2026-03-16 sampai Minggu 2026-03-22 (Asia/Jakarta)",
      "",
      "NIP   Dosen wali        Dibuka  Dihubungi  Dirujuk  Selesai  Terbuka >7 hari  Median hari ke kontak pertama",
      "D001  Dosen Satu        1       1          0        0        1                1,0",
      "D002  Dosen Dua         1       0          0        0        1                -",
      "D003  Dosen Tiga        0       0          0        0        0                -",
      "-     Tanpa dosen wali  0       0          0        0        1                -",
      "      Seluruh fakultas  2       1          0        0        3                1,0",
      "",
    ]);
    const csv = await cli(["followup", "report", "--week", "--format", "csv", "--csv", "standard"]);
    expect(csv.stdout).toBe(
      "\uFEFFminggu,NIP,nama_dosen,dibuka,dihubungi,dirujuk,selesai,terbuka_lebih_dari_7_hari,median_hari_ke_kontak_pertama\r\n" +
        "2026-W12,D001,Dosen Satu,1,1,0,0,1,1\r\n" +
        "2026-W12,D002,Dosen Dua,1,0,0,0,1,\r\n" +
        "2026-W12,D003,Dosen Tiga,0,0,0,0,0,\r\n" +
        "2026-W12,,Tanpa dosen wali,0,0,0,0,1,\r\n" +
        "2026-W12,,Seluruh fakultas,2,1,0,0,3,1\r\n",
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
