import { and, count, eq, or, sql, type SQL } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import { catatanKonseling, mahasiswa } from "../../db/schema";
import { preparedOnFirstUse } from "../../db/prepared";

/** The NIP of the student of a note's row, as a correlated subquery: their advisor now. */
const advisorOfNote = sql`(SELECT ${mahasiswa.nipDoswal} FROM ${mahasiswa} WHERE ${mahasiswa.nim} = ${catatanKonseling.nim})`;

/**
 * Decisions §13 and §19, one rule: a reply is new for the note's author until they have
 * seen it as it stands (`balasan_dibaca_dosen_pada`), and, when another lecturer wrote the
 * note, for the student's current advisor until they have (`balasan_dilihat_doswal` names
 * them). An admin sees no reply as new. `nip` is the lecturer, as a placeholder or a value.
 */
export function replyIsNewFor(nip: SQL | SQL.Aliased | ReturnType<typeof sql.placeholder> | string): SQL {
  return sql`(${catatanKonseling.reply} <> '' AND (
    (${catatanKonseling.nip} = ${nip} AND ${catatanKonseling.balasanDibacaDosenPada} IS NULL)
    OR (${catatanKonseling.nip} <> ${nip} AND ${catatanKonseling.balasanDilihatDoswal} IS NOT ${nip} AND ${advisorOfNote} = ${nip})))`;
}

/** The students of a lecturer's notes and advisees: where a reply new for them can be. */
const ofLecturer = (nip: ReturnType<typeof sql.placeholder>) =>
  or(eq(catatanKonseling.nip, nip), sql`${catatanKonseling.nim} IN (SELECT ${mahasiswa.nim} FROM ${mahasiswa} WHERE ${mahasiswa.nipDoswal} = ${nip})`);

/** Students whose processing is not restricted: staff learn nothing of the others. */
const unrestrictedStudent = sql`NOT EXISTS (SELECT 1 FROM ${mahasiswa} WHERE ${mahasiswa.nim} = ${catatanKonseling.nim} AND ${mahasiswa.restrictedAt} IS NOT NULL)`;

/**
 * Counts of replies new for a lecturer, per student: on a page of advisees or of cases (one
 * query for the page), and over everyone the lecturer wrote to or advises (the first page's
 * "who replied"). A restricted student counts nowhere.
 */
export class NewReplies {
  private readonly forStudents;
  private readonly forLecturer;

  constructor(db: DatabaseClient) {
    const nip = sql.placeholder("nip");
    this.forStudents = preparedOnFirstUse(() =>
      db
        .select({ nim: catatanKonseling.nim, replies: count() })
        .from(catatanKonseling)
        .where(and(sql`${catatanKonseling.nim} IN (SELECT value FROM json_each(${sql.placeholder("nims")}))`, replyIsNewFor(nip), unrestrictedStudent))
        .groupBy(catatanKonseling.nim)
        .prepare(),
    );
    this.forLecturer = preparedOnFirstUse(() =>
      db
        .select({ nim: catatanKonseling.nim, replies: count(), latest: sql<string>`max(${catatanKonseling.tanggalReply})` })
        .from(catatanKonseling)
        .where(and(ofLecturer(nip), replyIsNewFor(nip), unrestrictedStudent))
        .groupBy(catatanKonseling.nim)
        .prepare(),
    );
  }

  /** Per NIM of `nims`, the replies new for `nip` (a NIM without any is absent). */
  countsFor(nip: string | null, nims: readonly string[]): Map<string, number> {
    if (nip === null || nims.length === 0) return new Map();
    return new Map(this.forStudents.all({ nip, nims: JSON.stringify(nims) }).map((row) => [row.nim, row.replies]));
  }

  /** Every student with a reply new for `nip`, the latest reply first. */
  studentsFor(nip: string): { nim: string; replies: number; latest: string }[] {
    return this.forLecturer.all({ nip }).sort((a, b) => (a.latest < b.latest ? 1 : a.latest > b.latest ? -1 : a.nim.localeCompare(b.nim)));
  }
}
