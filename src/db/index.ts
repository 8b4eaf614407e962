import { Database } from "bun:sqlite";
import { chmodSync } from "node:fs";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { backUpBeforeMigrating } from "../backup/snapshot";
import { consoleLogger, type Logger } from "../logger";
import { applyMigrations, type EmbeddedMigration } from "./migrate";
import { migrations as embeddedMigrations } from "./migrations";
import * as schema from "./schema";
import { asStorageError } from "./storage";

export type DatabaseClient = BunSQLiteDatabase<typeof schema> & { $client: Database };

/** How long a command waits for another program's write lock; the server waits in its write queue instead. */
const commandBusyTimeoutMilliseconds = 5000;

/**
 * Opens the database with the settings every process must share: WAL so readers never
 * wait for the writer, `synchronous=FULL` so an acknowledged write survives a power cut,
 * foreign keys on, the file readable by its owner only, and a busy timeout so the CLI and
 * the server can write side by side. Pending migrations are applied before anything else
 * touches the data, a database that holds data copied first (`logger` says where).
 * `secure_delete` overwrites deleted and replaced content with zeros, so that a deleted
 * diary entry or an erased student (decisions: Privacy commands and restriction) stays in
 * no free space of the file. A file that is not a sound database is a StorageError
 * (`damaged`).
 */
export function openDatabase(path: string, migrations: readonly EmbeddedMigration[] = embeddedMigrations, logger: Logger = consoleLogger): DatabaseClient {
  let sqlite: Database | undefined;
  try {
    sqlite = new Database(path, { create: true, strict: true });
    // Owner only (decisions §9); SQLite gives the WAL and SHM files the database file's mode.
    if (path !== ":memory:") chmodSync(path, 0o600);
    sqlite.run(`PRAGMA busy_timeout = ${commandBusyTimeoutMilliseconds}`);
    sqlite.run("PRAGMA journal_mode = WAL");
    sqlite.run("PRAGMA synchronous = FULL");
    sqlite.run("PRAGMA foreign_keys = ON");
    sqlite.run("PRAGMA secure_delete = ON");
    if (path !== ":memory:") backUpBeforeMigrating(sqlite, path, migrations, logger);
    applyMigrations(sqlite, migrations);
  } catch (error) {
    sqlite?.close();
    throw asStorageError(error, path);
  }
  return drizzle(sqlite, { schema });
}

/**
 * The server never blocks its only thread on another program's lock: its writes wait in
 * the write queue, which retries from timers (see WriteQueue).
 */
export function stopWaitingForLocks(db: DatabaseClient): void {
  db.$client.run("PRAGMA busy_timeout = 0");
}

/**
 * SQLite's own check of the file: `quick_check` (the structure, in about the time of
 * reading the file once) or the full `integrity_check` (also every index against its
 * table). An empty list means no damage was found.
 */
export function checkDatabase(db: DatabaseClient, full: boolean): string[] {
  const rows = db.$client.query<Record<string, string>, []>(full ? "PRAGMA integrity_check" : "PRAGMA quick_check").all();
  const messages = rows.map((row) => Object.values(row)[0]!);
  return messages.length === 1 && messages[0] === "ok" ? [] : messages;
}

export { schema };
