import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { SkriningRecord, ValidityRecord, level } from "../../records";
import { defaultQuestions } from "../../skrining/questions";
import { TindakLanjutReachSchema } from "../tindak-lanjut/reach";

// Request bodies and query strings are documentation only (src/http/documentation.ts): the
// services read them leniently and answer with the interface's own texts.

/** Every item of the questionnaire, each required, on its own scale (src/skrining/questions.ts). */
const answers = Object.fromEntries(
  defaultQuestions.map((question) => [
    question.key,
    Type.Integer({ minimum: question.scale.min, maximum: question.scale.max, description: `${question.group}; a string of digits is accepted` }),
  ]),
);

export const KuesionerBody = t.Object({
  jawaban: t.Object(
    {
      ...answers,
      freq_olahraga: t.Optional(t.String({ maxLength: 50, description: "also written to the profile" })),
      durasi_tidur: t.Optional(t.String({ maxLength: 50, description: "also written to the profile" })),
    },
    { additionalProperties: true, description: "other keys are kept in input_jawaban, not scored" },
  ),
  NIM: t.Optional(t.String({ description: "admin: required, the student submitted for; ignored for students" })),
  // Decisions §20, additions:
  durasi_detik: t.Optional(t.Number({ minimum: 0, description: "seconds from the first item to sending (the web client sends it); under 2 seconds an item marks the screening `terlalu_cepat`" })),
  jawaban_keselamatan: t.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 5,
      description: "the safety question's answer while an admin has it on (GET /api/kuesioner/keselamatan): 3 or more opens an urgent case; optional even then; ignored while it is off",
    }),
  ),
});

/** Decisions §20: where a student with a critical answer is pointed first (the contact `safety on` named); null otherwise. */
export const UrgentHelpSchema = t.Nullable(
  t.Object({ nama: t.Nullable(t.String()), telepon: t.Nullable(t.String()) }, { additionalProperties: false }),
  { description: "decisions §20: the safety question was answered 3 or more; the person who answers the same day" },
);

export const KuesionerResponse = t.Object(
  {
    message: t.String(),
    Id_skrining: Type.Integer(),
    tingkat_stres: level,
    tingkat_motivasi: level,
    score_stress: t.Number(),
    score_sdi: t.Number(),
    saran: t.String(),
    detailed_suggestions: t.Array(t.String()),
    tindak_lanjut: TindakLanjutReachSchema,
    // Decisions §20, additions: as on the screening record.
    validitas: ValidityRecord,
    perubahan_andal: SkriningRecord.properties.perubahan_andal,
    persentil_stres: SkriningRecord.properties.persentil_stres,
    persentil_motivasi: SkriningRecord.properties.persentil_motivasi,
    bantuan_segera: UrgentHelpSchema,
  },
  { additionalProperties: false },
);

/** The latest screening, whether a person was alerted (an addition of decisions §13), and where to get help at once (§20). */
export const HasilResponse = t.Object({ ...SkriningRecord.properties, tindak_lanjut: TindakLanjutReachSchema, bantuan_segera: UrgentHelpSchema }, { additionalProperties: false });

export const WeeklyLimitResponse = t.Object(
  {
    error: t.Literal("Batasan Mingguan"),
    message: t.String(),
    last_submission_date: t.String({ description: "ISO 8601, UTC" }),
    days_remaining: Type.Integer(),
  },
  { additionalProperties: false },
);

export const CanSubmitResponse = t.Object(
  {
    can_submit: t.Boolean(),
    message: t.String(),
    last_submission_date: t.Nullable(t.String({ description: "ISO 8601, UTC" })),
    days_remaining: Type.Integer(),
  },
  { additionalProperties: false },
);

export const HistoryResponse = t.Object(
  {
    data: t.Array(SkriningRecord),
    total: Type.Integer(),
    page: Type.Integer(),
    total_pages: Type.Integer(),
  },
  { additionalProperties: false },
);

export const HistoryQuery = t.Object({
  nim: t.Optional(t.String({ description: "admin: required; students see their own" })),
  page: t.Optional(Type.Integer({ minimum: 1, default: 1, description: "another value means the default" })),
  per_page: t.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10, description: "above 100 means 100; another value the default" })),
});

export const SuggestionsQuery = t.Object({
  stress: t.String({ description: "Rendah, Sedang or Tinggi; another text gets general suggestions" }),
  motivation: t.String({ description: "Rendah, Sedang or Tinggi; another text gets general suggestions" }),
});

export const SuggestionsResponse = t.Object({ suggestions: t.Array(t.String()) }, { additionalProperties: false });
