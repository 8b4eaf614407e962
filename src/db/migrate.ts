import type { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { dropSummaryTriggers, installSummaries, summariesCurrent, summaryTablesExist } from "./summaries";

export interface EmbeddedMigration {
  tag: string;
  /** drizzle-kit's journal timestamp; also what decides whether a migration has run. */
  createdAt: number;
  sql: string;
}

/** drizzle-kit's bookkeeping table, kept compatible so `drizzle-kit` tooling agrees with us. */
const journalTable = "__drizzle_migrations";

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
  const pendingMigrations = () => {
    const last = sqlite.query<{ createdAt: number | null }, []>(`SELECT max(created_at) AS createdAt FROM ${journalTable}`).get();
    return migrations.filter((migration) => migration.createdAt > (last?.createdAt ?? 0));
  };
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
