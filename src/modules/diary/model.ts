import { t } from "elysia";
import { bodyField } from "../../http/documentation";
import { DiaryEntry } from "../../records";

export const DiaryList = t.Array(DiaryEntry);

export const DiaryCreateBody = t.Object(
  {
    date: bodyField("YYYY-MM-DD, required"),
    content: bodyField("string, not blank, at most 20000 characters, required"),
    title: bodyField("string, at most 200 characters, default empty"),
    nim: bodyField("string, required for admin, ignored for students"),
  },
  { additionalProperties: true },
);

export const DiaryUpdateBody = t.Object(
  {
    date: bodyField("YYYY-MM-DD, optional"),
    content: bodyField("string, not blank, at most 20000 characters, optional"),
    title: bodyField("string, at most 200 characters, optional"),
  },
  { additionalProperties: true },
);
