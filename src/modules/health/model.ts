import { Type } from "@sinclair/typebox";
import { t } from "elysia";

const version = t.String({ description: "the version of skrining that answers" });
const commit = t.String({ description: "the git commit it was built from (`-dirty`: with changes not committed; `unknown` outside git)" });
const buildDate = t.Nullable(t.String({ description: "when it was built (UTC); null when it runs from source" }));
const bcrypt = t.Union([t.Literal("native"), t.Literal("javascript")], {
  description: "what hashes and checks passwords: native (the @node-rs/bcrypt addon) or javascript (bcryptjs, slower; used where the addon cannot be loaded)",
});

/** decisions §18: the served certificate, when the server serves HTTPS (additive; absent on plain HTTP). */
const tls = t.Optional(
  t.Object(
    {
      berakhir: t.String({ description: "when the served certificate ends (UTC)" }),
      hari_tersisa: Type.Integer({ description: "whole days until then; negative once it has ended" }),
      sidik_jari: t.String({ description: "SHA-256 fingerprint of the certificate a phone installs: the local CA's, else the served certificate's own" }),
      peringatan: t.Array(t.String(), { description: "what is wrong (an address listened on that the certificate does not cover, an end within 30 days or past, a key others can read); empty when nothing is" }),
    },
    { additionalProperties: false },
  ),
);

/** Issue 44: the automatic backups, when the server takes them (additive; absent without --backup-dir). */
const cadangan = t.Optional(
  t.Object(
    {
      terakhir: t.Nullable(t.String({ description: "when the newest backup in the backup folder began (UTC); null when there is none yet" })),
      umur_jam: t.Nullable(Type.Integer({ description: "its age in whole hours; null when there is none" })),
      terenkripsi: t.Boolean({ description: "whether the server's backups are encrypted (--backup-passphrase-file)" }),
    },
    { additionalProperties: false },
  ),
);

/** What a monitor reads when the service can do its work. */
export const HealthyResponse = t.Object({ status: t.Literal("ok"), version, commit, build_date: buildDate, database: t.Literal("ok"), bcrypt, tls, cadangan }, { additionalProperties: false });

/** What it reads when it cannot: which kind of trouble, and nothing about its cause. */
export const UnhealthyResponse = t.Object(
  {
    status: t.Union([t.Literal("degraded"), t.Literal("error")], {
      description: "degraded: the database answers reads but its storage refused the last write; error: the database cannot be read",
    }),
    version,
    commit,
    build_date: buildDate,
    database: t.Literal("error"),
    bcrypt,
    tls,
    cadangan,
  },
  { additionalProperties: false },
);
