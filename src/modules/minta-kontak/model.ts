import { t } from "elysia";
import { requestMessageMaxLength } from "../tindak-lanjut/moves";

// Request bodies are documentation only (src/http/documentation.ts): the service reads them
// leniently and answers with its own texts.

export const MintaKontakBody = t.Object({
  pesan: t.Optional(t.String({ maxLength: requestMessageMaxLength, description: `optional, trimmed; at most ${requestMessageMaxLength} characters, for the lecturer who will contact the student` })),
});

const Advisor = t.Object(
  {
    nama: t.String({ description: "the advisor's name (the NIP when the name is unknown)" }),
    telepon: t.Nullable(t.String({ description: "the telephone/WhatsApp number the advisor gave; null when none" })),
  },
  { additionalProperties: false },
);

const LatestRequest = t.Object(
  {
    waktu: t.String({ description: "UTC, ISO 8601: when the student asked" }),
    pesan: t.String({ description: "what the student wrote; empty when nothing" }),
    status: t.Union([t.Literal("menunggu"), t.Literal("ditanggapi"), t.Literal("selesai")], {
      description: "where the request stands: nobody has acted on the case since; a lecturer (or an admin) has; the case is closed",
    }),
    penerima: t.Union([t.Literal("dosen_wali"), t.Literal("dosen_lain"), t.Literal("admin")], {
      description: "who handles it: the student's advisor, another lecturer (a counsellor an admin handed the case to), or the faculty's admins",
    }),
  },
  { additionalProperties: false },
);

export const MintaKontakState = t.Object(
  {
    dosen_wali: t.Nullable(Advisor, { description: "the student's advisor; null when the student has none" }),
    permintaan_terakhir: t.Nullable(LatestRequest, { description: "the student's latest request for contact; null when none" }),
    boleh_minta_lagi_pada: t.Nullable(t.String({ description: "UTC, ISO 8601: when the student may ask again (24 hours after the latest request); null when now" })),
  },
  { additionalProperties: false },
);

export const MintaKontakSent = t.Object({ message: t.String(), ...MintaKontakState.properties }, { additionalProperties: false });

export const MintaKontakTooSoon = t.Object(
  {
    error: t.String({ description: "when the student asked, and the time left" }),
    boleh_minta_lagi_pada: t.String({ description: "UTC, ISO 8601: when the student may ask again" }),
  },
  { additionalProperties: false },
);
