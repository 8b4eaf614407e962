import { type Command, Option } from "commander";
import { chmodSync, writeFileSync } from "node:fs";
import { type AdviseeLatest, type LecturerStatistics, StatisticsService } from "../src/modules/dosen/statistics";
import { asStorageError } from "../src/db/storage";
import { ServiceError, invalid } from "../src/errors";
import { csvField, type CsvCell } from "../src/csv";
import { openData, type CommandIo } from "./common";

/** UTF-8 CSV with a BOM (so spreadsheet programs read the names right) and CRLF line ends. */
function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return "\uFEFF" + [header, ...rows].map((row) => row.map(csvField).join(",") + "\r\n").join("");
}

const lecturerHeader = [
  "NIP",
  "nama_dosen",
  "total_mahasiswa",
  "sudah_skrining",
  "belum_skrining",
  "stress_rendah",
  "stress_sedang",
  "stress_tinggi",
  "motivasi_rendah",
  "motivasi_sedang",
  "motivasi_tinggi",
] as const;

const lecturerRow = (row: LecturerStatistics): CsvCell[] => [
  row.NIP,
  row.nama_dosen,
  row.total_mahasiswa,
  row.sudah_skrining,
  row.belum_skrining,
  row.stress_dist.Rendah,
  row.stress_dist.Sedang,
  row.stress_dist.Tinggi,
  row.motivasi_dist.Rendah,
  row.motivasi_dist.Sedang,
  row.motivasi_dist.Tinggi,
];

const studentHeader = ["NIM", "nama_mahasiswa", "tanggal_skrining", "tingkat_stres", "tingkat_motivasi", "score_stress", "score_sdi", "early_warning"] as const;

const studentRow = (row: AdviseeLatest): CsvCell[] => studentHeader.map((column) => row[column]);

interface ExportOptions {
  nip?: string;
  format: "csv" | "json";
  out?: string;
  students?: boolean;
}

/** The rows to export: per lecturer, or with `--students` per advisee of one lecturer. */
function exportText(statistics: StatisticsService, options: ExportOptions): string {
  const lecturers = (rows: LecturerStatistics[]) => (options.format === "json" ? JSON.stringify(rows, null, 2) + "\n" : toCsv(lecturerHeader, rows.map(lecturerRow)));
  if (options.nip === undefined) return lecturers(statistics.countsForAll());
  const lecturer = statistics.lecturer(options.nip.trim());
  if (!lecturer) throw invalid(`dosen dengan NIP ${JSON.stringify(options.nip)} tidak ditemukan.`);
  if (options.students) {
    const rows = statistics.adviseesLatest(lecturer.nip);
    return options.format === "json" ? JSON.stringify(rows, null, 2) + "\n" : toCsv(studentHeader, rows.map(studentRow));
  }
  return lecturers([{ NIP: lecturer.nip, nama_dosen: lecturer.nama, ...statistics.countsFor(lecturer.nip) }]);
}

export function registerStatsCommands(program: Command, io: CommandIo): void {
  const stats = program.command("stats").description("statistik skrining");

  stats
    .command("export")
    .description("statistik per dosen wali (semua dosen tanpa --nip), atau skrining terakhir tiap mahasiswa bimbingan dengan --students")
    .option("--nip <nip>", "hanya dosen ini")
    .addOption(new Option("--format <format>", "format keluaran").choices(["csv", "json"]).default("csv"))
    .option("--out <file>", "tulis ke file ini (default: stdout)")
    .option("--students", "per mahasiswa bimbingan: skrining terakhir dan early_warning (perlu --nip)")
    .action(async (options: ExportOptions, command: Command) => {
      if (options.students && options.nip === undefined) throw invalid("--students memerlukan --nip.");
      const { db } = openData(command, io);
      let text: string;
      try {
        text = exportText(new StatisticsService(db), options);
      } finally {
        db.$client.close();
      }
      if (options.out === undefined) {
        io.out(text);
        return;
      }
      try {
        writeFileSync(options.out, text, { mode: 0o600 });
        chmodSync(options.out, 0o600);
      } catch (error) {
        // A full or read-only disk is reported as such; anything else names the file.
        const failure = asStorageError(error);
        throw failure instanceof ServiceError ? failure : invalid(`tidak dapat menulis ${options.out}: ${(error as Error).message}`);
      }
    });
}
