import type { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAccountsCsv } from "../../src/accounts/import";
import { AccountsService } from "../../src/accounts/service";
import { openDatabase } from "../../src/db";
import { WriteQueue } from "../../src/db/write-queue";
import { standardAccounts, temporaryDir } from "../helpers";
import { cli, outputLines } from "./support";

const bom = "\uFEFF";
// Names that need quoting, each for one reason: a comma, a quote, a line feed, a carriage return.
const commaName = "Dua, Dosen";
const lecturerName = 'Dosen "Tiga"';
const studentName = "Ani\nPutri";
const lineBreakName = "Budi\rSantoso";

/**
 * A fresh data folder with these accounts, written as the import writes them, then changed
 * directly by `adjust`; closed again, for the CLI to open.
 */
async function seededDataDir(csv: string, adjust: (sqlite: Database) => void): Promise<string> {
  const folder = temporaryDir();
  const db = openDatabase(join(folder, "skrining.db"));
  try {
    const { accounts, errors } = parseAccountsCsv(csv);
    expect(errors).toEqual([]);
    await new AccountsService(db, new WriteQueue(db.$client, { busyWaitMilliseconds: 1000 }), 4).upsert(accounts);
    adjust(db.$client);
  } finally {
    db.$client.close();
  }
  return folder;
}

let dataDir: string;

beforeAll(async () => {
  const extraAccounts = "dosen,dosen3,dosen-pass-3,,D003,Dosen Tiga,,,,,true\nmahasiswa,mhs11,mhs-pass-11,S01,,Ani,,,,D001,true\nmahasiswa,mhs12,mhs-pass-12,S02,,Budi,,,,D001,true\n";
  dataDir = await seededDataDir(standardAccounts + extraAccounts, (sqlite) => {
    sqlite.run("UPDATE dosen SET nama_dosen = ? WHERE NIP = 'D002'", [commaName]);
    sqlite.run("UPDATE dosen SET nama_dosen = ? WHERE NIP = 'D003'", [lecturerName]);
    sqlite.run("UPDATE mahasiswa SET nama_mahasiswa = ? WHERE NIM = 'S01'", [studentName]);
    sqlite.run("UPDATE mahasiswa SET nama_mahasiswa = ? WHERE NIM = 'S02'", [lineBreakName]);
    const screening = sqlite.prepare(
      "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES (?, ?, '{}', ?, ?, 'saran', ?, ?)",
    );
    screening.run("N001", "2026-10-01T08:00:00.000Z", "Rendah", "Tinggi", 60, 4.5);
    screening.run("N001", "2026-11-01T08:00:00.000Z", "Tinggi", "Rendah", 150, -2.25);
    screening.run("S01", "2026-10-05T08:00:00.000Z", "Sedang", "Sedang", 100, 1.5);
    screening.run("N002", "2026-10-07T08:00:00.000Z", "Rendah", "Tinggi", 50, 5);
  });
});

// The follow-up figures (terbuka ... median) are counted in test/tindak-lanjut/figures.test.ts; this data has no case.
const header =
  "NIP,nama_dosen,total_mahasiswa,sudah_skrining,belum_skrining,stress_rendah,stress_sedang,stress_tinggi,motivasi_rendah,motivasi_sedang,motivasi_tinggi,terbuka,baru,lebih_dari_7_hari,terlambat,median_hari_ke_kontak_pertama";
const noCases = ["0", "0", "0", "0", ""];
const d001 = ["D001", "Dosen Satu", "3", "2", "1", "0", "1", "1", "1", "1", "0", ...noCases];
const d002 = ["D002", commaName, "1", "1", "0", "1", "0", "0", "0", "0", "1", ...noCases];
const d003 = ["D003", lecturerName, "0", "0", "0", "0", "0", "0", "0", "0", "0", ...noCases];

/**
 * Runs the export. stdout is the text the command printed, as it is: a leading byte order
 * mark stays (decoding a child's stdout as text would drop it).
 */
const statsExport = (args: string[]) => cli(dataDir, ["stats", "export", "--csv", "standard", ...args]);

/** Parses the export back as a spreadsheet would, after checking the byte order mark. */
function readCsv(text: string): string[][] {
  expect(text.startsWith(bom)).toBe(true);
  expect(text.slice(1).startsWith(bom)).toBe(false);
  // Any line break outside quotes ends a record, as in a spreadsheet (csv-parse would otherwise
  // settle on CRLF and let a bare LF pass inside an unquoted field).
  return parse(text.slice(1), { record_delimiter: ["\r\n", "\n", "\r"] });
}

