import type { Database } from "bun:sqlite";
import { csvDocument, type CsvCell, type CsvDialect } from "../../csv";
import { addDays, isoWeekLabel, localDayStart, localWeekStart } from "../../local-time";
import { emptyWeeklyFigures, weekTotal, weeklyOutcomeKeys, type TindakLanjutFiguresReader, type WeeklyFigures } from "./figures";

// The weekly follow-up report for the faculty's meeting: `skrining followup report --week`
// and the console's Statistik fakultas page (issue 44, item 15) read the same figures.

export interface ReportRow extends WeeklyFigures {
  NIP: string | null;
  nama_dosen: string | null;
}

export interface WeeklyReport {
  minggu: string;
  mulai: string;
  sampai: string;
  zona_waktu: string;
  per_dosen: ReportRow[];
  fakultas: WeeklyFigures;
}

export const figureKeys = ["dibuka", "dihubungi", "dirujuk", "selesai", ...weeklyOutcomeKeys, "terbuka_lebih_dari_7_hari", "terlambat", "median_hari_ke_kontak_pertama"] as const;

/** How the text and the CSV name the rows that are no lecturer. */
export const rowNames = { ownerless: "Tanpa dosen wali", faculty: "Seluruh fakultas" } as const;

/**
 * The week holding `date` (or today), Monday to Sunday in the faculty's time zone, per
 * lecturer (every lecturer, and the cases without an owner when the week has any) and for
 * the faculty. The figures are src/modules/tindak-lanjut/figures.ts's.
 */
export function weeklyReport(sqlite: Database, figures: TindakLanjutFiguresReader, timeZone: string, date: string | undefined): WeeklyReport {
  const now = Date.now();
  const monday = localWeekStart(date === undefined ? now : localDayStart(date, timeZone), timeZone);
  const start = localDayStart(monday, timeZone);
  const end = localDayStart(addDays(monday, 7), timeZone);
  const { byOwner, contactDays } = figures.week(start, end, now);
  const lecturers = sqlite.query<{ nip: string; nama: string }, []>("SELECT NIP AS nip, nama_dosen AS nama FROM dosen ORDER BY NIP").all();
  const perDosen: ReportRow[] = lecturers.map((lecturer) => ({ NIP: lecturer.nip, nama_dosen: lecturer.nama, ...(byOwner.get(lecturer.nip) ?? emptyWeeklyFigures()) }));
  const ownerless = byOwner.get(null);
  if (ownerless) perDosen.push({ NIP: null, nama_dosen: null, ...ownerless });
  return {
    minggu: isoWeekLabel(monday),
    mulai: monday,
    sampai: addDays(monday, 6),
    zona_waktu: timeZone,
    per_dosen: perDosen,
    fakultas: weekTotal([...byOwner.values()], contactDays),
  };
}

/** The report as CSV: one row per lecturer (and the cases without one), then the faculty. */
export function reportCsv(report: WeeklyReport, dialect: CsvDialect): string {
  const row = (nip: string | null, nama: string, figures: WeeklyFigures): CsvCell[] => [report.minggu, nip, nama, ...figureKeys.map((key) => figures[key])];
  return csvDocument(
    ["minggu", "NIP", "nama_dosen", ...figureKeys],
    [...report.per_dosen.map((entry) => row(entry.NIP, entry.nama_dosen ?? rowNames.ownerless, entry)), row(null, rowNames.faculty, report.fakultas)],
    dialect,
  );
}
