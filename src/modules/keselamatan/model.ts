import { Type } from "@sinclair/typebox";
import { t } from "elysia";

/** Decisions §20: the safety question as the questionnaire's page reads it. */
export const SafetyQuestionResponse = t.Object(
  {
    aktif: t.Boolean({ description: "ask it after the 68 items, and send the answer as `jawaban_keselamatan`" }),
    pertanyaan: t.Nullable(t.String({ description: "the question; null while it is off" })),
    skala: t.Object({ min: Type.Integer(), max: Type.Integer() }, { additionalProperties: false }),
    pilihan: t.Array(t.String(), { description: "the scale's words, from min to max" }),
    kontak: t.Nullable(t.Object({ nama: t.String(), telepon: t.String() }, { additionalProperties: false, description: "who answers the same day; null while it is off" })),
  },
  { additionalProperties: false },
);

/** The setting as the console shows it. */
export const SafetyState = t.Object(
  {
    aktif: t.Boolean(),
    nama_kontak: t.Nullable(t.String()),
    telepon_kontak: t.Nullable(t.String()),
    diubah_pada: t.Nullable(t.String({ description: "UTC, ISO 8601; null until it was first changed" })),
  },
  { additionalProperties: false },
);

export const SafetySaved = t.Object({ message: t.String(), keselamatan: SafetyState }, { additionalProperties: false });
