import { t } from "elysia";

export const HelpContactResponse = t.Object(
  {
    title: t.String(),
    text: t.String({ description: "plain text; a blank line starts a new paragraph" }),
    telepon: t.Array(
      t.Object(
        {
          label: t.String({ description: "who answers" }),
          nomor: t.String({ description: "as people write it; dial its digits (and a leading +)" }),
          keterangan: t.String({ description: "what to do once connected; may be empty" }),
        },
        { additionalProperties: false },
      ),
      { description: "numbers to call at once (decisions §13: shown first, as tel: links, on a Tinggi stress result); may be empty" },
    ),
  },
  { additionalProperties: false },
);