describe("stats export", () => {
  test("CSV to stdout: a BOM, the header, one row per lecturer by NIP (lecturers without advisees too)", async () => {
    const result = await statsExport([]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const rows = readCsv(result.stdout);
    expect(rows).toEqual([header.split(","), d001, d002, d003]);
    // Quoted fields, quotes doubled.
    expect(result.stdout).toContain('"Dosen ""Tiga"""');
    expect(result.stdout).toContain('"Dua, Dosen"');
    expect(result.stdout.endsWith("\r\n")).toBe(true);
  });

  test("JSON: an array of the statistics objects, every level key present", async () => {
    const result = await cli(dataDir, ["stats", "export", "--format", "json"]);
    expect(result.exitCode).toBe(0);
    const rows = JSON.parse(result.stdout);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual({
      NIP: "D001",
      nama_dosen: "Dosen Satu",
      total_mahasiswa: 3,
      sudah_skrining: 2,
      belum_skrining: 1,
      stress_dist: { Rendah: 0, Sedang: 1, Tinggi: 1 },
      motivasi_dist: { Rendah: 1, Sedang: 1, Tinggi: 0 },
      terbuka: 0,
      baru: 0,
      lebih_dari_7_hari: 0,
      terlambat: 0,
      median_hari_ke_kontak_pertama: null,
    });
    expect(rows[2]).toMatchObject({ NIP: "D003", nama_dosen: lecturerName, total_mahasiswa: 0, belum_skrining: 0, stress_dist: { Rendah: 0, Sedang: 0, Tinggi: 0 } });
  });

  test("--nip and --out: one lecturer written to the file, nothing on stdout", async () => {
    const out = join(temporaryDir("skrining-export-"), "statistik.csv");
    const result = await statsExport(["--nip", "D002", "--out", out]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("");
    expect(readCsv(readFileSync(out, "utf8"))).toEqual([header.split(","), d002]);
  });

  test("--students: each advisee's latest screening with early_warning, students without one left blank", async () => {
    const result = await statsExport(["--nip", "D001", "--students"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(readCsv(result.stdout)).toEqual([
      ["NIM", "nama_mahasiswa", "tanggal_skrining", "tingkat_stres", "tingkat_motivasi", "score_stress", "score_sdi", "early_warning"],
      ["N001", "Mahasiswa Satu", "2026-11-01T15:00:00+07:00", "Tinggi", "Rendah", "150", "-2.25", "true"],
      ["S01", studentName, "2026-10-05T15:00:00+07:00", "Sedang", "Sedang", "100", "1.5", "false"],
      ["S02", lineBreakName, "", "", "", "", "", "false"],
    ]);
  });

  test("--students as JSON", async () => {
    const result = await cli(dataDir, ["stats", "export", "--nip", "D001", "--students", "--format", "json"]);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        NIM: "N001",
        nama_mahasiswa: "Mahasiswa Satu",
        tanggal_skrining: "2026-11-01T15:00:00+07:00",
        tingkat_stres: "Tinggi",
        tingkat_motivasi: "Rendah",
        score_stress: 150,
        score_sdi: -2.25,
        early_warning: true,
      },
      { NIM: "S01", nama_mahasiswa: studentName, tanggal_skrining: "2026-10-05T15:00:00+07:00", tingkat_stres: "Sedang", tingkat_motivasi: "Sedang", score_stress: 100, score_sdi: 1.5, early_warning: false },
      { NIM: "S02", nama_mahasiswa: lineBreakName, tanggal_skrining: null, tingkat_stres: null, tingkat_motivasi: null, score_stress: null, score_sdi: null, early_warning: false },
    ]);
  });

  test.each([
    ["an unknown --nip", ["--nip", "D999"], /D999/],
    ["--students without --nip", ["--students"], /--nip/],
    ["an unknown format", ["--format", "xml"], /xml/],
    ["an unknown CSV kind", ["--csv", "excel-us"], /excel-id, standard/],
    ["an unknown time zone", ["--tz", "Asia/Bandung"], /Asia\/Bandung/],
  ])("%s: exit 1 with a one-line reason, nothing written", async (_name, args, reason) => {
    const out = join(temporaryDir("skrining-export-"), "tidak-ada.csv");
    const result = await cli(dataDir, ["stats", "export", ...args, "--out", out]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(outputLines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(reason);
    expect(existsSync(out)).toBe(false);
  });
});

// decisions §12: Indonesian spreadsheet settings by default, the other kind on request.
describe("the kind of CSV", () => {
  const students = ["stats", "export", "--nip", "D001", "--students"];

  test("by default excel-id: ';' between fields, decimal comma, a BOM, CRLF; a ';' in a name quoted", async () => {
    const result = await cli(dataDir, students);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.startsWith(`${bom}NIM;nama_mahasiswa;tanggal_skrining;tingkat_stres;tingkat_motivasi;score_stress;score_sdi;early_warning\r\n`)).toBe(true);
    expect(result.stdout).toContain("N001;Mahasiswa Satu;2026-11-01T15:00:00+07:00;Tinggi;Rendah;150;-2,25;true\r\n");
    expect(parse(result.stdout, { bom: true, delimiter: ";", record_delimiter: "\r\n" })[2]).toEqual(["S01", studentName, "2026-10-05T15:00:00+07:00", "Sedang", "Sedang", "100", "1,5", "false"]);
    // A comma needs no quotes any more; the lecturer list shows it.
    expect((await cli(dataDir, ["stats", "export", "--nip", "D002"])).stdout).toContain("D002;Dua, Dosen;1;1;0");
  });

  test.each([
    ["--csv standard", ["--csv", "standard"], {}],
    ["--csv in any case", ["--csv", "STANDARD"], {}],
    ["SKRINING_CSV=standard", [], { SKRINING_CSV: "standard" }],
  ])("%s: ',' and a decimal point", async (_name, args, env) => {
    const result = await cli(dataDir, [...students, ...args], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("N001,Mahasiswa Satu,2026-11-01T15:00:00+07:00,Tinggi,Rendah,150,-2.25,true\r\n");
  });

  test("--csv wins over SKRINING_CSV; --tz over SKRINING_TZ", async () => {
    const result = await cli(dataDir, ["--tz", "Asia/Jayapura", ...students, "--csv", "excel-id"], { env: { SKRINING_CSV: "standard", SKRINING_TZ: "UTC" } });
    expect(result.stdout).toContain("N001;Mahasiswa Satu;2026-11-01T17:00:00+09:00;");
    const utc = await cli(dataDir, students, { env: { SKRINING_TZ: "UTC" } });
    expect(utc.stdout).toContain("N001;Mahasiswa Satu;2026-11-01T08:00:00+00:00;");
  });
});

describe("--out keeps an existing file unless --force", () => {
  test("refused without --force (the file untouched), replaced with it", async () => {
    const out = join(temporaryDir("skrining-export-"), "statistik.csv");
    await Bun.write(out, "laporan bulan lalu\n");
    const refused = await cli(dataDir, ["stats", "export", "--out", out]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("sudah ada");
    expect(refused.stderr).toContain("--force");
    expect(readFileSync(out, "utf8")).toBe("laporan bulan lalu\n");

    const forced = await cli(dataDir, ["stats", "export", "--out", out, "--force"]);
    expect(forced.exitCode).toBe(0);
    expect(readFileSync(out, "utf8").startsWith(`${bom}NIP;nama_dosen`)).toBe(true);
  });
});

// decisions §10: a name a spreadsheet would run as a formula is written with a leading
// apostrophe; numbers stay numbers, negative ones included.
describe("spreadsheet formulas are neutralised", () => {
  const hostile = ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"];
  let formulaDir: string;

  beforeAll(async () => {
    const rows = hostile.map((_, index) => `mahasiswa,f${index},mhs-pass-${index}x,F0${index},,Nama${index},,,,D001,true`).join("\n");
    formulaDir = await seededDataDir(standardAccounts + rows + "\n", (sqlite) => {
      hostile.forEach((name, index) => sqlite.run("UPDATE mahasiswa SET nama_mahasiswa = ? WHERE NIM = ?", [name, `F0${index}`]));
      sqlite.run("UPDATE dosen SET nama_dosen = '=cmd|calc' WHERE NIP = 'D001'");
      sqlite.run(
        "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES ('F00', '2026-10-01T08:00:00.000Z', '{}', 'Tinggi', 'Rendah', 's', 150, -2.25)",
      );
    });
  });

  test("lecturer names", async () => {
    const result = await cli(formulaDir, ["stats", "export", "--csv", "standard", "--nip", "D001"]);
    expect(result.exitCode).toBe(0);
    const [, row] = parse(result.stdout, { bom: true }) as string[][];
    expect(row![1]).toBe("'=cmd|calc");
  });

  test("student names, with negative numbers left as they are", async () => {
    const result = await cli(formulaDir, ["stats", "export", "--csv", "standard", "--nip", "D001", "--students"]);
    expect(result.exitCode).toBe(0);
    const rows = parse(result.stdout, { bom: true, relax_quotes: true }) as string[][];
    const byNim = new Map(rows.slice(1).map((row) => [row[0], row]));
    hostile.forEach((name, index) => expect(byNim.get(`F0${index}`)![1]).toBe(`'${name}`));
    expect(byNim.get("F00")![6]).toBe("-2.25");
    // Ordinary names are untouched.
    expect(byNim.get("N001")![1]).toBe("Mahasiswa Satu");
  });
});
