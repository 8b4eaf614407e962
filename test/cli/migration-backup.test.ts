import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { migrations } from "../../src/db/migrations";
import { temporaryDir } from "../helpers";
import { cli, olderDataFolder, olderLevel, outputLines, withDatabase } from "./support";

// Before a database that holds data is migrated (by `skrining migrate` or `serve`), a copy
// of it as it was is kept in <data>/backups, and the command or the server says where in
// one line.

const number = (tag: string) => tag.split("_")[0]!;
const from = number(migrations[olderLevel - 1]!.tag);
const to = number(migrations.at(-1)!.tag);

const journalLength = (db: Database) => db.query<{ n: number }, []>("SELECT count(*) AS n FROM __drizzle_migrations").get()!.n;

describe("the copy taken before a migration", () => {
  test("is written when migrate opens a database at an older schema, before the migration, and said in one line on stderr", async () => {
    const dataDir = olderDataFolder();
    const result = await cli(dataDir, ["migrate"]);
    expect(result.exitCode).toBe(0);
    // The command's own output is one line on stdout.
    expect(outputLines(result.stdout)).toEqual([`Skema basis data ${join(dataDir, "skrining.db")} dimigrasi: ${from} → ${to}.`]);

    const copies = readdirSync(join(dataDir, "backups"));
    expect(copies).toEqual([expect.stringMatching(new RegExp(`^skrining-before-migration-${from}-to-${to}-\\d{8}-\\d{6}Z\\.db$`))]);
    const copy = join(dataDir, "backups", copies[0]!);
    expect(outputLines(result.stderr)).toEqual([`Skema basis data akan dimigrasi (${from} → ${to}); salinan sebelum migrasi disimpan di ${copy}`]);
    expect((statSync(copy).mode & 0o777).toString(8)).toBe("600");
    expect((statSync(join(dataDir, "backups")).mode & 0o777).toString(8)).toBe("700");

    const old = new Database(copy, { readonly: true });
    try {
      expect(old.query("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
      expect(journalLength(old)).toBe(olderLevel);
      expect(old.query("SELECT username FROM users").all()).toEqual([{ username: "lama" }]);
    } finally {
      old.close();
    }
    expect(withDatabase(dataDir, journalLength)).toBe(migrations.length);
    const listed = await cli(dataDir, ["accounts", "list", "--json"]);
    expect(JSON.parse(listed.stdout).map((account: { username: string }) => account.username)).toEqual(["lama"]);
  });

  test("is not written again once the database is up to date", async () => {
    const dataDir = olderDataFolder();
    expect((await cli(dataDir, ["migrate"])).exitCode).toBe(0);
    const again = await cli(dataDir, ["migrate"]);
    expect(again.stderr).toBe("");
    expect(outputLines(again.stdout)).toEqual([`Skema basis data ${join(dataDir, "skrining.db")} sudah sesuai versi ini (${to}); tidak ada yang diubah.`]);
    expect(readdirSync(join(dataDir, "backups"))).toHaveLength(1);
  });

  test("is not written for a new database", async () => {
    const dataDir = join(temporaryDir("skrining-new-"), "data");
    expect((await cli(dataDir, ["accounts", "add", "--role", "admin", "--username", "baru", "--password", "sandi-baru-1"])).exitCode).toBe(0);
    expect(existsSync(join(dataDir, "backups"))).toBe(false);
  });

  test("when it cannot be written, the migration does not run and the command says why", async () => {
    const dataDir = olderDataFolder();
    writeFileSync(join(dataDir, "backups"), "bukan folder");
    const result = await cli(dataDir, ["migrate"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Salinan sebelum migrasi skema (${from} → ${to}) tidak dapat dibuat di ${join(dataDir, "backups")}`);
    expect(result.stderr).toContain("Migrasi tidak dijalankan.");
    expect(withDatabase(dataDir, journalLength)).toBe(olderLevel);
  });
});
