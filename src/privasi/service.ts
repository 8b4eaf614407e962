import type { Database } from "bun:sqlite";
import { basename } from "node:path";
import { appendAuditRows, type AuditSource } from "../audit/trail";
import { scratchInMemory } from "../db";
import type { WriteQueue } from "../db/write-queue";
import { invalid, notFound } from "../errors";
import { localDayStart } from "../local-time";
import { safeNimOf, type PhotoStore } from "../photos/storage";
import { nowIso } from "../records";

// The administrator's side of UU PDP (decisions: Privacy commands and restriction):
// erasure, restriction and its end, and the retention purge. Each change commits in one
// IMMEDIATE transaction (a job of the write queue) together with its audit row; photo
// files go after the commit, so a failed transaction never leaves a profile pointing at a
// deleted file. Every database connection runs with secure_delete on (src/db/index.ts),
// and erasure and purge end by rebuilding the file and emptying the WAL (`compact`), so
// the deleted text is in no free page either.

export const privasiRequestMessages = {
  studentUnknown: (nim: string) => `Mahasiswa dengan NIM ${JSON.stringify(nim)} tidak ditemukan.`,
  alreadyRestricted: (nim: string, since: string) => `Pemrosesan data mahasiswa ${nim} sudah dibatasi sejak ${since}; tidak ada yang diubah.`,
  notRestricted: (nim: string) => `Pemrosesan data mahasiswa ${nim} tidak sedang dibatasi; tidak ada yang diubah.`,
  badDate: (value: string) => `--before harus tanggal YYYY-MM-DD yang ada, bukan ${JSON.stringify(value)}.`,
  emptyAngkatan: "--angkatan tidak boleh kosong.",
} as const;

/** Where a student's rows live (a condition on the student's key), in the order erasure deletes them (rows that others point at last). */
const studentTables = [
  // A follow-up case's timeline names the student through the case.
  { table: "tindak_lanjut_riwayat", where: "Id_tindak_lanjut IN (SELECT Id_tindak_lanjut FROM tindak_lanjut WHERE NIM = ?)", key: "nim" },
  { table: "permintaan_kontak", where: "NIM = ?", key: "nim" },
  { table: "tindak_lanjut", where: "NIM = ?", key: "nim" },
  { table: "pergantian_dosen_wali", where: "NIM = ?", key: "nim" },
  { table: "riwayat_skrining", where: "NIM = ?", key: "nim" },
  // Derived from riwayat_skrining by the triggers, which already removed the row; named here so the count shows it.
  { table: "latest_skrining", where: "NIM = ?", key: "nim" },
  { table: "mood_entries", where: "nim = ?", key: "nim" },
  { table: "diary_entries", where: "nim = ?", key: "nim" },
  { table: "catatan_konseling", where: "NIM = ?", key: "nim" },
  { table: "privacy_acknowledgements", where: "Id_User = ?", key: "userId" },
  { table: "sessions", where: "Id_User = ?", key: "userId" },
  { table: "mahasiswa", where: "NIM = ?", key: "nim" },
  { table: "users", where: "Id_User = ?", key: "userId" },
] as const;

export type TableCounts = Record<string, number>;

/** What erasing one student removes (or, in a dry run, would remove). */
export interface Erasure {
  nim: string;
  rows: TableCounts;
  /** Photo files, relative to the data folder. */
  files: string[];
}

/** What a purge by date removes. */
export interface DatePurge {
  before: string;
  rows: TableCounts;
}

/** What a purge of a cohort erases, and which of its students stay because they were active on or after the date. */
export interface CohortPurge {
  before: string;
  angkatan: string;
  erased: Erasure[];
  kept: string[];
}

/** After the commit: photo files that could not be removed, and whether the WAL could be emptied. */
export interface Aftermath {
  fileFailures: string[];
  walEmptied: boolean;
}

interface StudentKeys {
  nim: string;
  userId: number;
  foto: string | null;
  restrictedAt: string | null;
}

