import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { followUpStatuses, type TindakLanjutStatus } from "../../db/schema";
import { level } from "../../records";
import { caseNoteMaxLength, caseReasons, closingReasons, contactOutcomes, supportJudgements, type CaseReason } from "./moves";

// Request bodies and query strings are documentation only (src/http/documentation.ts): the
// service reads them leniently and answers with its own texts.

/** One of the four statuses, as a string with an enum (a union of literals loses `null` beside it in the document). */
const status = Type.Unsafe<TindakLanjutStatus>(t.String({ enum: [...followUpStatuses], description: "every status but `selesai` is open" }));
const timestamp = (description: string) => t.String({ description: `UTC, ISO 8601; ${description}` });
/** One of a list of words, as a string with an enum that may also be null (see `status`). */
const nullableWord = (values: readonly string[], description: string) => t.Nullable(t.String({ enum: [...values, null], description }));
const word = (values: readonly string[], description: string) => t.String({ enum: [...values], description });

export const TindakLanjutCase = t.Object(
  {
    id: Type.Integer({ description: "the case's id" }),
    NIM: t.String(),
    nama_mahasiswa: t.Nullable(t.String()),
    NIP: t.Nullable(t.String({ description: "the handler (penangan): the advisor at opening, or the lecturer an admin handed it to; null when the student had no advisor (only admins act on it)" })),
    nama_dosen: t.Nullable(t.String({ description: "the handler's name" })),
    alasan: t.Array(Type.Unsafe<CaseReason>(t.String({ enum: [...caseReasons] })), {
      description:
        "what opened the case: stress Tinggi with motivation Rendah, score_stress 30 or more above the previous screening, score_stress at or above the follow-up threshold (160 by default), the student's own request (decisions §19), a reliably worse stress score ending at Sedang or Tinggi, the safety question answered 3 or more (decisions §20); empty while the student is restricted",
    }),
    status,
    dibuka_pada: timestamp("when the case (or its reopening) opened"),
    pertama_dihubungi_pada: t.Nullable(timestamp("the first contact that reached the student (`berhasil` or `dijadwalkan`) since it opened; a referral never sets it")),
    ditutup_pada: t.Nullable(timestamp("when it moved to `selesai`")),
    diperbarui_pada: timestamp("the last change"),
    hari_terbuka: Type.Integer({ description: "whole days from dibuka_pada to ditutup_pada, or to now while open" }),
    dibatasi: t.Boolean({ description: "the student's processing is restricted (`privacy restrict`): listed only; detail and changes answer 403" }),
    NIP_doswal: t.Nullable(t.String({ description: "the student's advisor (dosen wali) now; may differ from the handler" })),
    nama_doswal: t.Nullable(t.String({ description: "the advisor's name" })),
    dapat_diubah: t.Boolean({ description: "the caller may change the status: an open case's handler, a closed case's current advisor (to reopen it), an admin" }),
    // Decisions §19, additions:
    batas_kontak_pada: timestamp(
      "the contact target: dibuka_pada plus `serve --follow-up-contact-days` (3 by default); while `segera`, the end of the day of the critical answer in the faculty's zone",
    ),
    terlambat: t.Boolean({ description: "open, and not reached by its contact target (or not since a critical answer, by the end of that day); computed when read" }),
    percobaan_kontak: Type.Integer({ description: "contact attempts (moves to `dihubungi`) recorded since the case (or its reopening) opened" }),
    alasan_selesai: nullableWord(closingReasons, "why the case was closed; null while open, and for a case closed before reasons were recorded (\"tidak dicatat\")"),
    perlu_dukungan: nullableWord(supportJudgements, "the handler's judgement at closing: the student needed support; null as alasan_selesai"),
    baru_ditutup: t.Boolean({ description: "closed by another handler and not yet opened by the caller as the student's advisor" }),
    balasan_baru: Type.Integer({ description: "the student's replies new for the caller: to their notes, or as the advisor to the other lecturers'" }),
    permintaan_menunggu: t.Boolean({ description: "open, and the student asked to be contacted (POST /api/mahasiswa/minta-kontak) with no staff entry since" }),
    // Decisions §20, addition:
    segera: t.Boolean({ description: "open, and a critical answer to the safety question asks for a contact the same day that has not reached the student yet" }),
  },
  { additionalProperties: false },
);

