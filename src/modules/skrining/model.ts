import { t } from "elysia";
import { bodyField } from "../../http/documentation";
import { SkriningRecord, level } from "../../records";

export const KuesionerBody = t.Object(
  {
    jawaban: bodyField("object: S1..S40 (1-5), M1..M28 (1-7), optional freq_olahraga, durasi_tidur"),
    NIM: bodyField("string, required for admin"),
  },
  { additionalProperties: true },
);

export const KuesionerResponse = t.Object({
  message: t.String(),
  Id_skrining: t.Integer(),
  tingkat_stres: level,
  tingkat_motivasi: level,
  score_stress: t.Number(),
  score_sdi: t.Number(),
  saran: t.String(),
  detailed_suggestions: t.Array(t.String()),
});

export const WeeklyLimitResponse = t.Object({
  error: t.Literal("Batasan Mingguan"),
  message: t.String(),
  last_submission_date: t.String(),
  days_remaining: t.Integer(),
});

export const CanSubmitResponse = t.Object({
  can_submit: t.Boolean(),
  message: t.String(),
  last_submission_date: t.Nullable(t.String()),
  days_remaining: t.Integer(),
});

export const HistoryResponse = t.Object({
  data: t.Array(SkriningRecord),
  total: t.Integer(),
  page: t.Integer(),
  total_pages: t.Integer(),
});

export const HistoryQuery = t.Object(
  {
    nim: t.Optional(t.String({ description: "admin only" })),
    page: t.Optional(t.String({ description: "integer, default 1" })),
    per_page: t.Optional(t.String({ description: "integer, default 10, at most 100" })),
  },
  { additionalProperties: true },
);

export const SuggestionsQuery = t.Object(
  { stress: t.Optional(t.String()), motivation: t.Optional(t.String()) },
  { additionalProperties: true },
);

export const SuggestionsResponse = t.Object({ suggestions: t.Array(t.String()) });
