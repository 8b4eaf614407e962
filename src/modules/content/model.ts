import { t } from "elysia";

export const HelpContactResponse = t.Object(
  {
    title: t.String(),
    text: t.String({ description: "plain text; a blank line starts a new paragraph" }),
  },
  { additionalProperties: false },
);
