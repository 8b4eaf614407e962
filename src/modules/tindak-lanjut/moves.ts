// The moves a follow-up case may make and the longest note. Kept apart from the service
// because the web interface's status form offers the same choices: this file imports
// nothing of the server, so the browser's bundle can take it as it is.
import type { FollowUpStatus } from "../../db/schema";

/** A case note holds at most this many characters. */
export const caseNoteMaxLength = 2000;

/** The moves a case may make (decisions: Follow-up cases); `selesai` → `baru` reopens it. */
export const allowedMoves: Readonly<Record<FollowUpStatus, readonly FollowUpStatus[]>> = {
  baru: ["dihubungi", "dirujuk", "selesai"],
  dihubungi: ["dirujuk", "selesai"],
  dirujuk: ["selesai"],
  selesai: ["baru"],
};
