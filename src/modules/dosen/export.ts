import { csvDocument, type CsvCell, type CsvDialect } from "../../csv";
import type { AuditEntry, AuditSource } from "../../audit/trail";
import { invalid } from "../../errors";
import { formatLocalTimestamp } from "../../local-time";
import { TindakLanjutFiguresReader, emptyFigures, type TindakLanjutFigures } from "../tindak-lanjut/figures";
import type { AdviseeLatest, LecturerStatistics, StatisticsService } from "./statistics";

// `stats export` and the admin console's "Statistik fakultas": the lecturer statistics of
// GET /api/dosen/statistik with the follow-up figures of .../tindak-lanjut/ringkasan, per
// lecturer, or one lecturer's advisees with their latest screening.

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
  "terlambat",
  "median_hari_ke_kontak_pertama",
] as const;

export type LecturerExport = LecturerStatistics & TindakLanjutFigures;

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
  row.terlambat,
  row.median_hari_ke_kontak_pertama,
];

const studentHeader = ["NIM", "nama_mahasiswa", "tanggal_skrining", "tingkat_stres", "tingkat_motivasi", "score_stress", "score_sdi", "early_warning"] as const;

const studentRow = (row: AdviseeLatest): CsvCell[] => studentHeader.map((column) => row[column]);


/** What to export: every lecturer, one (`nip`), or one lecturer's advisees (`students`). */
export interface StatisticsExportRequest {
  nip?: string;
  students?: boolean;
  format: "csv" | "json";
}

/** The file's text, and the students it names (one audit row each), or null for aggregates only. */
export interface StatisticsExport {
  text: string;
  students: string[] | null;
}

export class StatisticsExporter {
  constructor(
    private readonly statistics: StatisticsService,
    private readonly followUps: TindakLanjutFiguresReader,
    private readonly timeZone: string,
  ) {}

  /** Every lecturer's row (or one lecturer's), with the follow-up figures now. */
  lecturerRows(nip?: string): LecturerExport[] {
    const figures = this.followUps.current(Date.now());
    const rows = nip === undefined ? this.statistics.countsForAll() : [this.oneLecturer(nip)];
    return rows.map((row) => ({ ...row, ...(figures.get(row.NIP) ?? emptyFigures()) }));
  }

  /**
   * The rows to export: per lecturer, or with `students` per advisee of one lecturer. A
   * screening's time is the faculty's local time with its offset (decisions §11), in JSON too:
   * an export is read by people.
   */
  export(request: StatisticsExportRequest, dialect: CsvDialect): StatisticsExport {
    if (request.students && request.nip === undefined) throw invalid("--students memerlukan --nip.");
    const write = <Row>(header: readonly string[], rows: Row[], toCells: (row: Row) => CsvCell[]) =>
      request.format === "json" ? JSON.stringify(rows, null, 2) + "\n" : csvDocument(header, rows.map(toCells), dialect);
    if (request.students) {
      const lecturer = this.oneLecturer(request.nip!);
      const rows = this.statistics.adviseesLatest(lecturer.NIP).map((row) => ({
        ...row,
        tanggal_skrining: row.tanggal_skrining === null ? null : formatLocalTimestamp(row.tanggal_skrining, this.timeZone),
      }));
      return { text: write(studentHeader, rows, studentRow), students: rows.map((row) => row.NIM) };
    }
    return { text: write(lecturerHeader, this.lecturerRows(request.nip), lecturerRow), students: null };
  }

  private oneLecturer(nip: string): LecturerStatistics {
    const lecturer = this.statistics.lecturer(nip.trim());
    if (!lecturer) throw invalid(`dosen dengan NIP ${JSON.stringify(nip)} tidak ditemukan.`);
    return { NIP: lecturer.nip, nama_dosen: lecturer.nama, ...this.statistics.countsFor(lecturer.nip) };
  }
}

/**
 * The row an export leaves, once it is out, naming every student it holds (none for
 * aggregates). `destination` says where it went (` ke <file>`, or nothing for the screen).
 */
export function statisticsExportAudit(source: AuditSource, request: StatisticsExportRequest, result: StatisticsExport, destination: string): AuditEntry[] {
  const detail = `${request.nip === undefined ? "semua dosen" : `NIP ${request.nip.trim()}`}; ${request.format}${destination}`;
  return [{ ...source, action: "export", students: result.students ?? [], detail }];
}
