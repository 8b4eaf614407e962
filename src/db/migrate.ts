import type { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { invalid } from "../errors";
import { judgeEarlierScreenings } from "./measures";
import { dropSummaryTriggers, installSummaries, summariesCurrent, summaryTablesExist } from "./summaries";

export interface EmbeddedMigration {
  tag: string;
  /** drizzle-kit's journal timestamp; also what decides whether a migration has run. */
  createdAt: number;
  sql: string;
}

/** drizzle-kit's bookkeeping table, kept compatible so `drizzle-kit` tooling agrees with us. */
const journalTable = "__drizzle_migrations";

/** How far a database's schema has been migrated, read from its journal. */
export interface SchemaLevel {
  /** How many migrations the journal records (0 for a new database). */
  applied: number;
  /** The journal timestamp of the last one, which decides what is pending; null for a new database. */
  lastCreatedAt: number | null;
}

/** The schema level of a database, without creating anything in it. */
export function schemaLevel(sqlite: Database): SchemaLevel {
  const table = sqlite.query<{ name: string }, [string]>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?").get(journalTable);
  if (!table) return { applied: 0, lastCreatedAt: null };
  const row = sqlite.query<{ applied: number; lastCreatedAt: number | null }, []>(`SELECT count(*) AS applied, max(created_at) AS lastCreatedAt FROM ${journalTable}`).get();
  return { applied: row?.applied ?? 0, lastCreatedAt: row?.lastCreatedAt ?? null };
}

/** The migrations a database at `level` has not had yet. */
export function migrationsAfter(level: SchemaLevel, migrations: readonly EmbeddedMigration[]): EmbeddedMigration[] {
  return migrations.filter((migration) => migration.createdAt > (level.lastCreatedAt ?? 0));
}

/** A migration's number as a file name and a message show it (`0003` of `0003_sessions`). */
export const migrationNumber = (tag: string | undefined) => tag?.split("_")[0] ?? "?";

/**
 * The number of the newest migration a database of `applied` migrations has had, counted as
 * the older-schema message counts (`0016` after 17 migrations): migrations are numbered from
 * 0000 without gaps, so a newer program's number is known without its file.
 */
export const appliedNumber = (applied: number) => (applied === 0 ? "0000" : String(applied - 1).padStart(4, "0"));

/**
 * The one wording of a database a newer skrining has migrated, for `serve`, every command and
 * `restore` alike (issue 44): both levels as migration numbers, as an older schema is named.
 */
export const newerSchemaText = (applied: number, migrations: readonly EmbeddedMigration[]) =>
  `skema basis datanya lebih baru dari program ini (migrasi ${appliedNumber(applied)}; program ini ${migrationNumber(migrations.at(-1)?.tag)})`;

/**
 * A database a newer skrining has migrated is refused: this program does not know its
 * tables, and reinstalling its own (older) summary triggers would break them.
 */
function refuseNewerSchema(level: SchemaLevel, migrations: readonly EmbeddedMigration[]): void {
  const known = migrations.at(-1)?.createdAt ?? 0;
  if (level.lastCreatedAt === null || level.lastCreatedAt <= known) return;
  throw invalid(
    `Basis data ini sudah diperbarui oleh skrining versi yang lebih baru: ${newerSchemaText(level.applied, migrations)}. ` +
      "Jalankan versi yang lebih baru itu, atau kembalikan salinan sebelum pembaruan dengan 'skrining rollback' (docs/operations.md, bagian Upgrade).",
  );
}

/**
 * What a migration does to the stored data in code, right after its SQL: where the rule is
 * the service's own (in TypeScript), restating it in SQL would make two rules of one.
 */
const dataSteps: Readonly<Record<string, (sqlite: Database) => void>> = {
  "0017_measurement": judgeEarlierScreenings,
};

/**
 * What opening this database with this program's migrations would change: the migrations it
 * has not had, and whether the summary triggers differ from this version's (they are
 * installed again with every migration). `changes` is false for a database this program
 * can use as it is. `from` and `to` name the levels for a person (`0005`, `0008`).
 */
export function schemaChanges(sqlite: Database, migrations: readonly EmbeddedMigration[]): { level: SchemaLevel; pending: EmbeddedMigration[]; changes: boolean; from: string; to: string } {
  const level = schemaLevel(sqlite);
  refuseNewerSchema(level, migrations);
  const pending = migrationsAfter(level, migrations);
  const summariesStale = level.applied > 0 && summaryTablesExist(sqlite) && !summariesCurrent(sqlite);
  const from = level.applied === 0 ? "0000" : migrationNumber(migrations.find((migration) => migration.createdAt === level.lastCreatedAt)?.tag);
  return { level, pending, changes: pending.length > 0 || summariesStale, from, to: migrationNumber(migrations.at(-1)?.tag) };
}

/**
 * Applies every migration newer than the last recorded one, all in one transaction, and
 * (re)installs the summary triggers around them (see summaries.ts).
 *
 * Foreign keys are switched off *before* the transaction begins: SQLite ignores
 * `PRAGMA foreign_keys` inside a transaction, and a drizzle-kit table rebuild
 * (create new, copy, drop old, rename) would otherwise fire ON DELETE actions when the
 * old table is dropped. Before committing, `foreign_key_check` must come back empty.
 */
export function applyMigrations(sqlite: Database, migrations: readonly EmbeddedMigration[]): string[] {
  sqlite.run(
    `CREATE TABLE IF NOT EXISTS ${journalTable} (id INTEGER PRIMARY KEY AUTOINCREMENT, hash TEXT NOT NULL, created_at NUMERIC)`,
  );
  refuseNewerSchema(schemaLevel(sqlite), migrations);
  const pendingMigrations = () => migrationsAfter(schemaLevel(sqlite), migrations);
  const upToDate = (pending: readonly EmbeddedMigration[]) => pending.length === 0 && (!summaryTablesExist(sqlite) || summariesCurrent(sqlite));
  let pending = pendingMigrations();
  if (upToDate(pending)) return [];

  sqlite.run("PRAGMA foreign_keys = OFF");
  try {
    sqlite.transaction(() => {
      // Again under the write lock: another process may have done it all in the meantime.
      pending = pendingMigrations();
      if (upToDate(pending)) return;
      dropSummaryTriggers(sqlite);
      for (const migration of pending) {
        for (const statement of migration.sql.split("--> statement-breakpoint")) {
          if (statement.trim()) sqlite.run(statement);
        }
        dataSteps[migration.tag]?.(sqlite);
        sqlite.run(`INSERT INTO ${journalTable} (hash, created_at) VALUES (?, ?)`, [
          createHash("sha256").update(migration.sql).digest("hex"),
          migration.createdAt,
        ]);
      }
      if (summaryTablesExist(sqlite)) installSummaries(sqlite);
      const violations = sqlite.query("PRAGMA foreign_key_check").all();
      if (violations.length > 0) {
        throw new Error(`migrasi membatalkan diri: ${violations.length} pelanggaran foreign key`);
      }
    }).immediate();
  } finally {
    sqlite.run("PRAGMA foreign_keys = ON");
  }
  return pending.map((migration) => migration.tag);
}
