import { eq, sql } from "drizzle-orm";
import type { Static } from "elysia";
import { databaseStamp, ReadCache } from "../db/read-cache";
import type { DatabaseClient } from "../db";
import { mahasiswa } from "../db/schema";
import { forbidden } from "../errors";
import type { Principal } from "../requests/principal";
import type { MahasiswaRecord } from "../records";
import { preparedOnFirstUse } from "../db/prepared";

export const restrictionMessages = {
  /** The answer to staff reading or writing a restricted student's data (decisions: Privacy commands and restriction). */
  staffRefused:
    "Pemrosesan data mahasiswa ini sedang dibatasi atas permintaannya; dosen dan admin tidak dapat melihat atau mengubah datanya selama pembatasan berlaku.",
} as const;

/**
 * UU PDP's restriction of processing (`skrining privacy restrict`): while
 * `mahasiswa.dibatasi_sejak` is set, the student keeps every right to their own data, and
 * staff (lecturers and admins) neither read nor write it through the service; the lecturer
 * list and detail show only that the student is restricted, and statistics leave the
 * student out.
 */
export class ProcessingRestriction {
  private readonly restrictedAtOf;
  // Every staff read asks this; the answer changes only with a write, like the caller's.
  private readonly answers: ReadCache<string, string | null>;

  constructor(db: DatabaseClient) {
    this.restrictedAtOf = preparedOnFirstUse(() => db.select({ since: mahasiswa.restrictedAt }).from(mahasiswa).where(eq(mahasiswa.nim, sql.placeholder("nim"))).prepare());
    this.answers = new ReadCache(databaseStamp(db.$client), { reads: [mahasiswa], maxEntries: 2000 });
  }

  /** When the student's processing was restricted; null when it is not (or the NIM names nobody). */
  since(nim: string): string | null {
    return this.answers.get(nim, () => this.restrictedAtOf.get({ nim })?.since ?? null);
  }

  /** A lecturer or an admin acting on a restricted student's data is refused (403); the student never is. */
  assertStaffMay(principal: Principal, nim: string): void {
    if (principal.role !== "mahasiswa" && this.since(nim) !== null) throw forbidden(restrictionMessages.staffRefused);
  }
}

/**
 * What a lecturer's list and detail show of a restricted student: who the student is
 * (NIM, name, class, cohort, department, advisor, account), every other field null.
 */
export function withheldProfile(record: Static<typeof MahasiswaRecord>): Static<typeof MahasiswaRecord> {
  return { ...record, IPK: null, foto_profil: null, gender: null, usia: null, freq_olahraga: null, durasi_tidur: null };
}
