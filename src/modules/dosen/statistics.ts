import { and, asc, count, eq, gte, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import { dosen, latestSkrining, lecturerLatestLevels, lecturerWeeklyLevels, mahasiswa, riwayatSkrining } from "../../db/schema";
import { addDays, isoWeekLabel, localWeekStart } from "../../local-time";
import type { Level } from "../../skrining/scoring";
import { preparedOnFirstUse } from "../../db/prepared";

// The lecturer figures are read from the summary tables that triggers keep current
// (src/db/summaries.ts): per lecturer the level counts of the advisees' latest screenings,
// and per lecturer and week (in the faculty's time zone) the level counts of the week's
// screenings. A lecturer's counts are a few rows however many advisees and screenings
// there are; only the number of advisees is counted, in mahasiswa_nip_doswal_index.
// A student whose processing is restricted (`privacy restrict`) is left out of every
// figure: of the counts here, and of the weekly counts by the triggers.

export type LevelCounts = Record<Level, number>;

/** The trend covers this many weeks, the current one included. */
const trendWeeks = 12;

/** Joins each student to their latest screening's summary row, if they have one. */
export const latestOfStudent = eq(latestSkrining.nim, mahasiswa.nim);

/** Joins the summary row to the screening itself (saran, scores, answers). */
export const latestScreening = eq(riwayatSkrining.id, latestSkrining.id);

/** Students counted in statistics: those whose processing is not restricted. */
export const unrestricted = isNull(mahasiswa.restrictedAt);

/** A spike or stress `Tinggi` with motivation `Rendah`, as stored; false without a screening. */
export const earlyWarning = sql<boolean>`coalesce(${latestSkrining.earlyWarning}, 0)`.mapWith(Boolean);

interface LecturerCounts {
  total_mahasiswa: number;
  sudah_skrining: number;
  belum_skrining: number;
  stress_dist: LevelCounts;
  motivasi_dist: LevelCounts;
}

export interface TrendWeek {
  /** ISO 8601 week, `2026-W47`. */
  week: string;
  /** Its Monday in the faculty's time zone, `2026-11-16`. */
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

/**
 * The statistics of interface.md for one lecturer (the route) or for every lecturer (the
 * export): each advisee counts once, by their latest screening.
 */
export class StatisticsService {
  private readonly adviseesOne;
  private readonly adviseesAll;
  private readonly levelsOne;
  private readonly levelsAll;
  private readonly lecturerByNip;
  private readonly allLecturers;
  private readonly weekly;
  private readonly advisees;
  private lastWeek: { minute: number; start: string } | undefined;

  constructor(
    db: DatabaseClient,
    /** The zone the weeks begin in; the same the summary triggers count in (`useTimeZone`). */
    private readonly timeZone: string,
  ) {
    this.adviseesOne = preparedOnFirstUse(() =>
      db
        .select({ students: count() })
        .from(mahasiswa)
        .where(and(eq(mahasiswa.nipDoswal, sql.placeholder("nip")), unrestricted))
        .prepare(),
    );
    this.adviseesAll = preparedOnFirstUse(() =>
      db
        .select({ nip: mahasiswa.nipDoswal, students: count() })
        .from(mahasiswa)
        .where(and(isNotNull(mahasiswa.nipDoswal), unrestricted))
        .groupBy(mahasiswa.nipDoswal)
        .prepare(),
    );
    const levels = { stres: lecturerLatestLevels.tingkatStres, motivasi: lecturerLatestLevels.tingkatMotivasi, students: lecturerLatestLevels.students };
    this.levelsOne = preparedOnFirstUse(() => db.select(levels).from(lecturerLatestLevels).where(eq(lecturerLatestLevels.nip, sql.placeholder("nip"))).prepare());
    this.levelsAll = preparedOnFirstUse(() =>
      db
        .select({ nip: lecturerLatestLevels.nip, ...levels })
        .from(lecturerLatestLevels)
        .prepare(),
    );
    this.lecturerByNip = preparedOnFirstUse(() => db.select().from(dosen).where(eq(dosen.nip, sql.placeholder("nip"))).prepare());
    this.allLecturers = preparedOnFirstUse(() => db.select().from(dosen).orderBy(asc(dosen.nip)).prepare());
    this.weekly = preparedOnFirstUse(() =>
      db
        .select()
        .from(lecturerWeeklyLevels)
        .where(
          and(
            eq(lecturerWeeklyLevels.nip, sql.placeholder("nip")),
            gte(lecturerWeeklyLevels.weekStart, sql.placeholder("first")),
            lte(lecturerWeeklyLevels.weekStart, sql.placeholder("last")),
          ),
        )
        .prepare(),
    );

    this.advisees = preparedOnFirstUse(() =>
      db
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
        .leftJoin(latestSkrining, latestOfStudent)
        .leftJoin(riwayatSkrining, latestScreening)
        .where(and(eq(mahasiswa.nipDoswal, sql.placeholder("nip")), unrestricted))
        .orderBy(asc(mahasiswa.nim))
        .prepare(),
    );
  }

  lecturer(nip: string) {
    return this.lecturerByNip.get({ nip });
  }

  /** The counts for the advisees of `nip` (all zero when there are none). */
  countsFor(nip: string): LecturerCounts {
    return tally(this.adviseesOne.get({ nip })?.students ?? 0, this.levelsOne.all({ nip }));
  }

  /** Every lecturer's counts, ordered by NIP, lecturers without advisees included; restricted students are not counted. */
  countsForAll(): LecturerStatistics[] {
    const advisees = new Map(this.adviseesAll.all().map((row) => [row.nip, row.students]));
    const levels = Map.groupBy(this.levelsAll.all(), (row) => row.nip);
    return this.allLecturers.all().map((lecturer) => ({
      NIP: lecturer.nip,
      nama_dosen: lecturer.nama,
      ...tally(advisees.get(lecturer.nip) ?? 0, levels.get(lecturer.nip) ?? []),
    }));
  }

  /**
   * The Monday that begins the week holding `time`, in the faculty's zone. Every
   * `statistik` asks it for now; finding the zone's offset costs microseconds, so the
   * answer is kept for the minute (every zone's offset is whole minutes, so a week never
   * begins inside one).
   */
  weekOf(time: number): string {
    const minute = Math.floor(time / 60_000);
    if (this.lastWeek?.minute !== minute) this.lastWeek = { minute, start: localWeekStart(time, this.timeZone) };
    return this.lastWeek.start;
  }

  /**
   * Level counts of every screening the advisees of `nip` made in each of the last 12
   * weeks (Monday 00:00 to Sunday 24:00 in the faculty's zone), oldest first, the week
   * holding `now` last.
   */
  trend(nip: string, now: number): TrendWeek[] {
    const current = this.weekOf(now);
    const mondays = Array.from({ length: trendWeeks }, (_, index) => addDays(current, (index - trendWeeks + 1) * 7));
    const rows = this.weekly.all({ nip, first: mondays[0]!, last: mondays.at(-1)! });
    const byWeek = new Map(rows.map((row) => [row.weekStart, row]));
    return mondays.map((start) => {
      const row = byWeek.get(start);
      return {
        week: isoWeekLabel(start),
        start,
        stress: row ? { Rendah: row.stressRendah, Sedang: row.stressSedang, Tinggi: row.stressTinggi } : zeroCounts(),
        motivasi: row ? { Rendah: row.motivasiRendah, Sedang: row.motivasiSedang, Tinggi: row.motivasiTinggi } : zeroCounts(),
      };
    });
  }

  /** Each advisee of `nip` by NIM with their latest screening (null fields without one); restricted students are left out. */
  adviseesLatest(nip: string): AdviseeLatest[] {
    return this.advisees.all({ nip });
  }
}

/** The interface's counts from the number of advisees and the (latest levels, students) groups of those screened. */
function tally(advisees: number, rows: readonly { stres: Level; motivasi: Level; students: number }[]): LecturerCounts {
  const counts: LecturerCounts = { total_mahasiswa: advisees, sudah_skrining: 0, belum_skrining: 0, stress_dist: zeroCounts(), motivasi_dist: zeroCounts() };
  for (const { stres, motivasi, students } of rows) {
    counts.sudah_skrining += students;
    counts.stress_dist[stres] += students;
    counts.motivasi_dist[motivasi] += students;
  }
  counts.belum_skrining = counts.total_mahasiswa - counts.sudah_skrining;
  return counts;
}