const countsDetail = (rows: TableCounts) =>
  Object.entries(rows)
    .map(([table, count]) => `${table}=${count}`)
    .join(" ");

export class PrivasiRequestService {
  constructor(
    private readonly sqlite: Database,
    private readonly writes: WriteQueue,
    private readonly photos: PhotoStore,
    private readonly timeZone: string,
  ) {}

  private student(nim: string): StudentKeys {
    const row = this.sqlite
      .query<StudentKeys, [string]>("SELECT NIM AS nim, Id_User AS userId, foto_profil AS foto, dibatasi_sejak AS restrictedAt FROM mahasiswa WHERE NIM = ?")
      .get(nim);
    if (!row) throw notFound(privasiRequestMessages.studentUnknown(nim));
    return row;
  }

  /** The student a request names, as the console's "Permintaan data pribadi" shows them first. */
  studentOf(nim: string): { nim: string; nama: string | null; dibatasi_sejak: string | null } {
    const row = this.sqlite
      .query<{ nim: string; nama: string | null; dibatasi_sejak: string | null }, [string]>("SELECT NIM AS nim, nama_mahasiswa AS nama, dibatasi_sejak FROM mahasiswa WHERE NIM = ?")
      .get(nim);
    if (!row) throw notFound(privasiRequestMessages.studentUnknown(nim));
    return row;
  }

  /** The student's rows per table, as erasure would delete them now. */
  private rowsOf(student: StudentKeys): TableCounts {
    const rows: TableCounts = {};
    for (const { table, where, key } of studentTables) {
      rows[table] = this.sqlite.query<{ n: number }, [string | number]>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get(student[key])!.n;
    }
    return rows;
  }

  /**
   * The photo files of the students being erased: the file each profile names, and files
   * left under their name (older uploads set aside in `photos/unreferenced/`). A file
   * another student's profile names is never taken, nor an unnamed file whose name part
   * another remaining student shares.
   */
  private photoFiles(students: readonly StudentKeys[]): Map<string, string[]> {
    const erased = new Set(students.map((student) => student.nim));
    const others = this.sqlite.query<{ nim: string; foto: string | null }, []>("SELECT NIM AS nim, foto_profil AS foto FROM mahasiswa").all().filter((row) => !erased.has(row.nim));
    const namedByOthers = new Set(others.flatMap((row) => (row.foto === null ? [] : [basename(row.foto)])));
    const sharedNames = new Set(others.map((row) => safeNimOf(row.nim)));
    const files = new Map<string, string[]>();
    for (const student of students) {
      const own = student.foto !== null && this.photos.locate(student.foto) !== null ? [student.foto] : [];
      const named = sharedNames.has(safeNimOf(student.nim)) ? [] : this.photos.filesNamedFor(student.nim);
      files.set(student.nim, [...new Set([...own, ...named])].filter((path) => !namedByOthers.has(basename(path))).sort());
    }
    return files;
  }

  /** Deletes the student's rows; the summary triggers keep the lecturer figures right. Inside a write transaction. */
  private deleteRows(student: StudentKeys): void {
    for (const { table, where, key } of studentTables) this.sqlite.run(`DELETE FROM ${table} WHERE ${where}`, [student[key]]);
  }

  /** What `erase` would remove, without changing anything. */
  planErase(nim: string): Erasure {
    return this.sqlite
      .transaction(() => {
        const student = this.student(nim);
        return { nim, rows: this.rowsOf(student), files: this.photoFiles([student]).get(nim)! };
      })
      .deferred();
  }

  /** Erases every row of the student and, once that is committed, their photo files; then compacts the database. */
  async erase(nim: string, source: AuditSource): Promise<Erasure & Aftermath> {
    const erasure = await this.writes.run(() => {
      const student = this.student(nim);
      const result: Erasure = { nim, rows: this.rowsOf(student), files: this.photoFiles([student]).get(nim)! };
      this.deleteRows(student);
      appendAuditRows(this.sqlite, [{ ...source, action: "privacy", nim, detail: `${countsDetail(result.rows)} foto=${result.files.length}` }]);
      return result;
    });
    return { ...erasure, ...this.afterErasing(erasure.files) };
  }

