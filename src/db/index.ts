import { Database } from "bun:sqlite";
import { chmodSync } from "node:fs";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { applyMigrations, type EmbeddedMigration } from "./migrate";
import { migrations as embeddedMigrations } from "./migrations";
import * as schema from "./schema";

export type DatabaseClient = BunSQLiteDatabase<typeof schema> & { $client: Database };

/**
 * Opens the database with the settings every process must share: WAL so readers never
 * wait for the writer, `synchronous=FULL` so an acknowledged write survives a power cut,
 * foreign keys on, the file readable by its owner only, and a busy timeout so the CLI and the server can write side by side.
 * Pending migrations are applied before anything else touches the data.
 */
export function openDatabase(path: string, migrations: readonly EmbeddedMigration[] = embeddedMigrations): DatabaseClient {
  const sqlite = new Database(path, { create: true, strict: true });
  // Owner only (decisions §9); SQLite gives the WAL and SHM files the database file's mode.
  if (path !== ":memory:") chmodSync(path, 0o600);
  sqlite.run("PRAGMA busy_timeout = 10000");
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = FULL");
  sqlite.run("PRAGMA foreign_keys = ON");
  applyMigrations(sqlite, migrations);
  return drizzle(sqlite, { schema });
}

export { schema };
