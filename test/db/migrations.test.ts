import { populated } from "./populated-database";
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { openDatabase } from "../../src/db";
import { applyMigrations, type EmbeddedMigration } from "../../src/db/migrate";
import { migrations } from "../../src/db/migrations";
import { summariesCurrent } from "../../src/db/summaries";

const lastCreatedAt = Math.max(...migrations.map((migration) => migration.createdAt));
const breakpoint = "--> statement-breakpoint";

/** A synthetic future migration, its statements joined the way drizzle-kit joins them. */
function future(tag: string, statements: string[], offset = 1000): EmbeddedMigration {
  return { tag, createdAt: lastCreatedAt + offset, sql: statements.join(`${breakpoint}\n`) };
}

const mahasiswaColumns = [
  "NIM", "nama_mahasiswa", "Id_User", "id_jurusan", "angkatan", "kelas", "NIP_doswal", "IPK", "usia", "gender", "freq_olahraga", "durasi_tidur", "foto_profil", "dibatasi_sejak",
];

/**
 * What drizzle-kit generates when a column is added to `mahasiswa` in a way SQLite's
 * ALTER TABLE cannot express: a rebuild of a table that four others point at.
 */
const rebuildMahasiswa = future("0001_rebuild_mahasiswa", [
  "PRAGMA foreign_keys=OFF;",
  `CREATE TABLE \`__new_mahasiswa\` (
	\`NIM\` text PRIMARY KEY NOT NULL,
	\`nama_mahasiswa\` text,
	\`Id_User\` integer NOT NULL,
	\`id_jurusan\` integer,
	\`angkatan\` text,
	\`kelas\` text,
	\`NIP_doswal\` text,
	\`IPK\` real,
	\`usia\` integer,
	\`gender\` text,
	\`freq_olahraga\` text,
	\`durasi_tidur\` text,
	\`foto_profil\` text,
	\`dibatasi_sejak\` text,
	\`semester\` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (\`Id_User\`) REFERENCES \`users\`(\`Id_User\`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (\`id_jurusan\`) REFERENCES \`jurusan\`(\`Id_Jurusan\`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (\`NIP_doswal\`) REFERENCES \`dosen\`(\`NIP\`) ON UPDATE cascade ON DELETE set null,
	CONSTRAINT "mahasiswa_ipk_check" CHECK("__new_mahasiswa"."IPK" IS NULL OR ("__new_mahasiswa"."IPK" >= 0 AND "__new_mahasiswa"."IPK" <= 4))
);`,
  `INSERT INTO \`__new_mahasiswa\`(${mahasiswaColumns.map((column) => `"${column}"`).join(", ")}) SELECT ${mahasiswaColumns.map((column) => `"${column}"`).join(", ")} FROM \`mahasiswa\`;`,
  "DROP TABLE `mahasiswa`;",
  "ALTER TABLE `__new_mahasiswa` RENAME TO `mahasiswa`;",
  "PRAGMA foreign_keys=ON;",
  "CREATE UNIQUE INDEX `mahasiswa_Id_User_unique` ON `mahasiswa` (`Id_User`);",
  "CREATE INDEX `mahasiswa_nip_doswal_index` ON `mahasiswa` (`NIP_doswal`,`NIM`);",
]);

/** A rebuild of `jurusan`, whose child column (`mahasiswa.id_jurusan`) is ON DELETE SET NULL. */
const rebuildJurusan = future("0001_rebuild_jurusan", [
  "PRAGMA foreign_keys=OFF;",
  `CREATE TABLE \`__new_jurusan\` (
	\`Id_Jurusan\` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	\`nama_jurusan\` text NOT NULL,
	\`fakultas\` text
);`,
  'INSERT INTO `__new_jurusan`("Id_Jurusan", "nama_jurusan") SELECT "Id_Jurusan", "nama_jurusan" FROM `jurusan`;',
  "DROP TABLE `jurusan`;",
  "ALTER TABLE `__new_jurusan` RENAME TO `jurusan`;",
  "PRAGMA foreign_keys=ON;",
  "CREATE UNIQUE INDEX `jurusan_nama_jurusan_unique` ON `jurusan` (`nama_jurusan`);",
]);

