// The moves a follow-up case may make, what a contact and a closing record, and the longest
// note. Kept apart from the service because the web interface's status form offers the same
// choices: this file imports nothing of the server, so the browser's bundle can take it as
// it is. The values of the case's columns are the table's (src/db/tables/tindak-lanjut-values.ts).
import { closingReasons, contactOutcomes, type ClosingReason, type ContactOutcome, type TindakLanjutStatus } from "../../db/tables/tindak-lanjut-values";

export { closingReasons, contactOutcomes, type ClosingReason, type ContactOutcome };

/** A case note holds at most this many characters. */
export const caseNoteMaxLength = 2000;

/**
 * The moves a case may make (decisions: Follow-up cases, §19); `selesai` → `baru` reopens
 * it, `dihubungi` → `dihubungi` records one more contact attempt.
 */
export const allowedMoves: Readonly<Record<TindakLanjutStatus, readonly TindakLanjutStatus[]>> = {
  baru: ["dihubungi", "dirujuk", "selesai"],
  dihubungi: ["dihubungi", "dirujuk", "selesai"],
  dirujuk: ["selesai"],
  selesai: ["baru"],
};

/** The outcomes that count as the first contact (`pertama_dihubungi_pada`): the student was reached. */
export const reachingOutcomes: readonly ContactOutcome[] = ["berhasil", "dijadwalkan"];

/** Closing as `tidak_merespons` needs at least this many contact attempts recorded in the episode. */
export const attemptsBeforeNoResponse = 3;

/** The handler's judgement at closing (`perlu_dukungan`): whether the student needed support. */
export const supportJudgements = ["ya", "tidak"] as const;
export type SupportJudgement = (typeof supportJudgements)[number];

/**
 * Everything that can open a case; `permintaan_mahasiswa` is the student's own request (POST
 * /api/mahasiswa/minta-kontak); `memburuk_andal` a reliably worse stress score and
 * `butir_kritis` a critical answer to the safety question (decisions §20).
 */
export const caseReasons = ["early_warning", "perubahan_mendadak", "stres_sangat_tinggi", "permintaan_mahasiswa", "memburuk_andal", "butir_kritis"] as const;
export type CaseReason = (typeof caseReasons)[number];

/** The longest message a student's request for contact carries (decisions §19, POST /api/mahasiswa/minta-kontak). */
export const requestMessageMaxLength = 1000;
