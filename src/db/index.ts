import { Database } from "bun:sqlite";
import { chmodSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { appendAuditRows, type AuditEntry } from "../audit/trail";
import { backUpBeforeMigrating } from "../backup/snapshot";
import { commandOn } from "../command-line";
import { invalid, type ServiceError } from "../errors";
import { consoleLogger, type Logger } from "../logger";
import { databaseFiles, processesHolding } from "./holders";
import { integrityProblems } from "./integrity";
import { applyMigrations, schemaChanges, type EmbeddedMigration } from "./migrate";
import { migrations as embeddedMigrations } from "./migrations";
import * as schema from "./schema";
import { asStorageError } from "./storage";

export type DatabaseClient = BunSQLiteDatabase<typeof schema> & { $client: Database };

/** How long a command waits for another program's write lock; the server waits in its write queue instead. */
const commandBusyTimeoutMilliseconds = 5000;

/**
 * How long a migration waits for the other connections to the database to close (a
 * command that has it open for a moment) before it is refused as held by another program.
 */
const migrationWaitMilliseconds = 3000;

/**
 * What opening a database may do to its schema (docs/operations.md, "Upgrade"):
 * - `migrate`: apply what this version needs (`serve`, `skrining migrate`, `restore`); a
 *   database that holds data is migrated only while no other process has it open;
 * - `current`: every other command: a new database gets its schema (that is creating it,
 *   not migrating), an older one is refused with what to run;
 * - `as-is`: read any level this program knows and change nothing (`backup`, `check`).
 */
export type SchemaUse = "migrate" | "current" | "as-is";

/** A connection with the settings every process shares (see openDatabase); `configure` runs before the first access. */
function connect(path: string, configure: (sqlite: Database) => void = () => {}): Database {
  const sqlite = new Database(path, { create: true, strict: true });
  try {
    // Owner only (decisions §9); SQLite gives the WAL and SHM files the database file's mode.
    if (path !== ":memory:") chmodSync(path, 0o600);
    sqlite.run(`PRAGMA busy_timeout = ${commandBusyTimeoutMilliseconds}`);
    configure(sqlite);
    sqlite.run("PRAGMA journal_mode = WAL");
    sqlite.run("PRAGMA synchronous = FULL");
    sqlite.run("PRAGMA foreign_keys = ON");
    sqlite.run("PRAGMA secure_delete = ON");
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return sqlite;
}

/**
 * Opens the database with the settings every process must share: WAL so readers never
 * wait for the writer, `synchronous=FULL` so an acknowledged write survives a power cut,
 * foreign keys on, the file readable by its owner only, and a busy timeout so the CLI and
 * the server can write side by side. `secure_delete` overwrites deleted and replaced
 * content with zeros, so that a deleted diary entry or an erased student (decisions:
 * Privacy commands and restriction) stays in no free space of the file. What it may do to
 * the schema is `use` (SchemaUse); a database that holds data is copied before it is
 * migrated (`logger` says where). A file that is not a sound database is a StorageError
 * (`damaged`).
 */
export function openDatabase(
  path: string,
  migrations: readonly EmbeddedMigration[] = embeddedMigrations,
  logger: Logger = consoleLogger,
  use: SchemaUse = "migrate",
  migration: MigrationRecord = {},
): DatabaseClient {
  let sqlite: Database | undefined;
  try {
    sqlite = connect(path);
    const changes = schemaChanges(sqlite, migrations);
    if (changes.changes && changes.level.applied === 0) {
      applyMigrations(sqlite, migrations);
    } else if (changes.changes && use === "current") {
      throw olderSchema(path, changes.from, changes.to);
    } else if (changes.changes && use === "migrate") {
      sqlite.close();
      sqlite = undefined;
      migrateAlone(path, migrations, logger, { from: changes.from, to: changes.to }, migration);
      sqlite = connect(path);
    }
  } catch (error) {
    sqlite?.close();
    throw asStorageError(error, path);
  }
  return drizzle(sqlite, { schema });
}

/**
 * Who migrates a database that holds data, for the audit row the migration leaves in the
 * same exclusive hold (`serve` and `skrining migrate` alike, issue 44).
 */
export interface MigrationRecord {
  source?: Pick<AuditEntry, "actor" | "target">;
}

/** The one line a command says about a database it will not migrate, with what to run. */
function olderSchema(path: string, from: string, to: string): ServiceError {
  const why = from === to ? `pemicu ringkasannya berbeda dari versi ini (${to})` : `skemanya lebih lama (migrasi ${from}; program ini ${to})`;
  return invalid(
    `Basis data ${path} perlu dimigrasi: ${why}. Perintah ini tidak mengubah skema; hentikan server versi lama bila masih berjalan, ` +
      `lalu jalankan '${commandOn(dirname(path), "migrate")}' (atau mulai 'skrining serve' versi ini).`,
  );
}

/**
 * Migrates a database that holds data on a connection of its own that takes SQLite's
 * exclusive lock first and keeps it (`locking_mode = EXCLUSIVE`). Every other connection
 * keeps a lock while it is open, so the lock is refused while any other process has the
 * database open (an older server still serving it, a command, sqlite3), and nobody can
 * open it until the migration is done. A refused lock is a refusal naming the holders.
 */
function migrateAlone(path: string, migrations: readonly EmbeddedMigration[], logger: Logger, levels: { from: string; to: string }, migration: MigrationRecord): void {
  let alone: Database | undefined;
  try {
    // The lock is asked for by the connection's first access (setting WAL), and kept.
    alone = connect(path, (sqlite) => {
      sqlite.run(`PRAGMA busy_timeout = ${migrationWaitMilliseconds}`);
      sqlite.run("PRAGMA locking_mode = EXCLUSIVE");
    });
    alone.run("BEGIN EXCLUSIVE");
    alone.run("COMMIT");
    alone.run(`PRAGMA busy_timeout = ${commandBusyTimeoutMilliseconds}`);
    backUpBeforeMigrating(alone, path, migrations, logger);
    applyMigrations(alone, migrations);
    const { source } = migration;
    if (source) alone.transaction(() => appendAuditRows(alone!, [{ ...source, action: "update", detail: `skema basis data dimigrasi ${levels.from} → ${levels.to}` }])).immediate();
  } catch (error) {
    if (!/^SQLITE_BUSY/.test(String((error as { code?: unknown }).code))) throw error;
    const holders = processesHolding(databaseFiles(path));
    throw invalid(
      `Basis data ${path} perlu dimigrasi (${levels.from} → ${levels.to}), tetapi sedang dibuka program lain${holders.length > 0 ? ` (proses ${holders.join(", ")})` : ""}: ` +
        "server skrining versi lama yang masih berjalan, perintah lain, atau sqlite3. Hentikan program itu, lalu ulangi; migrasi tidak dijalankan.",
    );
  } finally {
    alone?.close();
  }
}

/**
 * The server never blocks its only thread on another program's lock: its writes wait in
 * the write queue, which retries from timers (see WriteQueue).
 */
export function stopWaitingForLocks(db: DatabaseClient): void {
  db.$client.run("PRAGMA busy_timeout = 0");
}

/**
 * The server's scratch space in memory (issue 28). Every job of the write queue runs in a
 * savepoint, and a savepoint keeps the earlier content of each page it changes that an
 * earlier job of the group already changed; by default SQLite keeps that in a temporary
 * file: about 25 writes to it for every questionnaire submitted, most of a submission's
 * system time. In memory it is a copy per page, freed at the commit. VACUUM builds a whole
 * copy of the database as a temporary one, and so goes back to a file (`onDisk`).
 */
export const scratchInMemory = {
  use(db: DatabaseClient): void {
    db.$client.run("PRAGMA temp_store = MEMORY");
  },
  /** Runs `work` with the scratch space on disk, then puts back what the connection had. */
  onDisk<T>(sqlite: Database, work: () => T): T {
    const previous = sqlite.query<{ temp_store: number }, []>("PRAGMA temp_store").get()?.temp_store ?? 0;
    sqlite.run("PRAGMA temp_store = FILE");
    try {
      return work();
    } finally {
      sqlite.run(`PRAGMA temp_store = ${previous}`);
    }
  },
};

/**
 * SQLite's own check of the file: `quick_check` (the structure, in about the time of
 * reading the file once) or the full `integrity_check` (also every index against its
 * table). An empty list means no damage was found.
 */
export function checkDatabase(db: DatabaseClient, full: boolean): string[] {
  const rows = db.$client.query<Record<string, string>, []>(full ? "PRAGMA integrity_check" : "PRAGMA quick_check").all();
  return integrityProblems(rows.map((row) => Object.values(row)[0]!));
}

export { schema };
