import type { Database } from "bun:sqlite";
import { mahasiswa, pergantianDosenWali, tindakLanjut } from "../db/schema";
import { databaseStamp, ReadCache } from "../db/read-cache";
import type { Principal } from "../requests/principal";

/** The lecturers a student has: their advisor (dosen wali) and the handler (penangan) of their open follow-up case. */
export interface StudentLecturers {
  advisor: string | null;
  handler: string | null;
}

/**
 * Decisions §9 and §13, the advisor scope: a lecturer reads a student who is their advisee,
 * or whose open follow-up case they handle (a counsellor an admin handed the case to);
 * admins read every student. One rule for the route guards, note writing and the cases.
 */
export class AdvisorScope {
  private readonly lecturersOf;
  // Every lecturer's read of a student asks this; like the caller, it changes only with a write.
  private readonly answers: ReadCache<string, StudentLecturers | undefined>;

  constructor(sqlite: Database) {
    this.lecturersOf = sqlite.prepare<StudentLecturers, [string]>(
      "SELECT NIP_doswal AS advisor, (SELECT NIP FROM tindak_lanjut WHERE NIM = ?1 AND status <> 'selesai') AS handler FROM mahasiswa WHERE NIM = ?1",
    );
    this.answers = new ReadCache(databaseStamp(sqlite), { reads: [mahasiswa, tindakLanjut], maxEntries: 2000 });
  }

  /** The student's advisor and handler; undefined when the NIM names no student. */
  of(nim: string): StudentLecturers | undefined {
    return this.answers.get(nim, () => this.lecturersOf.get(nim) ?? undefined);
  }

  /** Whether a lecturer (or an admin) may read the student; a lecturer account without a profile reads nobody. */
  static admits(principal: Principal, lecturers: StudentLecturers | undefined): boolean {
    if (principal.role !== "dosen") return principal.role === "admin";
    return lecturers !== undefined && principal.nip !== null && (lecturers.advisor === principal.nip || lecturers.handler === principal.nip);
  }

  mayRead(principal: Principal, nim: string): boolean {
    return AdvisorScope.admits(principal, this.of(nim));
  }
}

/** A student's move away from a lecturer (decisions §19): when, and to whom. */
export interface MovedAway {
  tanggal: string;
  nama_dosen_wali_baru: string | null;
}

/** A change of advisor as the student is told of it (`GET /api/auth/me`, decisions §19). */
export interface AdvisorChange {
  nama_sebelumnya: string | null;
  nama_baru: string | null;
  tanggal: string;
}

/** How long after a change of advisor the student is told of it (decisions §19). */
export const advisorChangeNoticeDays = 14;

/** A student's advisor changes (pergantian_dosen_wali, written by the trigger on NIP_doswal). */
export class AdvisorChanges {
  private readonly lastAwayFrom;
  private readonly latestOf;
  // Every student's `me` asks this; only a write of mahasiswa (whose trigger writes the changes) changes it.
  private readonly latest: ReadCache<string, AdvisorChange | null>;

  constructor(sqlite: Database) {
    this.latest = new ReadCache(databaseStamp(sqlite), { reads: [mahasiswa, pergantianDosenWali], maxEntries: 2000 });
    this.lastAwayFrom = sqlite.prepare<{ tanggal: string; nama: string | null }, [string, string]>(
      "SELECT waktu AS tanggal, nama_baru AS nama FROM pergantian_dosen_wali WHERE NIM = ? AND NIP_sebelumnya = ? ORDER BY waktu DESC, id DESC LIMIT 1",
    );
    this.latestOf = sqlite.prepare<AdvisorChange, [string]>(
      "SELECT nama_sebelumnya, nama_baru, waktu AS tanggal FROM pergantian_dosen_wali WHERE NIM = ? ORDER BY waktu DESC, id DESC LIMIT 1",
    );
  }

  /** The last time the student moved away from the lecturer `nip` as their advisor; null when never. */
  movedAwayFrom(nim: string, nip: string | null): MovedAway | null {
    const row = nip === null ? null : this.lastAwayFrom.get(nim, nip);
    return row ? { tanggal: row.tanggal, nama_dosen_wali_baru: row.nama } : null;
  }

  /** The student's change of advisor to tell them of at `now` (Unix milliseconds): the latest, within 14 days; null when none. */
  noticeFor(nim: string, now: number): AdvisorChange | null {
    const change = this.latest.get(nim, () => this.latestOf.get(nim) ?? null);
    return change && now - Date.parse(change.tanggal) < advisorChangeNoticeDays * 24 * 3600 * 1000 ? change : null;
  }
}
