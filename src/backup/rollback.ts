import { Database } from "bun:sqlite";
import { chmodSync, closeSync, copyFileSync, existsSync, fsyncSync, openSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { databaseFileName } from "../config";
import { databaseFiles, processesHolding } from "../db/holders";
import { appliedNumber, migrationNumber, schemaLevel } from "../db/migrate";
import { migrations } from "../db/migrations";
import { invalid } from "../errors";
import { syncFolder } from "../folder-sync";
import { keepOwner } from "./ownership";
import { fileTimestamp, quickCheck, safetyBackupsFolder } from "./snapshot";

// `skrining rollback` (issue 44, item 1): back to the database as it was before a schema
// migration, after the new version failed (killed, a power cut) and the old executable is
// put back. The database is moved aside whole, with its `-wal` and `-shm`, never deleted:
// a copy put in place beside the new version's `-wal` would be read with it (SQLite pairs a
// database with the `-wal` of its name) as a malformed schema, and the `-wal` replayed and
// deleted, losing what it held.

const copyPattern = /^skrining-before-migration-(\d{4})-to-(\d{4})-(\d{8}-\d{6}Z)\.db$/;

/** A copy taken before a migration (src/backup/snapshot.ts), as its name describes it. */
export interface MigrationCopy {
  path: string;
  from: string;
  to: string;
  /** When it was taken, as in its name (`20261125-081530Z`). */
  taken: string;
}

/** The copies taken before a migration in a data folder's `backups/`, newest first. */
export function migrationCopies(dataDir: string): MigrationCopy[] {
  const folder = join(dataDir, safetyBackupsFolder);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .flatMap((name) => {
      const match = copyPattern.exec(name);
      return match ? [{ path: join(folder, name), from: match[1]!, to: match[2]!, taken: match[3]! }] : [];
    })
    .sort((a, b) => b.taken.localeCompare(a.taken) || b.to.localeCompare(a.to));
}

export interface RollbackResult {
  copy: MigrationCopy;
  /** Where the database and its WAL files went (each that existed), by their new paths. */
  movedAside: string[];
  /** The placed database's schema: the number of its newest migration. */
  level: string;
  /** This program's newest migration: a later one means it would migrate the database again at its start. */
  programLevel: string;
}

const databaseSuffixes = ["", "-wal", "-shm"] as const;

/** The schema level of a database file opened read-only, and whether `integrity_check` finds it whole. */
function inspect(path: string): { applied: number; problems: string[] } {
  const sqlite = new Database(path, { readonly: true });
  try {
    const rows = sqlite.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all().map((row) => row.integrity_check);
    return { applied: schemaLevel(sqlite).applied, problems: rows.length === 1 && rows[0] === "ok" ? [] : rows };
  } finally {
    sqlite.close();
  }
}

/**
 * Puts the copy taken before a migration (the newest, or `chosen`) in place of the data
 * folder's database. Refused while any process holds the database open (a server still
 * running: it is not stopped). The copy is checked first (`integrity_check`, its schema
 * the level its name says); then the database and its `-wal`/`-shm` are moved, as they are,
 * to `backups/skrining-before-rollback-<time>.db` (with `-wal`/`-shm` beside it, so SQLite
 * still pairs them), and the copy is copied (not moved: it stays for another try) in as
 * `skrining.db`, flushed, owned as the data folder is, and checked again where it lies.
 */
export function rollBack(dataDir: string, options: { chosen?: string; now?: Date } = {}): RollbackResult {
  if (!existsSync(dataDir)) throw invalid(`Folder data ${dataDir} tidak ada. Periksa --data (atau SKRINING_DATA).`);
  const copies = migrationCopies(dataDir);
  const copy = options.chosen === undefined ? copies[0] : copies.find((each) => each.path === options.chosen || basename(each.path) === basename(options.chosen!));
  if (!copy) {
    throw invalid(
      options.chosen === undefined
        ? `Tidak ada salinan sebelum migrasi di ${join(dataDir, safetyBackupsFolder)}; tidak ada yang dikembalikan. Untuk kembali ke keadaan sebelumnya, pulihkan cadangan (restore --force, docs/operations.md).`
        : `${options.chosen} bukan salinan sebelum migrasi di ${join(dataDir, safetyBackupsFolder)} (skrining-before-migration-…db); tidak ada yang dikembalikan.`,
    );
  }
  const database = join(dataDir, databaseFileName);
  // Nothing that runs is stopped: a server on the folder is a refusal (on Windows, where there
  // is no /proc, the rename of a file another program holds open fails below instead).
  const holders = existsSync(database) ? processesHolding(databaseFiles(database)) : [];
  if (holders.length > 0) {
    throw invalid(`${database} sedang dibuka oleh proses ${holders.join(", ")} (server skrining yang berjalan?); rollback tidak menghentikannya. Hentikan layanan dulu, lalu ulangi; tidak ada yang diubah.`);
  }
  const before = inspect(copy.path);
  if (before.problems.length > 0) throw invalid(`Salinan ${copy.path} rusak (integrity_check: ${before.problems.slice(0, 3).join("; ")}); tidak ada yang dikembalikan. Pilih salinan lain, atau pulihkan cadangan.`);
  if (appliedNumber(before.applied) !== copy.from) {
    throw invalid(`Salinan ${copy.path} berskema migrasi ${appliedNumber(before.applied)}, bukan ${copy.from} seperti namanya; tidak ada yang dikembalikan.`);
  }

  const aside = join(dataDir, safetyBackupsFolder, `skrining-before-rollback-${fileTimestamp(options.now ?? new Date())}.db`);
  if (databaseSuffixes.some((suffix) => existsSync(`${aside}${suffix}`))) throw invalid(`${aside} sudah ada; ulangi rollback sebentar lagi.`);
  const incoming = join(dataDir, `.${databaseFileName}.rollback-${process.pid}.tmp`);
  const moved: [from: string, to: string][] = [];
  try {
    copyFileSync(copy.path, incoming);
    chmodSync(incoming, 0o600);
    const handle = openSync(incoming, "r+");
    try {
      fsyncSync(handle);
    } finally {
      closeSync(handle);
    }
    keepOwner(dataDir, [incoming]);
    for (const suffix of databaseSuffixes) {
      if (!existsSync(`${database}${suffix}`)) continue;
      renameSync(`${database}${suffix}`, `${aside}${suffix}`);
      moved.push([`${database}${suffix}`, `${aside}${suffix}`]);
    }
    renameSync(incoming, database);
    syncFolder(join(dataDir, safetyBackupsFolder));
    syncFolder(dataDir);
  } catch (error) {
    rmSync(incoming, { force: true });
    for (const [from, to] of moved.reverse()) renameSync(to, from);
    throw invalid(`rollback dibatalkan, folder data ${dataDir} tetap seperti semula: ${(error as Error).message}. Hentikan program yang membuka file di sana, lalu ulangi.`);
  }
  // Checked where it lies now, as the old program will open it.
  const placed = quickCheck(database);
  if (placed.length > 0) throw invalid(`${database} tidak lolos quick_check sesudah dipasang (${placed.slice(0, 3).join("; ")}); basis data sebelumnya ada di ${aside}.`);
  return {
    copy,
    movedAside: moved.map(([, to]) => to),
    level: appliedNumber(inspect(database).applied),
    programLevel: migrationNumber(migrations.at(-1)?.tag),
  };
}

/** What `skrining rollback` says it did, line by line. */
export function rollbackLines(dataDir: string, result: RollbackResult): string[] {
  const { copy } = result;
  const database = join(dataDir, databaseFileName);
  const lines = [
    result.movedAside.length > 0
      ? `Basis data dipindahkan ke samping, utuh dengan file WAL-nya (tidak dihapus): ${result.movedAside.join(", ")}.`
      : `${database} tidak ada; tidak ada yang dipindahkan.`,
    `Salinan sebelum migrasi ${copy.from} → ${copy.to} (${copy.taken}) dipasang sebagai ${database}; salinannya tetap di ${copy.path}.`,
    `Diperiksa: integrity_check baik, skema migrasi ${result.level}.`,
    "Yang ditulis sesudah salinan itu dibuat tidak ada di basis data ini; masih ada di basis data yang dipindahkan ke samping.",
  ];
  lines.push(
    result.level < result.programLevel
      ? `Jalankan executable versi lama (yang mengenal migrasi ${result.level}), lalu mulai layanan. Program ini (migrasi ${result.programLevel}) akan memigrasinya lagi bila dimulai.`
      : "Basis data ini cocok dengan program ini; mulai layanan.",
  );
  return lines;
}
