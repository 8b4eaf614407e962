import { t } from "elysia";
import { calendarDate } from "../../http/documentation";
import { MoodEntry } from "../../records";

// Request bodies are documentation only (src/http/documentation.ts `jsonBody`): the
// service reads them leniently and answers with the interface's own texts.

export const MoodList = t.Array(MoodEntry);

/** The entry's own rule for the value (1 to 5), as the body may give it. */
const moodValue = { ...MoodEntry.properties.mood_value, description: "a string of digits is accepted" };

export const MoodCreateBody = t.Object({
  date: calendarDate("one entry per date: a second write replaces the value"),
  mood_value: moodValue,
  nim: t.Optional(t.String({ description: "admin: required, the student written for; ignored for students" })),
});

export const MoodUpdateBody = t.Object({
  date: t.Optional(calendarDate("no other entry of the student may have it")),
  mood_value: t.Optional(moodValue),
});
