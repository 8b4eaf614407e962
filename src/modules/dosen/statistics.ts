import { and, asc, count, eq, getTableName, gte, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { DatabaseClient } from "../../db";
import { dosen, mahasiswa, riwayatSkrining } from "../../db/schema";
import type { Level } from "../../screening/scoring";

// Everything about a student's latest screening that the lecturer routes and the export
// share, written once. Each piece is a correlated lookup in riwayat_nim_tanggal_levels_index
// (NIM, tanggal, Id, levels, score), so its cost follows the lecturer's own advisees and
// never the size of the whole table.

export type LevelCounts = Record<Level, number>;

/** An increase of `score_stress` over the previous screening that counts as a spike. */
const spikeThreshold = 30;
/** The trend covers this many ISO weeks, the current one included. */
const trendWeeks = 12;

const dayMilliseconds = 24 * 3600 * 1000;
const weekMilliseconds = 7 * dayMilliseconds;

/**
 * A column named with its table (or alias). The correlated subqueries below spell every
 * name out: drizzle leaves the columns of a one-table select unqualified, and inside a
 * subquery an unqualified name may mean the subquery's own table.
 */
const qualified = (table: string, column: AnySQLiteColumn) => sql`${sql.identifier(table)}.${sql.identifier(column.name)}`;
const outer = (column: AnySQLiteColumn) => qualified(getTableName(column.table), column);
const terbaru = (column: AnySQLiteColumn) => qualified("terbaru", column);
const sebelumnya = (column: AnySQLiteColumn) => qualified("sebelumnya", column);
const r = riwayatSkrining;

/** `column` of the latest screening of the student `mahasiswa.NIM`: newest tanggal, ties to the highest Id_skrining. */
function ofLatestScreening<T>(column: SQL): SQL<T> {
  return sql<T>`(SELECT ${column} FROM ${r} AS ${sql.identifier("terbaru")} WHERE ${terbaru(r.nim)} = ${outer(mahasiswa.nim)} ORDER BY ${terbaru(r.tanggal)} DESC, ${terbaru(r.id)} DESC LIMIT 1)`;
}

/**
 * Join condition that pairs each `mahasiswa` row with its latest `riwayat_skrining` row (a
 * left join leaves students without one). The `+` keeps SQLite from looking the row up by
 * its rowid in the table: matching (NIM, tanggal, Id) in the index reads the levels and
 * the score from the index itself.
 */
export const latestOfStudent = sql`${outer(r.nim)} = ${outer(mahasiswa.nim)} AND (${outer(r.tanggal)}, +${outer(r.id)}) = ${ofLatestScreening(sql`${terbaru(r.tanggal)}, ${terbaru(r.id)}`)}`;

/** `score_stress` of the screening just before the joined one, or null for a first screening. */
const previousScore = sql`(SELECT ${sebelumnya(r.scoreStress)} FROM ${r} AS ${sql.identifier("sebelumnya")} WHERE ${sebelumnya(r.nim)} = ${outer(r.nim)} AND (${sebelumnya(r.tanggal)}, ${sebelumnya(r.id)}) < (${outer(r.tanggal)}, ${outer(r.id)}) ORDER BY ${sebelumnya(r.tanggal)} DESC, ${sebelumnya(r.id)} DESC LIMIT 1)`;

/** Whether the joined screening's stress score is 30 or more above the previous one (0 without a previous one). */
export const isSpike = sql<boolean>`coalesce(${outer(r.scoreStress)} - ${previousScore} >= ${spikeThreshold}, 0)`.mapWith(Boolean);

/** A spike, or the latest screening at stress `Tinggi` with motivation `Rendah`; 0 without a screening. */
export const earlyWarning = sql<boolean>`coalesce(${isSpike} OR (${outer(r.tingkatStres)} = 'Tinggi' AND ${outer(r.tingkatMotivasi)} = 'Rendah'), 0)`.mapWith(
  Boolean,
);

/** `Rendah|Sedang` style pair of the latest screening's levels, null without a screening. */
const latestLevelPair = ofLatestScreening<string | null>(sql`${terbaru(r.tingkatStres)} || '|' || ${terbaru(r.tingkatMotivasi)}`);

export interface LecturerCounts {
  total_mahasiswa: number;
  sudah_skrining: number;
  belum_skrining: number;
  stress_dist: LevelCounts;
  motivasi_dist: LevelCounts;
}

export interface TrendWeek {
  /** ISO 8601 week, `2026-W47`. */
  week: string;
  /** Its Monday (UTC), `2026-11-16`. */
  start: string;
  stress: LevelCounts;
  motivasi: LevelCounts;
}

export interface LecturerStatistics extends LecturerCounts {
  NIP: string;
  nama_dosen: string;
}

export interface AdviseeLatest {
  NIM: string;
  nama_mahasiswa: string | null;
  tanggal_skrining: string | null;
  tingkat_stres: Level | null;
  tingkat_motivasi: Level | null;
  score_stress: number | null;
  score_sdi: number | null;
  early_warning: boolean;
}

const zeroCounts = (): LevelCounts => ({ Rendah: 0, Sedang: 0, Tinggi: 0 });

/** Monday 00:00 UTC of the ISO week that holds `time`. */
export function isoWeekStart(time: number): number {
  const day = Math.floor(time / dayMilliseconds);
  // Day 0 (1970-01-01) was a Thursday: (day + 3) % 7 counts days since Monday.
  return (day - ((((day + 3) % 7) + 7) % 7)) * dayMilliseconds;
}

/** `YYYY-Www` of the ISO week starting on `monday`: the week belongs to the year of its Thursday. */
function isoWeekLabel(monday: number): string {
  const thursday = new Date(monday + 3 * dayMilliseconds);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / weekMilliseconds) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/**
 * The statistics of interface.md for one lecturer (the route) or for every lecturer (the
 * export): each advisee counts once, by their latest screening. The counts are grouped in
 * SQL by the latest (stress, motivation) pair, at most ten rows per lecturer.
 */
export class StatisticsService {
  private readonly pairCountsOne;
  private readonly pairCountsAll;
  private readonly lecturerByNip;
  private readonly allLecturers;
  private readonly weekly;
  private readonly advisees;

  constructor(db: DatabaseClient) {
    // Students per (lecturer, latest pair). One lecturer's query leaves the constant NIP out
    // of the grouping, which spares the sorter a column.
    this.pairCountsOne = db
      .select({ pair: latestLevelPair, students: count() })
      .from(mahasiswa)
      .where(eq(mahasiswa.nipDoswal, sql.placeholder("nip")))
      .groupBy(latestLevelPair)
      .prepare();
    this.pairCountsAll = db
      .select({ nip: mahasiswa.nipDoswal, pair: latestLevelPair, students: count() })
      .from(mahasiswa)
      .where(isNotNull(mahasiswa.nipDoswal))
      .groupBy(mahasiswa.nipDoswal, latestLevelPair)
      .prepare();
    this.lecturerByNip = db.select().from(dosen).where(eq(dosen.nip, sql.placeholder("nip"))).prepare();
    this.allLecturers = db.select().from(dosen).orderBy(asc(dosen.nip)).prepare();

    // Whole weeks since the first trend Monday; the cast keeps the division an integer one
    // (a bound JavaScript number may arrive as a real).
    const week = sql<number>`(unixepoch(${riwayatSkrining.tanggal}) - CAST(${sql.placeholder("fromSeconds")} AS INTEGER)) / 604800`;
    const levelSum = (column: typeof riwayatSkrining.tingkatStres | typeof riwayatSkrining.tingkatMotivasi, level: Level) =>
      sql<number>`sum(${column} = ${level})`.mapWith(Number);
    this.weekly = db
      .select({
        week,
        stressRendah: levelSum(riwayatSkrining.tingkatStres, "Rendah"),
        stressSedang: levelSum(riwayatSkrining.tingkatStres, "Sedang"),
        stressTinggi: levelSum(riwayatSkrining.tingkatStres, "Tinggi"),
        motivasiRendah: levelSum(riwayatSkrining.tingkatMotivasi, "Rendah"),
        motivasiSedang: levelSum(riwayatSkrining.tingkatMotivasi, "Sedang"),
        motivasiTinggi: levelSum(riwayatSkrining.tingkatMotivasi, "Tinggi"),
      })
      .from(mahasiswa)
      .innerJoin(
        riwayatSkrining,
        and(
          eq(riwayatSkrining.nim, mahasiswa.nim),
          gte(riwayatSkrining.tanggal, sql.placeholder("from")),
          lt(riwayatSkrining.tanggal, sql.placeholder("until")),
        ),
      )
      .where(eq(mahasiswa.nipDoswal, sql.placeholder("nip")))
      .groupBy(week)
      .prepare();

    this.advisees = db
      .select({
        NIM: mahasiswa.nim,
        nama_mahasiswa: mahasiswa.nama,
        tanggal_skrining: riwayatSkrining.tanggal,
        tingkat_stres: riwayatSkrining.tingkatStres,
        tingkat_motivasi: riwayatSkrining.tingkatMotivasi,
        score_stress: riwayatSkrining.scoreStress,
        score_sdi: riwayatSkrining.scoreSdi,
        early_warning: earlyWarning,
      })
      .from(mahasiswa)
      .leftJoin(riwayatSkrining, latestOfStudent)
      .where(eq(mahasiswa.nipDoswal, sql.placeholder("nip")))
      .orderBy(asc(mahasiswa.nim))
      .prepare();
  }

  lecturer(nip: string) {
    return this.lecturerByNip.get({ nip });
  }

  /** The counts for the advisees of `nip` (all zero when there are none). */
  countsFor(nip: string): LecturerCounts {
    return tally(this.pairCountsOne.all({ nip }));
  }

  /** Every lecturer's counts, ordered by NIP, lecturers without advisees included. */
  countsForAll(): LecturerStatistics[] {
    const rows = Map.groupBy(this.pairCountsAll.all(), (row) => row.nip);
    return this.allLecturers.all().map((lecturer) => ({ NIP: lecturer.nip, nama_dosen: lecturer.nama, ...tally(rows.get(lecturer.nip) ?? []) }));
  }

  /**
   * Level counts of every screening the advisees of `nip` made in each of the last 12 ISO
   * weeks (UTC), oldest first, the week holding `now` last.
   */
  trend(nip: string, now: number): TrendWeek[] {
    const current = isoWeekStart(now);
    const from = current - (trendWeeks - 1) * weekMilliseconds;
    const until = current + weekMilliseconds;
    const rows = this.weekly.all({ nip, fromSeconds: from / 1000, from: new Date(from).toISOString(), until: new Date(until).toISOString() });
    const byWeek = new Map(rows.map((row) => [row.week, row]));
    return Array.from({ length: trendWeeks }, (_, index) => {
      const start = from + index * weekMilliseconds;
      const row = byWeek.get(index);
      return {
        week: isoWeekLabel(start),
        start: new Date(start).toISOString().slice(0, 10),
        stress: row ? { Rendah: row.stressRendah, Sedang: row.stressSedang, Tinggi: row.stressTinggi } : zeroCounts(),
        motivasi: row ? { Rendah: row.motivasiRendah, Sedang: row.motivasiSedang, Tinggi: row.motivasiTinggi } : zeroCounts(),
      };
    });
  }

  /** Each advisee of `nip` by NIM with their latest screening (null fields without one). */
  adviseesLatest(nip: string): AdviseeLatest[] {
    return this.advisees.all({ nip });
  }
}

/** Sums the (latest pair, students) groups into the interface's counts. */
function tally(rows: readonly { pair: string | null; students: number }[]): LecturerCounts {
  const counts: LecturerCounts = { total_mahasiswa: 0, sudah_skrining: 0, belum_skrining: 0, stress_dist: zeroCounts(), motivasi_dist: zeroCounts() };
  for (const { pair, students } of rows) {
    counts.total_mahasiswa += students;
    if (pair === null) continue;
    const [stress, motivasi] = pair.split("|") as [Level, Level];
    counts.sudah_skrining += students;
    counts.stress_dist[stress] += students;
    counts.motivasi_dist[motivasi] += students;
  }
  counts.belum_skrining = counts.total_mahasiswa - counts.sudah_skrining;
  return counts;
}
