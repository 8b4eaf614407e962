import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { appendAuditRows } from "../../src/audit/trail";
import { verifyAuditChain } from "../../src/audit/verify";
import { openDatabase } from "../../src/db";
import { applyMigrations, type EmbeddedMigration } from "../../src/db/migrate";
import { migrations } from "../../src/db/migrations";
import { summariesCurrent } from "../../src/db/summaries";
import { temporaryDir } from "../helpers";

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

/** A database with every current migration (or those given) and a few rows in every table that matters. */
function populated(applied: EmbeddedMigration[] = migrations): { sqlite: Database; path: string } {
  const path = join(temporaryDir("skrining-migrate-"), "skrining.db");
  const sqlite = openDatabase(path, applied).$client;
  sqlite.transaction(() => {
    sqlite.run(`INSERT INTO users (Id_User, username, password_hash, role) VALUES
      (1, 'admin', 'h', 'admin'), (2, 'dsn1', 'h', 'dosen'), (3, 'dsn2', 'h', 'dosen'),
      (4, 'mhs1', 'h', 'mahasiswa'), (5, 'mhs2', 'h', 'mahasiswa'), (6, 'mhs3', 'h', 'mahasiswa')`);
    sqlite.run("INSERT INTO jurusan (Id_Jurusan, nama_jurusan) VALUES (1, 'Informatika'), (2, 'Sistem Informasi')");
    sqlite.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Dosen Satu', 2), ('D2', 'Dosen Dua', 3)");
    sqlite.run(`INSERT INTO mahasiswa (NIM, nama_mahasiswa, Id_User, id_jurusan, NIP_doswal, IPK, usia) VALUES
      ('N1', 'Satu', 4, 1, 'D1', 3.5, 20), ('N2', 'Dua', 5, 2, 'D2', 2.75, 21), ('N3', 'Tiga', 6, 1, 'D1', NULL, NULL)`);
    sqlite.run("INSERT INTO prediction_models (id, type, file_path, algorithm, version, input_features, source_sha256) VALUES (1, 'stress', 'models/a.json', 'rf', '1', '[]', 'x')");
    for (const [nim, day, stress] of [["N1", "01", "Tinggi"], ["N1", "02", "Sedang"], ["N2", "01", "Rendah"], ["N3", "03", "Sedang"]] as const) {
      sqlite.run(
        "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi, stress_model_id) VALUES (?, ?, '{}', ?, 'Sedang', 'saran', 10, 20, 1)",
        [nim, `2026-03-${day}T08:00:00.000Z`, stress],
      );
    }
    sqlite.run(`INSERT INTO catatan_konseling (NIM, NIP, isi_catatan, tanggal_catat) VALUES
      ('N1', 'D1', 'catatan 1', '2026-03-01T09:00:00.000Z'), ('N2', 'D2', 'catatan 2', '2026-03-02T09:00:00.000Z')`);
    sqlite.run(`INSERT INTO mood_entries (nim, date, mood_value, created_at, updated_at) VALUES
      ('N1', '2026-03-01', 4, 't', 't'), ('N1', '2026-03-02', 2, 't', 't'), ('N3', '2026-03-01', 5, 't', 't')`);
    sqlite.run(`INSERT INTO diary_entries (nim, date, title, content, created_at, updated_at) VALUES
      ('N2', '2026-03-01', 'a', 'isi', 't', 't'), ('N3', '2026-03-02', 'b', 'isi', 't', 't')`);
  })();
  return { sqlite, path };
}

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

