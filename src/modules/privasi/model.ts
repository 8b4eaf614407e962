import { t } from "elysia";
import { noticeLimits } from "../../konten/privacy-notice";

export const PrivacyNoticeResponse = t.Object(
  {
    version: t.String({ description: "names this text; the acknowledgement is of a version" }),
    title: t.String(),
    text: t.String({ description: "plain text; a blank line starts a new paragraph" }),
    acknowledged: t.Nullable(
      t.Boolean({ description: "whether the signed-in student has acknowledged this version; null without a token and for lecturers and admins, who are not asked" }),
    ),
  },
  { additionalProperties: false },
);

export const AcknowledgeBody = t.Object({
  version: t.String({ maxLength: noticeLimits.version, description: "the version the student read: it must be the one in force" }),
});

export const AcknowledgementResponse = t.Object(
  {
    message: t.String(),
    version: t.String(),
    acknowledged_at: t.String({ format: "date-time", description: "when the student first acknowledged this version" }),
  },
  { additionalProperties: false },
);

/** The 409's body: the version in force, so a client can fetch and show it. */
export const OutdatedVersionResponse = t.Object(
  { error: t.String({ description: "what went wrong, in Indonesian" }), current_version: t.String() },
  { additionalProperties: false },
);
