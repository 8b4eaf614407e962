import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, sourceFiles } from "../../scripts/imports";

// docs/architecture.md, "One rule for SQL": drizzle for the queries it expresses; a file that
// hands SQLite a statement as text is listed in the table "Raw SQL, and why" with its reason.
// A new file of raw SQL without a reason fails here, and so does a reason left behind.

/** A statement given as text to bun:sqlite (`query`, `prepare`, `run`, `exec`), not drizzle's `sql` fragments. */
const rawStatement = /\.(?:query|prepare|run|exec)\s*(?:<[^()]*?>)?\(\s*[`"']\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|DROP|REPLACE|ALTER)\b/i;

const usesRawSql = (source: string) => rawStatement.test(source);

/** The files of the table "Raw SQL, and why", each with its reason. */
function documentedReasons(): Map<string, string> {
  const architecture = readFileSync(join(root, "docs/architecture.md"), "utf8");
  const start = architecture.indexOf("### Raw SQL, and why");
  const section = architecture.slice(start, architecture.indexOf("\n## ", start));
  const reasons = new Map<string, string>();
  for (const match of section.matchAll(/^\| `([^`]+)` \| (.+) \|$/gm)) reasons.set(match[1]!, match[2]!.trim());
  return reasons;
}

describe("one rule for SQL", () => {
  const withRawSql = [...sourceFiles("src"), ...sourceFiles("cli")].filter((file) => !file.startsWith("src/web/") && usesRawSql(readFileSync(join(root, file), "utf8")));
  const reasons = documentedReasons();

  test("raw statements are found, drizzle's are not", () => {
    expect(usesRawSql('sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM dosen")')).toBe(true);
    expect(usesRawSql("this.sqlite.run(\n  `UPDATE tindak_lanjut SET status = ?1`")).toBe(true);
    expect(usesRawSql("db.select({ n: sql<number>`count(*)` }).from(dosen).prepare()")).toBe(false);
    expect(usesRawSql('sqlite.run("PRAGMA busy_timeout = 0")')).toBe(false);
    expect(withRawSql).toContain("src/db/summaries.ts");
  });

  test("every file of raw SQL has its one-line reason in docs/architecture.md", () => {
    expect(withRawSql.filter((file) => !reasons.has(file))).toEqual([]);
  });

  test("every reason there names a file that still has raw SQL", () => {
    expect([...reasons.keys()].filter((file) => !withRawSql.includes(file))).toEqual([]);
    for (const reason of reasons.values()) expect(reason.length).toBeGreaterThan(20);
  });
});
