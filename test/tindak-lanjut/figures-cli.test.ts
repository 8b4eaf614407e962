import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Lecturers } from "../dosen/support";
import { runCli, temporaryDir } from "../helpers";
import { figuresService } from "./figures-cases";

// The command line's follow-up figures against the hand count of figures-cases.ts (the
// routes': figures.test.ts).

let lecturers: Lecturers;
const sqlite = () => lecturers.service.context.db.$client;
beforeAll(async () => {
  lecturers = await figuresService();
});
afterAll(() => {
  lecturers.service.close();
  setSystemTime();
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
