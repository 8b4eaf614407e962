import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { standardAccounts, temporaryDir } from "../helpers";
import { cli, csvFile, outputLines, withDatabase } from "./support";

function usernames(db: Database): string[] {
  return db.query<{ username: string }, []>("SELECT username FROM users ORDER BY Id_User").all().map((row) => row.username);
}

describe("backup", () => {
  let dataDir: string;
  let expectedUsers: string[];

  beforeAll(async () => {
    dataDir = temporaryDir();
    const imported = await cli(dataDir, ["accounts", "import", csvFile(standardAccounts)]);
    expect(imported.exitCode).toBe(0);
    expectedUsers = withDatabase(dataDir, usernames);
    expect(expectedUsers).toHaveLength(6);
  });

  test("writes a complete SQLite copy that passes the integrity check and holds the same accounts", async () => {
    const target = join(temporaryDir("skrining-backup-"), "cadangan.db");
    const result = await cli(dataDir, ["backup", target]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(target);

    const copy = new Database(target, { readonly: true });
    try {
      expect(copy.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
      expect(copy.query("PRAGMA foreign_key_check").all()).toEqual([]);
      expect(usernames(copy)).toEqual(expectedUsers);
      const original = withDatabase(dataDir, (db) => db.query("SELECT * FROM users ORDER BY Id_User").all());
      expect(copy.query("SELECT * FROM users ORDER BY Id_User").all()).toEqual(original);
      expect(copy.query<{ n: number }, []>("SELECT count(*) AS n FROM mahasiswa").get()!.n).toBe(3);
      // The migration journal travels with the data, so a restored copy is not migrated twice.
      const journal = withDatabase(dataDir, (db) => db.query("SELECT hash, created_at FROM __drizzle_migrations").all());
      expect(copy.query("SELECT hash, created_at FROM __drizzle_migrations").all()).toEqual(journal);
    } finally {
      copy.close();
    }
  });

  test("refuses to overwrite an existing file and leaves it untouched", async () => {
    const target = join(temporaryDir("skrining-backup-"), "ada.db");
    writeFileSync(target, "jangan ditimpa");
    const result = await cli(dataDir, ["backup", target]);
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(outputLines(result.stderr)).toHaveLength(1);
    expect(readFileSync(target, "utf8")).toBe("jangan ditimpa");
  });

  test("is taken while another process holds an open write transaction, without that uncommitted write", async () => {
    const writer = new Database(join(dataDir, "skrining.db"));
    const target = join(temporaryDir("skrining-backup-"), "saat-menulis.db");
    try {
      writer.run("PRAGMA busy_timeout = 10000");
      writer.run("BEGIN IMMEDIATE");
      writer.run("INSERT INTO users (username, password_hash, role) VALUES ('belum.commit', 'x', 'admin')");
      const started = performance.now();
      const result = await cli(dataDir, ["backup", target]);
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      // It did not wait for the writer (the busy timeout is 10 s).
      expect(performance.now() - started).toBeLessThan(5000);
      writer.run("COMMIT");
    } finally {
      if (writer.inTransaction) writer.run("ROLLBACK");
      writer.close();
    }
    expect(existsSync(target)).toBe(true);
    const copy = new Database(target, { readonly: true });
    try {
      expect(copy.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()!.integrity_check).toBe("ok");
      expect(usernames(copy)).toEqual(expectedUsers);
    } finally {
      copy.close();
    }
    expect(withDatabase(dataDir, usernames)).toEqual([...expectedUsers, "belum.commit"]);
  });
});
