import { Database } from "bun:sqlite";
import { chmodSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Logger } from "../logger";
import { migrationNumber, migrationsAfter, schemaLevel, type EmbeddedMigration } from "../db/migrate";
import { StorageError, asStorageError } from "../db/storage";
import { invalid } from "../errors";
import { syncFolder } from "../folder-sync";

/** A moment as part of a file name: sortable as text, in UTC, without characters a file system refuses (`20261125-004312Z`). */
export function fileTimestamp(moment: Date): string {
  return moment.toISOString().replace(/\.\d{3}Z$/, "Z").replaceAll("-", "").replaceAll(":", "").replace("T", "-");
}

/**
 * Copies the database as it is at one moment into `target` (0600), checked with
 * `quick_check` before it gets its name. VACUUM INTO reads inside one read transaction, so
 * writes committed meanwhile (by this or another process) neither wait for it nor tear the
 * copy. A copy that fails leaves no file; one that fails the check means the source is
 * damaged, and says so.
 */
export function snapshotDatabase(sqlite: Database, target: string): void {
  const temporary = join(dirname(target), `.${basename(target)}.tmp`);
  try {
    sqlite.run("VACUUM INTO ?", [temporary]);
    chmodSync(temporary, 0o600);
    const problems = quickCheck(temporary);
    if (problems.length > 0) throw new StorageError("damaged", new Error(`salinan tidak lolos quick_check: ${problems.slice(0, 3).join("; ")}`), sqlite.filename);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** SQLite's `quick_check` of a database file opened read-only; an empty list when it is sound. */
export function quickCheck(path: string): string[] {
  const copy = new Database(path, { readonly: true });
  try {
    const messages = copy.query<{ quick_check: string }, []>("PRAGMA quick_check").all().map((row) => row.quick_check);
    return messages.length === 1 && messages[0] === "ok" ? [] : messages;
  } finally {
    copy.close();
  }
}

/** Where the copies taken before a migration are kept, inside the data folder. */
export const safetyBackupsFolder = "backups";

/**
 * Before a database that already holds data is migrated, a copy of it as it was goes to
 * `<data>/backups/skrining-before-migration-<from>-to-<to>-<time>.db`, and `logger` says
 * where. A migration that cannot be backed up first (a full disk) does not run: the copy's
 * failure is thrown. A new database, or one already up to date, is not copied.
 */
export function backUpBeforeMigrating(sqlite: Database, databasePath: string, migrations: readonly EmbeddedMigration[], logger: Logger, now = new Date()): string | null {
  const level = schemaLevel(sqlite);
  if (level.applied === 0) return null;
  const pending = migrationsAfter(level, migrations);
  if (pending.length === 0) return null;
  const from = migrationNumber(migrations.find((migration) => migration.createdAt === level.lastCreatedAt)?.tag);
  const to = migrationNumber(pending.at(-1)!.tag);
  const folder = join(dirname(databasePath), safetyBackupsFolder);
  const target = join(folder, `skrining-before-migration-${from}-to-${to}-${fileTimestamp(now)}.db`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    snapshotDatabase(sqlite, target);
    syncFolder(folder);
  } catch (error) {
    const failure = asStorageError(error, target);
    if (failure instanceof StorageError) throw failure;
    throw invalid(`Salinan sebelum migrasi skema (${from} → ${to}) tidak dapat dibuat di ${folder}: ${(error as Error).message}. Migrasi tidak dijalankan.`);
  }
  logger.info(`Skema basis data akan dimigrasi (${from} → ${to}); salinan sebelum migrasi disimpan di ${target}`);
  return target;
}