  /** Restricts the student's processing (or, `dryRun`, says what would change). Refused when already restricted. */
  async restrict(nim: string, source: AuditSource, dryRun: boolean): Promise<{ screeningsLeftOut: number; since: string }> {
    const change = () => {
      const student = this.student(nim);
      if (student.restrictedAt !== null) throw invalid(privasiRequestMessages.alreadyRestricted(nim, student.restrictedAt));
      const screeningsLeftOut = this.screeningCount(nim);
      const since = nowIso();
      if (dryRun) return { screeningsLeftOut, since };
      this.sqlite.run("UPDATE mahasiswa SET dibatasi_sejak = ? WHERE NIM = ?", [since, nim]);
      appendAuditRows(this.sqlite, [{ ...source, action: "privacy", nim, detail: `dibatasi_sejak=${since}` }]);
      return { screeningsLeftOut, since };
    };
    return dryRun ? this.sqlite.transaction(change).deferred() : this.writes.run(change);
  }

  /** Ends the restriction (or, `dryRun`, says what would change). Refused when the student is not restricted. */
  async unrestrict(nim: string, source: AuditSource, dryRun: boolean): Promise<{ screeningsCountedAgain: number; since: string }> {
    const change = () => {
      const student = this.student(nim);
      if (student.restrictedAt === null) throw invalid(privasiRequestMessages.notRestricted(nim));
      const result = { screeningsCountedAgain: this.screeningCount(nim), since: student.restrictedAt };
      if (dryRun) return result;
      this.sqlite.run("UPDATE mahasiswa SET dibatasi_sejak = NULL WHERE NIM = ?", [nim]);
      appendAuditRows(this.sqlite, [{ ...source, action: "privacy", nim, detail: `dibatasi_sejak ${student.restrictedAt} berakhir` }]);
      return result;
    };
    return dryRun ? this.sqlite.transaction(change).deferred() : this.writes.run(change);
  }

  private screeningCount(nim: string): number {
    return this.sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM riwayat_skrining WHERE NIM = ?").get(nim)!.n;
  }

