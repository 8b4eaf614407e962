import { followUpStatuses, type TindakLanjutStatus } from "../../db/schema";
import { invalid } from "../../errors";
import { exceedsCharacters, type JsonObject } from "../../requests/values";
import { attemptsBeforeNoResponse, caseNoteMaxLength, closingReasons, contactOutcomes, supportJudgements, type ClosingReason, type ContactOutcome } from "./moves";

export const statusChangeMessages = {
  badStatus: `status harus salah satu dari: ${followUpStatuses.join(", ")}.`,
  noteRequired: "catatan wajib diisi.",
  noteTooLong: "catatan paling banyak 2000 karakter.",
  outcomeRequired: `hasil_kontak wajib diisi untuk status dihubungi: ${contactOutcomes.join(", ")}.`,
  reasonRequired: `alasan_selesai wajib diisi untuk menutup tindak lanjut: ${closingReasons.join(", ")}.`,
  judgementRequired: `perlu_dukungan wajib diisi untuk menutup tindak lanjut: ${supportJudgements.join(" atau ")}.`,
  tooFewAttempts: (attempts: number) =>
    `alasan_selesai tidak_merespons baru boleh dipakai setelah paling sedikit ${attemptsBeforeNoResponse} percobaan kontak tercatat (status dihubungi); baru ${attempts} tercatat.`,
} as const;

/** A status change as its body asks it (decisions §19): the move, its note, and what the move records. */
export interface StatusChange {
  to: TindakLanjutStatus;
  catatan: string;
  /** A move to `dihubungi`: how the contact went. */
  hasilKontak: ContactOutcome | null;
  /** A move to `selesai`: why, and whether the student needed support. */
  alasanSelesai: ClosingReason | null;
  perluDukungan: boolean | null;
}

const oneOf = <Value extends string>(values: readonly Value[], value: unknown): value is Value => typeof value === "string" && (values as readonly string[]).includes(value);

/**
 * The body's checks, each a 400 in this order: `status`, `catatan` (1–2000 characters after
 * trimming), then what the target asks for: `hasil_kontak` for `dihubungi`, `alasan_selesai`
 * and `perlu_dukungan` for `selesai` (`lainnya` is explained in the note, which every change
 * has). Keys a target does not ask for are ignored.
 */
export function readStatusChange(body: JsonObject): StatusChange {
  if (!oneOf(followUpStatuses, body.status)) throw invalid(statusChangeMessages.badStatus);
  const to = body.status;
  const catatan = typeof body.catatan === "string" ? body.catatan.trim() : "";
  if (catatan === "") throw invalid(statusChangeMessages.noteRequired);
  if (exceedsCharacters(catatan, caseNoteMaxLength)) throw invalid(statusChangeMessages.noteTooLong);
  const change: StatusChange = { to, catatan, hasilKontak: null, alasanSelesai: null, perluDukungan: null };
  if (to === "dihubungi") {
    if (!oneOf(contactOutcomes, body.hasil_kontak)) throw invalid(statusChangeMessages.outcomeRequired);
    change.hasilKontak = body.hasil_kontak;
  }
  if (to === "selesai") {
    if (!oneOf(closingReasons, body.alasan_selesai)) throw invalid(statusChangeMessages.reasonRequired);
    if (!oneOf(supportJudgements, body.perlu_dukungan)) throw invalid(statusChangeMessages.judgementRequired);
    change.alasanSelesai = body.alasan_selesai;
    change.perluDukungan = body.perlu_dukungan === "ya";
  }
  return change;
}

/** Decisions §19: closing for want of a response needs the attempts to show it; checked after the move is known to be allowed. */
export function assertClosingFits(change: StatusChange, attempts: number): void {
  if (change.alasanSelesai === "tidak_merespons" && attempts < attemptsBeforeNoResponse) throw invalid(statusChangeMessages.tooFewAttempts(attempts));
}
