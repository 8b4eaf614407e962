import { t } from "elysia";

export const Question = t.Object({
  key: t.String({ description: "S1..S40 or M1..M28" }),
  text: t.String(),
  scale: t.Object({ min: t.Integer(), max: t.Integer() }),
  group: t.Union([t.Literal("stress"), t.Literal("motivasi")]),
});

export const QuestionsResponse = t.Array(Question);
