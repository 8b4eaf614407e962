import type { Command } from "commander";
import { csvDialects, type CsvDialect } from "../src/csv";
import { invalid } from "../src/errors";
import { TindakLanjutFiguresReader, type WeeklyFigures } from "../src/modules/tindak-lanjut/figures";
import { reportCsv, rowNames, weeklyReport, type WeeklyReport } from "../src/modules/tindak-lanjut/weekly-report";
import { appendAuditRows } from "../src/audit/trail";
import { calendarDate, commandAudit } from "./audit";
import { formatTable, openData, type CommandIo } from "./common";
import { choiceOption } from "./options";
import { writeOutputFile } from "./output";

interface ReportOptions {
  week?: boolean;
  date?: string;
  format: "text" | "csv" | "json";
  csv?: CsvDialect;
  out?: string;
  force?: boolean;
}

const median = (value: number | null) => (value === null ? "-" : value.toLocaleString("id-ID", { minimumFractionDigits: 1, maximumFractionDigits: 1 }));

/** The text report's tables: the week's moves and what is open at its end, then (decisions §19) the contact outcomes and the closing reasons. */
const textTables: { title: string | null; columns: [string, (row: WeeklyFigures) => string][] }[] = [
  {
    title: null,
    columns: [
      ["Dibuka", (row) => String(row.dibuka)],
      ["Dihubungi", (row) => String(row.dihubungi)],
      ["Dirujuk", (row) => String(row.dirujuk)],
      ["Selesai", (row) => String(row.selesai)],
      ["Terbuka >7 hari", (row) => String(row.terbuka_lebih_dari_7_hari)],
      ["Terlambat", (row) => String(row.terlambat)],
      ["Median hari ke kontak pertama", (row) => median(row.median_hari_ke_kontak_pertama)],
    ],
  },
  {
    title: "Hasil kontak (percobaan dalam minggu ini):",
    columns: [
      ["Berhasil", (row) => String(row.kontak_berhasil)],
      ["Tidak merespons", (row) => String(row.kontak_tidak_merespons)],
      ["Dijadwalkan", (row) => String(row.kontak_dijadwalkan)],
    ],
  },
  {
    title: "Alasan selesai (tindak lanjut yang ditutup minggu ini):",
    columns: [
      ["Teratasi", (row) => String(row.selesai_teratasi)],
      ["Dirujuk ke layanan konseling", (row) => String(row.selesai_dirujuk_layanan_konseling)],
      ["Tidak merespons", (row) => String(row.selesai_tidak_merespons)],
      ["Mahasiswa menolak", (row) => String(row.selesai_mahasiswa_menolak)],
      ["Lainnya", (row) => String(row.selesai_lainnya)],
      ["Tidak dicatat", (row) => String(row.selesai_tidak_dicatat)],
    ],
  },
];

function reportText(report: WeeklyReport): string {
  const title = `Laporan tindak lanjut minggu ${report.minggu}: Senin ${report.mulai} sampai Minggu ${report.sampai} (${report.zona_waktu})\n\n`;
  const rows: [string, string, WeeklyFigures][] = [
    ...report.per_dosen.map((row): [string, string, WeeklyFigures] => [row.NIP ?? "-", row.nama_dosen ?? rowNames.ownerless, row]),
    ["", rowNames.faculty, report.fakultas],
  ];
  const tables = textTables.map(({ title, columns }) =>
    (title === null ? "" : `${title}\n\n`) +
    formatTable(
      ["NIP", "Dosen wali", ...columns.map(([name]) => name)],
      rows.map(([nip, nama, row]) => [nip, nama, ...columns.map(([, cell]) => cell(row))]),
    ),
  );
  return title + tables.join("\n");
}

export function registerFollowUpCommands(program: Command, io: CommandIo): void {
  const followup = program.command("followup").description("tindak lanjut early warning");

  followup
    .command("report")
    .description("ringkasan tindak lanjut satu minggu (Senin–Minggu, zona waktu fakultas) per dosen wali, untuk rapat fakultas")
    .option("--week", "laporan mingguan (wajib)")
    .option("--date <YYYY-MM-DD>", "minggu yang memuat tanggal ini (bawaan: minggu ini)", calendarDate)
    .addOption(choiceOption("--format <format>", "format keluaran", ["text", "csv", "json"]).default("text"))
    .addOption(choiceOption("--csv <jenis>", "jenis CSV; bawaan dari SKRINING_CSV, atau excel-id", csvDialects))
    .option("--out <file>", "tulis ke file ini (bawaan: layar)")
    .option("--force", "timpa file --out yang sudah ada")
    .action(async (options: ReportOptions, command: Command) => {
      if (!options.week) throw invalid("--week wajib diisi: laporan ini dibuat per minggu.");
      const { config, db, writes } = openData(command, io);
      try {
        const report = weeklyReport(db.$client, new TindakLanjutFiguresReader(db.$client, config.followUpContactDays), config.timeZone, options.date);
        const text =
          options.format === "json"
            ? JSON.stringify(report, null, 2) + "\n"
            : options.format === "csv"
              ? reportCsv(report, options.csv ?? config.csvDialect)
              : reportText(report);
        if (options.out === undefined) io.out(text);
        else writeOutputFile(options.out, text, options.force === true);
        // Aggregates of every lecturer: one row without a student, as `stats export` leaves.
        const { actor, target } = commandAudit(command);
        const detail = `minggu ${report.minggu}; ${options.format}${options.out === undefined ? "" : ` ke ${options.out}`}`;
        await writes.run(() => appendAuditRows(db.$client, [{ actor, target, action: "export", nim: null, detail }]));
      } finally {
        db.$client.close();
      }
    });
}
