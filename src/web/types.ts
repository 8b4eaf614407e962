// The shapes the API answers with, as the interface reads them. The records come from the
// service's own schemas (src/records.ts), so the two cannot drift apart.
import type { Static } from "elysia";
import type { UserResponse } from "../auth/user";
import type { StudentData as StudentDataSchema } from "../modules/data-saya/model";
import type { HasilResponse } from "../modules/skrining/model";
import type { TindakLanjutDetail as TindakLanjutDetailSchema, TindakLanjutList, TindakLanjutSummary as TindakLanjutSummarySchema } from "../modules/tindak-lanjut/model";
import type { CatatanRecord, DiaryEntry, MahasiswaRecord, MoodEntry, SkriningRecord } from "../records";

export type { Level } from "../skrining/scoring";
export type Skrining = Static<typeof SkriningRecord>;
/** `GET /api/mahasiswa/hasil/<nim>`: the latest screening, and whether a person was alerted. */
export type Hasil = Static<typeof HasilResponse>;
export type Catatan = Static<typeof CatatanRecord>;
export type Mood = Static<typeof MoodEntry>;
export type Diary = Static<typeof DiaryEntry>;
export type Mahasiswa = Static<typeof MahasiswaRecord>;

/** `GET /api/dosen/tindak-lanjut`: a page of follow-up cases. */
export type TindakLanjutPage = Static<typeof TindakLanjutList>;
export type TindakLanjutCase = TindakLanjutPage["data"][number];
export type CaseStatus = TindakLanjutCase["status"];
/** `GET /api/dosen/tindak-lanjut/<id>`: a case with its history. */
export type TindakLanjutDetail = Static<typeof TindakLanjutDetailSchema>;
/** `GET /api/dosen/tindak-lanjut/ringkasan`. */
export type TindakLanjutSummary = Static<typeof TindakLanjutSummarySchema>;
export type TindakLanjutFigures = TindakLanjutSummary["fakultas"];

/** `GET /api/privasi/pemberitahuan`. */
export interface PrivacyNotice {
  version: string;
  title: string;
  /** Plain text; a blank line starts a new paragraph. */
  text: string;
  /** For a student: whether they acknowledged this version; null without a token. */
  acknowledged: boolean | null;
}

/** `GET /api/mahasiswa/data-saya`: everything skrining holds about the student. */
export type StudentData = Static<typeof StudentDataSchema>;

/** `GET /api/auth/me` and the `user` of a login. */
export type User = Static<typeof UserResponse>;

/** What every signed-in page gets from the shell (app.tsx): the user, the path's parameters, the query. */
export interface PageProps {
  user: User;
  params: Record<string, string>;
  search: URLSearchParams;
}