const TimelineEntry = t.Object(
  {
    jenis: word(
      ["dibuka", "status", "percobaan_kontak", "permintaan_mahasiswa", "penangan", "butir_kritis"],
      "the opening, a move, another contact attempt, the student's request for contact, a change of handler, a critical answer that made the open case urgent",
    ),
    // The document folds a nullable enum into `type: [string, null]`; the enum names null itself so that null stays valid there.
    status_dari: t.Nullable(t.String({ enum: [...followUpStatuses, null], description: "null for the opening" })),
    status_ke: status,
    catatan: t.String({ description: "internal note, staff only; never shown to the student" }),
    oleh: t.String({ description: "the author's name now (a lecturer's or a student's; `Admin fakultas`; `Sistem` for what the service does by itself)" }),
    waktu: timestamp("when"),
    hasil_kontak: nullableWord(contactOutcomes, "a contact attempt's outcome; null on other entries and on moves recorded before outcomes were"),
    alasan_selesai: nullableWord(closingReasons, "a closing's reason"),
    perlu_dukungan: nullableWord(supportJudgements, "a closing's judgement"),
  },
  { additionalProperties: false },
);

const RecentLevels = t.Object(
  {
    tanggal: timestamp("the screening's tanggal_skrining"),
    tingkat_stres: level,
    tingkat_motivasi: level,
    early_warning: t.Boolean({ description: "a sudden change against the screening before it, or stress Tinggi with motivation Rendah" }),
  },
  { additionalProperties: false },
);

export const TindakLanjutDetail = t.Object(
  {
    ...TindakLanjutCase.properties,
    riwayat: t.Array(TimelineEntry, { description: "oldest first" }),
    tingkat_terakhir: t.Array(RecentLevels, { description: "the student's last 5 screenings, newest first" }),
  },
  { additionalProperties: false },
);

export const TindakLanjutList = t.Object(
  {
    data: t.Array(TindakLanjutCase, { description: "open cases first, oldest first; then closed cases, last closed first" }),
    pagination: t.Object(
      { total: Type.Integer(), page: Type.Integer(), per_page: Type.Integer(), total_pages: Type.Integer() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const TindakLanjutQuery = t.Object({
  status: t.Optional(t.String({ description: `comma-separated statuses (${followUpStatuses.join(", ")}); default every status` })),
  min_hari: t.Optional(Type.Integer({ minimum: 0, description: "only cases with hari_terbuka at least this" })),
  nip: t.Optional(t.String({ description: "admin only: the handler's NIP; ignored for lecturers, who see the cases they handle and their advisees' cases" })),
  page: t.Optional(Type.Integer({ minimum: 1, default: 1, description: "another value means the default" })),
  per_page: t.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: "above 100 means 100; another value the default" })),
});

export const StatusBody = t.Object({
  status,
  catatan: t.String({ minLength: 1, maxLength: caseNoteMaxLength, description: "trimmed; the internal note of this change (for alasan_selesai `lainnya`: the reason)" }),
  hasil_kontak: t.Optional(word(contactOutcomes, "required for `dihubungi`: how the contact went; `dihubungi` → `dihubungi` records another attempt")),
  alasan_selesai: t.Optional(word(closingReasons, "required for `selesai`; `tidak_merespons` after at least 3 recorded attempts")),
  perlu_dukungan: t.Optional(word(supportJudgements, "required for `selesai`: whether the student needed support")),
});

export const OwnerBody = t.Object({ NIP: t.String({ description: "the lecturer who takes the case over" }) });

const figures = {
  terbuka: Type.Integer({ description: "open cases" }),
  baru: Type.Integer({ description: "open cases still `baru`" }),
  lebih_dari_7_hari: Type.Integer({ description: "open cases opened more than 7 days ago" }),
  terlambat: Type.Integer({ description: "decisions §19: open cases not yet reached whose contact target has passed" }),
  median_hari_ke_kontak_pertama: t.Nullable(
    t.Number({ description: "median days from an opening to the first contact that reached the student, one decimal, over all time; null when none" }),
  ),
};

export const TindakLanjutSummary = t.Object(
  {
    per_dosen: t.Array(
      t.Object(
        { NIP: t.Nullable(t.String({ description: "null: the cases without an owner" })), nama_dosen: t.Nullable(t.String()), ...figures },
        { additionalProperties: false },
      ),
      { description: "an admin: every lecturer by NIP; a lecturer: their own row" },
    ),
    fakultas: t.Object(figures, { additionalProperties: false, description: "the same figures over every row the caller sees" }),
  },
  { additionalProperties: false },
);
