import type { Command } from "commander";
import { csvDialects, csvDocument, type CsvCell, type CsvDialect } from "../src/csv";
import { invalid } from "../src/errors";
import { formatLocalTimestamp } from "../src/local-time";
import { type AdviseeLatest, type LecturerStatistics, StatisticsService } from "../src/modules/dosen/statistics";
import { FollowUpFiguresReader, emptyFigures, type FollowUpFigures } from "../src/modules/tindak-lanjut/figures";
import { appendAuditRows, type AuditEntry } from "../src/audit/trail";
import { commandAudit } from "./audit";
import { openData, type CommandIo } from "./common";
import { choiceOption } from "./options";
import { writeOutputFile } from "./output";

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
  // The follow-up figures, named as in GET /api/dosen/tindak-lanjut/ringkasan.
  "terbuka",
  "baru",
  "lebih_dari_7_hari",
  "median_hari_ke_kontak_pertama",
] as const;

type LecturerExport = LecturerStatistics & FollowUpFigures;

const lecturerRow = (row: LecturerExport): CsvCell[] => [
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
  row.terbuka,
  row.baru,
  row.lebih_dari_7_hari,
  row.median_hari_ke_kontak_pertama,
];

const studentHeader = ["NIM", "nama_mahasiswa", "tanggal_skrining", "tingkat_stres", "tingkat_motivasi", "score_stress", "score_sdi", "early_warning"] as const;

const studentRow = (row: AdviseeLatest): CsvCell[] => studentHeader.map((column) => row[column]);

interface ExportOptions {
  nip?: string;
  format: "csv" | "json";
  csv?: CsvDialect;
  out?: string;
  force?: boolean;
  students?: boolean;
}

/**
 * The rows to export: per lecturer, or with `--students` per advisee of one lecturer. A
 * screening's time is the faculty's local time with its offset (decisions §11), in JSON too:
 * an export is read by people.
 */
function exportText(
  statistics: StatisticsService,
  followUps: FollowUpFiguresReader,
  options: ExportOptions,
  dialect: CsvDialect,
  timeZone: string,
): { text: string; students: string[] | null } {
  const write = <Row>(header: readonly string[], rows: Row[], toCells: (row: Row) => CsvCell[]) =>
    options.format === "json" ? JSON.stringify(rows, null, 2) + "\n" : csvDocument(header, rows.map(toCells), dialect);
  const figures = followUps.current(Date.now());
  const lecturers = (rows: LecturerStatistics[]) =>
    write(lecturerHeader, rows.map((row) => ({ ...row, ...(figures.get(row.NIP) ?? emptyFigures()) })), lecturerRow);
  if (options.nip === undefined) return { text: lecturers(statistics.countsForAll()), students: null };
  const lecturer = statistics.lecturer(options.nip.trim());
  if (!lecturer) throw invalid(`dosen dengan NIP ${JSON.stringify(options.nip)} tidak ditemukan.`);
  if (options.students) {
    const rows = statistics.adviseesLatest(lecturer.nip).map((row) => ({
      ...row,
      tanggal_skrining: row.tanggal_skrining === null ? null : formatLocalTimestamp(row.tanggal_skrining, timeZone),
    }));
    return { text: write(studentHeader, rows, studentRow), students: rows.map((row) => row.NIM) };
  }
  return { text: lecturers([{ NIP: lecturer.nip, nama_dosen: lecturer.nama, ...statistics.countsFor(lecturer.nip) }]), students: null };
}

export function registerStatsCommands(program: Command, io: CommandIo): void {
  const stats = program.command("stats").description("statistik skrining");

  stats
    .command("export")
    .description("statistik per dosen wali dengan angka tindak lanjut (semua dosen tanpa --nip), atau skrining terakhir tiap mahasiswa bimbingan dengan --students")
    .option("--nip <nip>", "hanya dosen ini")
    .addOption(choiceOption("--format <format>", "format keluaran", ["csv", "json"]).default("csv"))
    .addOption(choiceOption("--csv <jenis>", "jenis CSV; excel-id: pemisah ; dan koma desimal (Excel/LibreOffice berbahasa Indonesia), standard: pemisah , dan titik desimal; bawaan dari SKRINING_CSV, atau excel-id", csvDialects))
    .option("--out <file>", "tulis ke file ini (bawaan: layar)")
    .option("--force", "timpa file --out yang sudah ada")
    .option("--students", "per mahasiswa bimbingan: skrining terakhir dan early_warning (perlu --nip)")
    .action(async (options: ExportOptions, command: Command) => {
      if (options.students && options.nip === undefined) throw invalid("--students memerlukan --nip.");
      const { config, db, writes } = openData(command, io);
      try {
        const { text, students } = exportText(
          new StatisticsService(db, config.timeZone),
          new FollowUpFiguresReader(db.$client),
          options,
          options.csv ?? config.csvDialect,
          config.timeZone,
        );
        if (options.out === undefined) io.out(text);
        else writeOutputFile(options.out, text, options.force === true);
        // Written once the export is out: per student for --students, else one row of aggregates.
        const { actor, target } = commandAudit(command);
        const detail = `${options.nip === undefined ? "semua dosen" : `NIP ${options.nip.trim()}`}; ${options.format}${options.out === undefined ? "" : ` ke ${options.out}`}`;
        const entry: AuditEntry = { actor, target, action: "export", students: students ?? [], detail };
        await writes.run(() => appendAuditRows(db.$client, [entry]));
      } finally {
        db.$client.close();
      }
    });
}
