import type { Database } from "bun:sqlite";
import { mahasiswa, tindakLanjut } from "../db/schema";
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
    this.answers = new ReadCache(databaseStamp(sqlite), { reads: [mahasiswa, tindakLanjut] });
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