describe("migration 0003 (sessions) on a populated database of the previous version", () => {
  test("keeps every account and profile, drops the per-token blocklist and the password version, adds sessions", () => {
    const index = migrations.findIndex((migration) => migration.tag === "0003_sessions");
    const sqlite = openDatabase(join(temporaryDir("skrining-migration-0003-"), "skrining.db"), migrations.slice(0, index)).$client;
    try {
      sqlite.run("INSERT INTO users (Id_User, username, password_hash, role, is_activated, password_version) VALUES (1, 'd1', 'h1', 'dosen', 1, 3), (2, 'm1', 'h2', 'mahasiswa', 0, 0)");
      sqlite.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Satu', 1)");
      sqlite.run("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES ('N1', 2, 'D1')");
      sqlite.run("INSERT INTO revoked_tokens (jti, expires_at) VALUES ('j1', 4102444800)");
      const kept = (table: string) => sqlite.query(`SELECT * FROM ${table} ORDER BY rowid`).all();
      const before = { dosen: kept("dosen"), mahasiswa: kept("mahasiswa") };

      expect(applyMigrations(sqlite, migrations.slice(0, index + 1))).toEqual(["0003_sessions"]);

      expect({ dosen: kept("dosen"), mahasiswa: kept("mahasiswa") }).toEqual(before);
      expect(sqlite.query("SELECT Id_User, username, password_hash, role, is_activated FROM users ORDER BY Id_User").all()).toEqual([
        { Id_User: 1, username: "d1", password_hash: "h1", role: "dosen", is_activated: 1 },
        { Id_User: 2, username: "m1", password_hash: "h2", role: "mahasiswa", is_activated: 0 },
      ]);
      const tables = sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((row) => row.name);
      expect(tables).toContain("sessions");
      expect(tables).not.toContain("revoked_tokens");
      expect(sqlite.query<{ name: string }, []>("SELECT name FROM pragma_table_info('users')").all().map((row) => row.name)).not.toContain("password_version");
      // Deleting an account takes its sessions with it.
      sqlite.run("INSERT INTO sessions (id, Id_User, created_at, expires_at) VALUES ('s1', 1, '2026-01-01T00:00:00.000Z', 4102444800)");
      sqlite.run("DELETE FROM dosen WHERE NIP = 'D1'");
      sqlite.run("DELETE FROM users WHERE Id_User = 1");
      expect(sqlite.query("SELECT count(*) AS n FROM sessions").get()).toEqual({ n: 0 });
    } finally {
      sqlite.close();
    }
  });
});

describe("migrations 0008 (audit reads) and 0011 (audit subjects) on a trail of the version before", () => {
  test("every row counts one read, names its student in audit_subjects, and the chain hashed before both stays whole", () => {
    const index = migrations.findIndex((migration) => migration.tag === "0008_audit_reads");
    const sqlite = openDatabase(join(temporaryDir("skrining-migration-0008-"), "skrining.db"), migrations.slice(0, index)).$client;
    try {
      // Two rows as the version before 0008 hashed them: SHA-256 of the JSON array of the twelve columns.
      let previous = "0".repeat(64);
      for (const id of [1, 2]) {
        const content = [id, `2026-03-0${id}T00:00:00.000Z`, 2, "dosen1", "dosen", "Dosen Satu", "10.0.0.5", "view", id === 1 ? "N001" : null, "GET /api/mahasiswa/hasil/:nim", null, previous];
        const hash = createHash("sha256").update(JSON.stringify(content)).digest("hex");
        sqlite.query("INSERT INTO audit_log (id, at, actor_user_id, actor_username, actor_role, actor_name, client_address, action, nim, target, detail, previous_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").run(...(content as never[]), hash);
        previous = hash;
      }

      expect(applyMigrations(sqlite, migrations)).toEqual(migrations.slice(index).map((migration) => migration.tag));

      expect(sqlite.query("SELECT id, reads, format FROM audit_log ORDER BY id").all()).toEqual([
        { id: 1, reads: 1, format: 1 },
        { id: 2, reads: 1, format: 1 },
      ]);
      expect(sqlite.query("SELECT audit_id, nim FROM audit_subjects").all()).toEqual([{ audit_id: 1, nim: "N001" }]);
      expect(verifyAuditChain(sqlite)).toEqual({ rows: 2, anchor: { id: 2, hash: previous }, anchorFound: null, problems: [] });
      // A row of the new format continues the chain.
      sqlite.transaction(() => appendAuditRows(sqlite, [{ actor: { userId: 2, username: "dosen1", role: "dosen" }, action: "view", students: ["N002", "N001"], target: "GET /api/dosen/mahasiswa" }]))();
      expect(verifyAuditChain(sqlite)).toMatchObject({ rows: 3, problems: [] });
      // The triggers still refuse changes after the columns were added, in both tables.
      expect(() => sqlite.run("UPDATE audit_log SET reads = 2 WHERE id = 1")).toThrow("baris tidak boleh diubah");
      expect(() => sqlite.run("DELETE FROM audit_subjects WHERE audit_id = 1")).toThrow("baris tidak boleh dihapus");
    } finally {
      sqlite.close();
    }
  });
});

