import { t } from "elysia";
import { bodyField } from "../../http/documentation";
import { CatatanRecord } from "../../records";

export const CatatanList = t.Array(CatatanRecord);

export const CatatanQuery = t.Object({ nim: t.Optional(t.String({ description: "admin only" })) }, { additionalProperties: true });

export const ReplyBody = t.Object(
  { reply: bodyField("string, trimmed, 1-5000 characters") },
  { additionalProperties: true },
);

export const ReplyResponse = t.Object({ message: t.String(), data: CatatanRecord });

export const CatatanBody = t.Object(
  {
    NIM: bodyField("string, required"),
    isi_catatan: bodyField("string, trimmed, 1-5000 characters"),
    NIP: bodyField("string, required for admin (the author)"),
  },
  { additionalProperties: true },
);

export const CatatanCreated = t.Object({ message: t.String(), id: t.Integer() });
