import { t } from "elysia";
import { bodyField } from "../../http/documentation";
import { MoodEntry } from "../../records";

export const MoodList = t.Array(MoodEntry);

export const MoodCreateBody = t.Object(
  {
    date: bodyField("YYYY-MM-DD, required"),
    mood_value: bodyField("integer 1-5 (a digit string is accepted), required"),
    nim: bodyField("string, required for admin, ignored for students"),
  },
  { additionalProperties: true },
);

export const MoodUpdateBody = t.Object(
  {
    date: bodyField("YYYY-MM-DD, optional"),
    mood_value: bodyField("integer 1-5, optional"),
  },
  { additionalProperties: true },
);