  /** The first moment of the local day `before` (config.timeZone), in Unix seconds; a refusal for a date that does not exist. */
  private cutoff(before: string): number {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(before);
    const parsed = match ? new Date(`${before}T00:00:00Z`) : null;
    if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== before) throw invalid(privasiRequestMessages.badDate(before));
    return Math.floor(localDayStart(before, this.timeZone) / 1000);
  }

  /**
   * Screenings made before the local day `before` began, and moods and diary entries
   * dated before it. A timestamp that does not parse is never taken as old.
   */
  private datePurgeStatements(before: string) {
    const cutoff = this.cutoff(before);
    return [
      { table: "riwayat_skrining", where: "unixepoch(tanggal_skrining) < ?", value: cutoff as string | number },
      { table: "mood_entries", where: "date < ?", value: before },
      { table: "diary_entries", where: "date < ?", value: before },
    ];
  }

  /** Removes old screenings, moods and diary entries of every student (`dryRun`: only counts them). */
  async purgeBefore(before: string, source: AuditSource, dryRun: boolean): Promise<DatePurge & Partial<Aftermath>> {
    const statements = this.datePurgeStatements(before);
    const count = () => {
      const rows: TableCounts = {};
      for (const { table, where, value } of statements) rows[table] = this.sqlite.query<{ n: number }, [string | number]>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get(value)!.n;
      return rows;
    };
    if (dryRun) return { before, rows: this.sqlite.transaction(count).deferred() };
    const rows = await this.writes.run(() => {
      const counted = count();
      for (const { table, where, value } of statements) this.sqlite.run(`DELETE FROM ${table} WHERE ${where}`, [value]);
      appendAuditRows(this.sqlite, [{ ...source, action: "privacy", nim: null, detail: `sebelum ${before}: ${countsDetail(counted)}` }]);
      return counted;
    });
    return { before, rows, ...this.afterErasing([]) };
  }

  /**
   * Erases the students of cohort `angkatan` (as `erase`, all in one transaction) who show
   * no activity on or after the local day `before`: no screening, mood, diary entry, note
   * or reply (a time that does not parse counts as recent). A student with later activity
   * has not left, and is kept and named.
   */
  async purgeCohort(before: string, angkatan: string, source: AuditSource, dryRun: boolean): Promise<CohortPurge & Partial<Aftermath>> {
    const cohort = angkatan.trim();
    if (cohort === "") throw invalid(privasiRequestMessages.emptyAngkatan);
    const cutoff = this.cutoff(before);
    const plan = (): { purge: CohortPurge; students: StudentKeys[] } => {
      const members = this.sqlite
        .query<StudentKeys & { active: number }, [number, string, string, number, number, string]>(
          `SELECT NIM AS nim, Id_User AS userId, foto_profil AS foto, dibatasi_sejak AS restrictedAt,
             EXISTS (SELECT 1 FROM riwayat_skrining WHERE NIM = student.NIM AND coalesce(unixepoch(tanggal_skrining) < ?1, 0) = 0)
             OR EXISTS (SELECT 1 FROM mood_entries WHERE nim = student.NIM AND date >= ?2)
             OR EXISTS (SELECT 1 FROM diary_entries WHERE nim = student.NIM AND date >= ?3)
             OR EXISTS (SELECT 1 FROM catatan_konseling WHERE NIM = student.NIM AND (coalesce(unixepoch(tanggal_catat) < ?4, 0) = 0 OR unixepoch(tanggal_reply) >= ?5)) AS active
           FROM mahasiswa AS student WHERE trim(angkatan) = ?6 ORDER BY NIM`,
        )
        .all(cutoff, before, before, cutoff, cutoff, cohort);
      const students = members.filter((member) => !member.active);
      const files = this.photoFiles(students);
      return {
        students,
        purge: {
          before,
          angkatan: cohort,
          erased: students.map((student) => ({ nim: student.nim, rows: this.rowsOf(student), files: files.get(student.nim)! })),
          kept: members.filter((member) => member.active).map((member) => member.nim),
        },
      };
    };
    if (dryRun) return this.sqlite.transaction(() => plan().purge).deferred();
    const purge = await this.writes.run(() => {
      const { purge: planned, students } = plan();
      for (const student of students) this.deleteRows(student);
      appendAuditRows(
        this.sqlite,
        planned.erased.map((erasure) => ({
          ...source,
          action: "privacy" as const,
          nim: erasure.nim,
          detail: `angkatan ${cohort}, tidak aktif sejak ${before}: ${countsDetail(erasure.rows)} foto=${erasure.files.length}`,
        })),
      );
      return planned;
    });
    return { ...purge, ...this.afterErasing(purge.erased.flatMap((erasure) => erasure.files)) };
  }

  /** After an erasure or purge committed: its photo files go, then the database is compacted. */
  private afterErasing(files: readonly string[]): Aftermath {
    const fileFailures: string[] = [];
    for (const file of files) {
      try {
        this.photos.remove(file);
      } catch (error) {
        fileFailures.push(`${file}: ${(error as Error).message}`);
      }
    }
    return { fileFailures, walEmptied: this.compact() };
  }

  /**
   * Rebuilds the database file (VACUUM), so that no free page or free space inside a page
   * keeps deleted text, including text deleted before secure_delete was on; then copies
   * the WAL into the database and truncates it. Answers whether the WAL is empty: a
   * reader that stays longer than the busy timeout leaves it for SQLite's next checkpoint.
   */
  private compact(): boolean {
    scratchInMemory.onDisk(this.sqlite, () => this.sqlite.run("VACUUM"));
    const result = this.sqlite.query<{ busy: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)").get();
    return result?.busy === 0;
  }
}