const childTables = ["riwayat_skrining", "catatan_konseling", "mood_entries", "diary_entries"] as const;
const allTables = ["users", "jurusan", "dosen", "mahasiswa", "prediction_models", ...childTables] as const;

function contents(sqlite: Database): Record<string, unknown[]> {
  return Object.fromEntries(allTables.map((table) => [table, sqlite.query(`SELECT * FROM ${table} ORDER BY rowid`).all()]));
}

function journal(sqlite: Database): { hash: string; created_at: number }[] {
  return sqlite.query<{ hash: string; created_at: number }, []>("SELECT hash, created_at FROM __drizzle_migrations ORDER BY id").all();
}

const foreignKeys = (sqlite: Database) => sqlite.query<{ foreign_keys: number }, []>("PRAGMA foreign_keys").get()!.foreign_keys;

/** What a naive runner would do: the migration's statements in one transaction, foreign keys as the connection has them (ON). */
function naiveApply(sqlite: Database, migration: EmbeddedMigration): void {
  sqlite.run("BEGIN");
  try {
    for (const statement of migration.sql.split(breakpoint)) if (statement.trim()) sqlite.run(statement);
    sqlite.run("COMMIT");
  } catch (error) {
    sqlite.run("ROLLBACK");
    throw error;
  }
}

describe("the embedded migrations", () => {
  test("a new database records each migration the way drizzle-kit does (sha256 of the SQL, journal timestamp)", () => {
    const { sqlite } = populated();
    try {
      expect(journal(sqlite)).toEqual(migrations.map((migration) => ({ hash: createHash("sha256").update(migration.sql).digest("hex"), created_at: migration.createdAt })));
      expect(foreignKeys(sqlite)).toBe(1);
    } finally {
      sqlite.close();
    }
  });

  test("re-opening an up-to-date database applies nothing and changes nothing", () => {
    const { sqlite, path } = populated();
    const before = contents(sqlite);
    const journalBefore = journal(sqlite);
    expect(applyMigrations(sqlite, migrations)).toEqual([]);
    sqlite.close();

    const reopened = openDatabase(path).$client;
    try {
      expect(journal(reopened)).toEqual(journalBefore);
      expect(contents(reopened)).toEqual(before);
      expect(applyMigrations(reopened, migrations)).toEqual([]);
      expect(journal(reopened)).toEqual(journalBefore);
    } finally {
      reopened.close();
    }
  });
});

