import { eq, sql } from "drizzle-orm";
import type { DatabaseClient } from "../db";
import { mahasiswa } from "../db/schema";
import type { Principal } from "../modules/auth/service";
import { ServiceError, forbidden } from "../errors";

export const ownershipMessages = {
  denied: "Akses ditolak.",
  notAdvisee: "Mahasiswa bukan bimbingan Anda.",
} as const;

/**
 * The interface's own-nim rule: a student may only name their own NIM in a path; other
 * roles are not restricted by it. A student account without a profile owns no NIM.
 */
export function assertOwnNim(principal: Principal, nim: string): void {
  if (principal.role === "mahasiswa" && principal.nim !== nim) throw forbidden(ownershipMessages.denied);
}

/**
 * Who may read a student's data (the own-nim rule tightened by decisions §9): a student
 * only themselves, a lecturer only their own advisees, an admin anyone.
 */
export class StudentAccess {
  private readonly advisorOf;

  constructor(db: DatabaseClient) {
    this.advisorOf = db.select({ nip: mahasiswa.nipDoswal }).from(mahasiswa).where(eq(mahasiswa.nim, sql.placeholder("nim"))).prepare();
  }

  /**
   * The own-nim rule first (a student naming another NIM is refused even when it does not
   * exist), then `unknownStudent` for a NIM nobody has, then the advisor scope. A route
   * without its own 404 for an unknown student passes null: to a lecturer an unknown NIM
   * is then simply not an advisee.
   */
  assertMayRead(principal: Principal, nim: string, unknownStudent: ServiceError | null): void {
    assertOwnNim(principal, nim);
    if (unknownStudent === null && principal.role !== "dosen") return;
    const student = this.advisorOf.get({ nim });
    if (!student && unknownStudent) throw unknownStudent;
    if (principal.role === "dosen" && (!student || principal.nip === null || student.nip !== principal.nip)) {
      throw forbidden(ownershipMessages.notAdvisee);
    }
  }
}