describe("migration 0015 (hashed sessions) on a populated database of the previous version", () => {
  test("every session ends, and nothing else changes: accounts, profiles, records, the trail", () => {
    const index = migrations.findIndex((migration) => migration.tag === "0015_hashed_sessions");
    const { sqlite } = populated(migrations.slice(0, index));
    try {
      sqlite.run("UPDATE users SET must_change_password = 1 WHERE Id_User = 5");
      sqlite.run(`INSERT INTO sessions (id, Id_User, created_at, expires_at, ended_at) VALUES
        ('sesi-admin', 1, '2026-03-01T00:00:00.000Z', 4102444800, NULL), ('sesi-mhs1', 4, '2026-03-01T00:00:00.000Z', 4102444800, NULL),
        ('sesi-lama', 4, '2026-02-01T00:00:00.000Z', 4102444800, '2026-02-02T00:00:00.000Z')`);
      sqlite.transaction(() => appendAuditRows(sqlite, [{ actor: { userId: 1, username: "admin", role: "admin" }, action: "login", target: "POST /api/auth/login" }]))();
      const tables = sqlite
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('sessions', '__drizzle_migrations') AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all()
        .map((row) => row.name);
      // Every row of every table, in one order whatever the table's key (audit_subjects has no rowid).
      const everything = (): Record<string, unknown[]> =>
        Object.fromEntries(tables.map((table) => [table, sqlite.query(`SELECT * FROM ${table}`).all().sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))]));
      const before = everything();

      // This migration alone: a later one brings its own changes (0016, decisions §19, is tested in migration-follow-up-conversation.test.ts).
      expect(applyMigrations(sqlite, migrations.slice(0, index + 1))).toEqual([migrations[index]!.tag]);

      // The accounts gain the end of a one-time password, unset; every other row is as it was.
      const withoutEnd = (rows: unknown[]) => rows.map((row) => {
        const { password_expires_at, ...rest } = row as Record<string, unknown>;
        expect(password_expires_at).toBeNull();
        return rest;
      });
      const after = everything();
      expect({ ...after, users: withoutEnd(after.users!) } as Record<string, unknown[]>).toEqual(before);
      expect(sqlite.query("SELECT count(*) AS n FROM sessions").get()).toEqual({ n: 0 });
      expect(sqlite.query<{ name: string }, []>("SELECT name FROM pragma_table_info('sessions')").all().map((row) => row.name)).toEqual(["id_hash", "Id_User", "created_at", "expires_at", "ended_at"]);
      expect(verifyAuditChain(sqlite)).toMatchObject({ problems: [] });
      // The later migrations then bring it to the current version, its summaries current.
      applyMigrations(sqlite, migrations);
      expect(summariesCurrent(sqlite)).toBe(true);
      // A session of the new version is stored by its hash; deleting an account still takes its sessions.
      sqlite.run("INSERT INTO sessions (id_hash, Id_User, created_at, expires_at) VALUES ('h1', 4, '2026-03-02T00:00:00.000Z', 4102444800)");
      expect(sqlite.query("SELECT count(*) AS n FROM sessions WHERE Id_User = 4").get()).toEqual({ n: 1 });
    } finally {
      sqlite.close();
    }
  });
});

describe("a database a newer skrining has migrated", () => {
  test("is refused by an older program, which changes nothing in it", () => {
    const path = join(temporaryDir("skrining-newer-"), "skrining.db");
    openDatabase(path).$client.close();
    const before = new Database(path, { readonly: true });
    const schema = before.query("SELECT type, name, sql FROM sqlite_master ORDER BY name").all();
    before.close();

    // The program of one version ago knows every migration but the last.
    // Counted as restore counts it and as an older schema is named: migration numbers (issue 44).
    const newest = String(migrations.length - 1).padStart(4, "0");
    const known = migrations.at(-2)!.tag.split("_")[0];
    expect(() => openDatabase(path, migrations.slice(0, -1))).toThrow(
      `Basis data ini sudah diperbarui oleh skrining versi yang lebih baru: skema basis datanya lebih baru dari program ini (migrasi ${newest}; program ini ${known}). ` +
        "Jalankan versi yang lebih baru itu, atau kembalikan salinan sebelum pembaruan dengan 'skrining rollback' (docs/operations.md, bagian Upgrade).",
    );
    const after = new Database(path, { readonly: true });
    expect(after.query("SELECT type, name, sql FROM sqlite_master ORDER BY name").all()).toEqual(schema);
    after.close();
  });
});