describe("a table rebuild of a parent table (drizzle-kit style)", () => {
  test("the hand-written rebuild copies every column the current schema has", () => {
    const { sqlite } = populated();
    try {
      const columns = sqlite.query<{ name: string }, []>("PRAGMA table_info(mahasiswa)").all().map((column) => column.name);
      expect(columns).toEqual(mahasiswaColumns);
    } finally {
      sqlite.close();
    }
  });

  test("through the runner: every child row survives, foreign keys are back on and consistent", () => {
    const { sqlite } = populated();
    try {
      const before = contents(sqlite);
      const journalBefore = journal(sqlite);

      expect(applyMigrations(sqlite, [...migrations, rebuildMahasiswa])).toEqual([rebuildMahasiswa.tag]);

      const after = contents(sqlite);
      for (const table of childTables) {
        expect({ table, rows: after[table]!.length }).toEqual({ table, rows: before[table]!.length });
        expect(after[table]).toEqual(before[table]!);
      }
      // The rebuilt table keeps its rows (and gains the new column), its own parents are untouched.
      expect(after.mahasiswa).toEqual((before.mahasiswa as object[]).map((row) => ({ ...row, semester: 1 })));
      expect(after.users).toEqual(before.users!);
      expect(after.dosen).toEqual(before.dosen!);

      expect(foreignKeys(sqlite)).toBe(1);
      expect(sqlite.query("PRAGMA foreign_key_check").all()).toEqual([]);
      expect(sqlite.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()!.integrity_check).toBe("ok");
      expect(journal(sqlite)).toEqual([
        ...journalBefore,
        { hash: createHash("sha256").update(rebuildMahasiswa.sql).digest("hex"), created_at: rebuildMahasiswa.createdAt },
      ]);

      // The children still point at the new table, and the checks still bite.
      const indexes = sqlite.query<{ name: string }, []>("PRAGMA index_list(mahasiswa)").all().map((index) => index.name);
      expect(indexes).toEqual(expect.arrayContaining(["mahasiswa_Id_User_unique", "mahasiswa_nip_doswal_index"]));
      expect(() => sqlite.run("INSERT INTO mood_entries (nim, date, mood_value, created_at, updated_at) VALUES ('N404', '2026-03-09', 3, 't', 't')")).toThrow(
        /FOREIGN KEY constraint failed/,
      );
      expect(() => sqlite.run("DELETE FROM mahasiswa WHERE NIM = 'N1'")).toThrow(/FOREIGN KEY constraint failed/);
      expect(() => sqlite.run("UPDATE mahasiswa SET IPK = 4.5 WHERE NIM = 'N1'")).toThrow(/CHECK constraint failed/);
      sqlite.run("UPDATE mahasiswa SET NIM = 'N1-baru' WHERE NIM = 'N1'");
      expect(sqlite.query("SELECT count(*) AS n FROM riwayat_skrining WHERE NIM = 'N1-baru'").get()).toEqual({ n: 2 });

      // The summary triggers were installed again after the rebuild, and still follow changes.
      expect(summariesCurrent(sqlite)).toBe(true);
      expect(sqlite.query("SELECT NIM, tingkat_stres FROM latest_skrining ORDER BY NIM").all()).toEqual([
        { NIM: "N1-baru", tingkat_stres: "Sedang" },
        { NIM: "N2", tingkat_stres: "Rendah" },
        { NIM: "N3", tingkat_stres: "Sedang" },
      ]);
      sqlite.run("UPDATE mahasiswa SET NIP_doswal = 'D2' WHERE NIM = 'N3'");
      expect(sqlite.query("SELECT NIP, week_start, stress_sedang FROM lecturer_weekly_levels ORDER BY NIP, week_start").all()).toEqual([
        { NIP: "D1", week_start: "2026-02-23", stress_sedang: 0 },
        { NIP: "D1", week_start: "2026-03-02", stress_sedang: 1 },
        { NIP: "D2", week_start: "2026-02-23", stress_sedang: 0 },
        { NIP: "D2", week_start: "2026-03-02", stress_sedang: 1 },
      ]);

      // Opening it again applies nothing more.
      expect(applyMigrations(sqlite, [...migrations, rebuildMahasiswa])).toEqual([]);
    } finally {
      sqlite.close();
    }
  });

  test("through the runner, a parent with ON DELETE SET NULL children (jurusan) keeps the children's references", () => {
    const { sqlite } = populated();
    try {
      const before = contents(sqlite);
      expect(applyMigrations(sqlite, [...migrations, rebuildJurusan])).toEqual([rebuildJurusan.tag]);
      expect(contents(sqlite).mahasiswa).toEqual(before.mahasiswa!);
      expect(sqlite.query("SELECT count(*) AS n FROM mahasiswa WHERE id_jurusan IS NOT NULL").get()).toEqual({ n: 3 });
      expect(foreignKeys(sqlite)).toBe(1);
      expect(sqlite.query("PRAGMA foreign_key_check").all()).toEqual([]);
    } finally {
      sqlite.close();
    }
  });

  test("why the runner exists: run naively in a transaction with foreign keys on, the mahasiswa rebuild is refused", () => {
    const { sqlite } = populated();
    try {
      const before = contents(sqlite);
      // The migration's own `PRAGMA foreign_keys=OFF` is a no-op inside a transaction, so
      // DROP TABLE mahasiswa runs its implicit DELETE against the ON DELETE RESTRICT children.
      expect(() => naiveApply(sqlite, rebuildMahasiswa)).toThrow(/FOREIGN KEY constraint failed/);
      expect(contents(sqlite)).toEqual(before);
      expect(sqlite.query("SELECT name FROM pragma_table_info('mahasiswa') WHERE name = 'semester'").all()).toEqual([]);
    } finally {
      sqlite.close();
    }
  });

  test("why the runner drops the summary triggers first: with them in place, the mahasiswa rebuild is refused at the RENAME", () => {
    const { sqlite } = populated();
    try {
      sqlite.run("PRAGMA foreign_keys = OFF");
      expect(() => naiveApply(sqlite, rebuildMahasiswa)).toThrow(/error in trigger summary_\w+: no such table: main.mahasiswa/);
      expect(sqlite.query("SELECT name FROM pragma_table_info('mahasiswa') WHERE name = 'semester'").all()).toEqual([]);
    } finally {
      sqlite.close();
    }
  });

  test("why the runner exists: run naively, the jurusan rebuild silently wipes every student's department", () => {
    const { sqlite } = populated();
    try {
      expect(sqlite.query("SELECT count(*) AS n FROM mahasiswa WHERE id_jurusan IS NOT NULL").get()).toEqual({ n: 3 });
      naiveApply(sqlite, rebuildJurusan);
      // No error at all, yet ON DELETE SET NULL fired when the old table was dropped.
      expect(sqlite.query("SELECT count(*) AS n FROM mahasiswa WHERE id_jurusan IS NOT NULL").get()).toEqual({ n: 0 });
      expect(sqlite.query("SELECT count(*) AS n FROM jurusan").get()).toEqual({ n: 2 });
    } finally {
      sqlite.close();
    }
  });
});

