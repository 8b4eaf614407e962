import { t } from "elysia";
import { MoodEntry } from "../../records";

// Bodies are read leniently and checked by the service with the interface's exact texts
// and order; these schemas describe the documented fields for the OpenAPI document.
const anyValue = (description: string) => t.Optional(t.Any({ description }));

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
