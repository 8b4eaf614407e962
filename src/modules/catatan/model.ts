import { t } from "elysia";

export const CatatanRecord = t.Object(
  {
    Id_catatan: t.Integer(),
    NIM: t.String(),
    NIP: t.String(),
    isi_catatan: t.String(),
    tanggal_catat: t.String(),
    reply: t.String({ description: "empty until the student replies" }),
    tanggal_reply: t.Nullable(t.String()),
    status: t.Union([t.Literal("sudah_dibalas"), t.Literal("belum_dibalas")]),
  },
  { additionalProperties: false },
);

export const CatatanList = t.Array(CatatanRecord);

export const CatatanQuery = t.Object({ nim: t.Optional(t.String({ description: "admin only" })) }, { additionalProperties: true });

export const ReplyBody = t.Object(
  { reply: t.Optional(t.Any({ description: "string, trimmed, 1-5000 characters" })) },
  { additionalProperties: true },
);

export const ReplyResponse = t.Object({ message: t.String(), data: CatatanRecord });
