import { Type } from "@sinclair/typebox";
import { t } from "elysia";

export const Question = t.Object(
  {
    key: t.String({ description: "S1..S40 or M1..M28" }),
    text: t.String(),
    scale: t.Object({ min: Type.Integer(), max: Type.Integer() }, { additionalProperties: false }),
    group: t.Union([t.Literal("stress"), t.Literal("motivasi")]),
  },
  { additionalProperties: false },
);

export const QuestionsResponse = t.Array(Question);
