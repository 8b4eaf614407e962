import { t } from "elysia";

// Bodies are read leniently and checked by the service with the interface's exact texts
// and order; these schemas describe the documented fields for the OpenAPI document.
const anyValue = (description: string) => t.Optional(t.Any({ description }));

export const MoodEntry = t.Object(
  {
    id: t.Integer(),
    nim: t.String(),
    date: t.String({ description: "YYYY-MM-DD" }),
    mood_value: t.Integer({ minimum: 1, maximum: 5 }),
    created_at: t.String(),
    updated_at: t.String(),
  },
  { additionalProperties: false },
);

export const MoodList = t.Array(MoodEntry);

export const MoodCreateBody = t.Object(
  {
    date: anyValue("YYYY-MM-DD, required"),
    mood_value: anyValue("integer 1-5 (a digit string is accepted), required"),
    nim: anyValue("string, required for admin, ignored for students"),
  },
  { additionalProperties: true },
);

export const MoodUpdateBody = t.Object(
  {
    date: anyValue("YYYY-MM-DD, optional"),
    mood_value: anyValue("integer 1-5, optional"),
  },
  { additionalProperties: true },
);
