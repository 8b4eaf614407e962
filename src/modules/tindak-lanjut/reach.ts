import type { Database } from "bun:sqlite";
import { t } from "elysia";

/**
 * What a student is told about the follow-up of a screening (decisions §13): null when no
 * case is open; otherwise whether this screening opened it, and who was alerted — their
 * advisor, another lecturer an admin handed the case to, or the faculty's admins (a student
 * without an advisor). Nothing of the case itself (status, notes) reaches the student.
 */
export type FollowUpReach = { dibuka_oleh_skrining_ini: boolean; penerima: "dosen_wali" | "dosen_lain" | "admin" } | null;

export const FollowUpReachSchema = t.Nullable(
  t.Object(
    {
      dibuka_oleh_skrining_ini: t.Boolean({ description: "this screening opened the case (false: a case opened earlier is still open)" }),
      penerima: t.Union([t.Literal("dosen_wali"), t.Literal("dosen_lain"), t.Literal("admin")], {
        description: "who handles it: the student's advisor, another lecturer (a counsellor an admin handed it to), or the admins (no advisor)",
      }),
    },
    { additionalProperties: false },
  ),
  { description: "decisions §13: whether a person was alerted; null when the student has no open follow-up case" },
);

export class FollowUpReachReader {
  private readonly openCaseOf;

  constructor(sqlite: Database) {
    this.openCaseOf = sqlite.prepare<{ screeningId: number | null; handler: string | null; advisor: string | null }, [string]>(
      `SELECT follow_up.Id_skrining AS screeningId, follow_up.NIP AS handler, student.NIP_doswal AS advisor
       FROM tindak_lanjut AS follow_up JOIN mahasiswa AS student ON student.NIM = follow_up.NIM
       WHERE follow_up.NIM = ? AND follow_up.status <> 'selesai'`,
    );
  }

  /** For the screening `screeningId` of `nim`, as it stands now. */
  of(nim: string, screeningId: number): FollowUpReach {
    const open = this.openCaseOf.get(nim);
    if (!open) return null;
    const penerima = open.handler === null ? "admin" : open.handler === open.advisor ? "dosen_wali" : "dosen_lain";
    return { dibuka_oleh_skrining_ini: open.screeningId === screeningId, penerima };
  }
}
