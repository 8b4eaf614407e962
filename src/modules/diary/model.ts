import { t } from "elysia";
import { DiaryEntry } from "../../records";

// Bodies are read leniently and checked by the service with the interface's exact texts
// and order; these schemas describe the documented fields for the OpenAPI document.
const anyValue = (description: string) => t.Optional(t.Any({ description }));

export const DiaryList = t.Array(DiaryEntry);

export const DiaryCreateBody = t.Object(
  {
    date: anyValue("YYYY-MM-DD, required"),
    content: anyValue("string, not blank, at most 20000 characters, required"),
    title: anyValue("string, at most 200 characters, default empty"),
    nim: anyValue("string, required for admin, ignored for students"),
  },
  { additionalProperties: true },
);

export const DiaryUpdateBody = t.Object(
  {
    date: anyValue("YYYY-MM-DD, optional"),
    content: anyValue("string, not blank, at most 20000 characters, optional"),
    title: anyValue("string, at most 200 characters, optional"),
  },
  { additionalProperties: true },
);
