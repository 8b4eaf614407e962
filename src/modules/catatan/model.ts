import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { CatatanRecord } from "../../records";
import { textMaxLength } from "./service";

// Request bodies and query strings are documentation only (src/http/documentation.ts): the
// service reads them leniently and answers with the interface's own texts.

export const CatatanList = t.Array(CatatanRecord);

export const CatatanQuery = t.Object({ nim: t.Optional(t.String({ description: "admin: required; students see their own" })) });

/** A note's or a reply's text: trimmed, then 1 to 5000 characters. */
const noteText = (description: string) => t.String({ minLength: 1, maxLength: textMaxLength, description: `trimmed; ${description}` });

export const ReplyBody = t.Object({ reply: noteText("replaces the earlier reply on PUT") });

export const ReplyResponse = t.Object({ message: t.String(), data: CatatanRecord }, { additionalProperties: false });

export const CatatanBody = t.Object({
  NIM: t.String({ description: "the student, who must be the lecturer's advisee" }),
  isi_catatan: noteText("the note"),
  NIP: t.Optional(t.String({ description: "admin: required, the lecturer who writes; ignored for lecturers" })),
});

export const CatatanCreated = t.Object({ message: t.String(), id: Type.Integer({ description: "the note's Id_catatan" }) }, { additionalProperties: false });
