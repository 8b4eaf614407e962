import { t } from "elysia";

const version = t.String({ description: "the version of skrining that answers" });
const commit = t.String({ description: "the git commit it was built from (`-dirty`: with changes not committed; `unknown` outside git)" });
const buildDate = t.Nullable(t.String({ description: "when it was built (UTC); null when it runs from source" }));
const bcrypt = t.Union([t.Literal("native"), t.Literal("javascript")], {
  description: "what hashes and checks passwords: native (the @node-rs/bcrypt addon) or javascript (bcryptjs, slower; used where the addon cannot be loaded)",
});

/** What a monitor reads when the service can do its work. */
export const HealthyResponse = t.Object({ status: t.Literal("ok"), version, commit, build_date: buildDate, database: t.Literal("ok"), bcrypt }, { additionalProperties: false });

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
  },
  { additionalProperties: false },
);
