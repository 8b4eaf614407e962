import type { Database } from "bun:sqlite";
import { t } from "elysia";

/**
 * What a student is told about the follow-up of a screening (decisions §13): null when no
 * case is open; otherwise whether this screening opened it, and who was alerted — their
 * advisor, another lecturer an admin handed the case to, or the faculty's admins (a student
 * without an advisor). Nothing of the case itself (status, notes) reaches the student.
 */
export type TindakLanjutReach = { dibuka_oleh_skrining_ini: boolean; penerima: "dosen_wali" | "dosen_lain" | "admin" } | null;

export const TindakLanjutReachSchema = t.Nullable(
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

export class TindakLanjutReachReader {
  // Two lookups, not one join: in a submission's job the join cost five times both together.
  private readonly openCaseOf;
  private readonly advisorOf;

  constructor(sqlite: Database) {
    this.openCaseOf = sqlite.prepare<{ screeningId: number | null; handler: string | null }, [string]>(
      "SELECT Id_skrining AS screeningId, NIP AS handler FROM tindak_lanjut WHERE NIM = ? AND status <> 'selesai'",
    );
    this.advisorOf = sqlite.prepare<{ advisor: string | null }, [string]>("SELECT NIP_doswal AS advisor FROM mahasiswa WHERE NIM = ?");
  }

  /** For the screening `screeningId` of `nim`, as it stands now. */
  of(nim: string, screeningId: number): TindakLanjutReach {
    const open = this.openCaseOf.get(nim);
    if (!open) return null;
    const penerima = open.handler === null ? "admin" : open.handler === this.advisorOf.get(nim)?.advisor ? "dosen_wali" : "dosen_lain";
    return { dibuka_oleh_skrining_ini: open.screeningId === screeningId, penerima };
  }
}
