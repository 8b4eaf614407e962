import { t } from "elysia";
import { calendarDate } from "../../http/documentation";
import { DiaryEntry } from "../../records";
import { contentMaxCharacters, titleMaxCharacters } from "./service";

// Request bodies are documentation only (src/http/documentation.ts `jsonBody`): the
// service reads them leniently and answers with the interface's own texts.

export const DiaryList = t.Array(DiaryEntry);

const title = t.String({ maxLength: titleMaxCharacters, description: "default empty" });
const content = t.String({ minLength: 1, maxLength: contentMaxCharacters, description: "not blank; a student's diary holds at most SKRINING_DIARY_QUOTA bytes of text" });

const dibagikan = t.Boolean({ description: "decisions §19: share the entry with the advisor (and the handler of an open case); false by default, staff read only shared entries" });

export const DiaryCreateBody = t.Object({
  date: calendarDate("any number of entries per date"),
  content,
  title: t.Optional(title),
  dibagikan: t.Optional(dibagikan),
  nim: t.Optional(t.String({ description: "admin: required, the student written for; ignored for students" })),
});

export const DiaryUpdateBody = t.Object({
  date: t.Optional(calendarDate("the new date")),
  content: t.Optional(content),
  title: t.Optional(title),
  dibagikan: t.Optional(dibagikan),
});