describe("a failing migration rolls back entirely", () => {
  test("one that leaves a foreign key violation: nothing of it is applied and the journal does not advance", () => {
    const { sqlite } = populated();
    try {
      const before = contents(sqlite);
      const journalBefore = journal(sqlite);
      const orphan = future("0001_orphan", [
        "CREATE TABLE `pengumuman` (`id` integer PRIMARY KEY, `isi` text NOT NULL);",
        "UPDATE `users` SET `username` = 'diubah' WHERE `Id_User` = 1;",
        "INSERT INTO `mood_entries` (`nim`, `date`, `mood_value`, `created_at`, `updated_at`) VALUES ('N404', '2026-03-09', 3, 't', 't');",
      ]);
      expect(() => applyMigrations(sqlite, [...migrations, orphan])).toThrow(/foreign key/i);
      expect(contents(sqlite)).toEqual(before);
      expect(journal(sqlite)).toEqual(journalBefore);
      expect(sqlite.query("SELECT name FROM sqlite_master WHERE name = 'pengumuman'").all()).toEqual([]);
      expect(foreignKeys(sqlite)).toBe(1);
    } finally {
      sqlite.close();
    }
  });

  test("a good migration batched with a bad one is rolled back with it", () => {
    const { sqlite } = populated();
    try {
      const before = contents(sqlite);
      const journalBefore = journal(sqlite);
      const bad = future("0002_orphan_advisor", ["UPDATE `mahasiswa` SET `NIP_doswal` = 'D404' WHERE `NIM` = 'N2';"], 2000);
      expect(() => applyMigrations(sqlite, [...migrations, rebuildMahasiswa, bad])).toThrow(/foreign key/i);
      expect(contents(sqlite)).toEqual(before);
      expect(journal(sqlite)).toEqual(journalBefore);
      expect(sqlite.query("SELECT name FROM pragma_table_info('mahasiswa') WHERE name = 'semester'").all()).toEqual([]);
      expect(sqlite.query("PRAGMA index_list(mahasiswa)").all()).not.toEqual([]);
      expect(foreignKeys(sqlite)).toBe(1);

      // Fixed and retried, the good one applies.
      expect(applyMigrations(sqlite, [...migrations, rebuildMahasiswa])).toEqual([rebuildMahasiswa.tag]);
    } finally {
      sqlite.close();
    }
  });

  test("one with an SQL error: nothing applied, foreign keys back on", () => {
    const { sqlite } = populated();
    try {
      const before = contents(sqlite);
      const journalBefore = journal(sqlite);
      const broken = future("0001_broken", ["CREATE TABLE `sementara` (`x` integer);", "DELETE FROM `mood_entries`;", "SELECT * FROM `tidak_ada`;"]);
      expect(() => applyMigrations(sqlite, [...migrations, broken])).toThrow(/tidak_ada/);
      expect(contents(sqlite)).toEqual(before);
      expect(journal(sqlite)).toEqual(journalBefore);
      expect(sqlite.query("SELECT name FROM sqlite_master WHERE name = 'sementara'").all()).toEqual([]);
      expect(foreignKeys(sqlite)).toBe(1);
    } finally {
      sqlite.close();
    }
  });
});
