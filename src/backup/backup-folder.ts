import { lstatSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { invalid } from "../errors";
import type { Logger } from "../logger";
import type { BackupManifest } from "./manifest";
import { realPath, type FolderIdentity } from "./folder-identity";

// A folder of automatic backups belongs to one data folder (decisions §17): its owner is
// written in the folder (`skrining-backup-folder.json`), `serve` refuses a folder another
// data folder owns or one inside its own data folder, and the rotation deletes only the
// archives whose manifest names its own data folder. The same file keeps what each
// archive's manifest said (by size and time), so a manifest is read once per archive,
// not at every rotation; archives this server wrote are known without reading.

export const ownerFileName = "skrining-backup-folder.json";
const ownerFormat = "skrining-backup-folder";

/** What a manifest said about its data folder and database; `unreadable` for a file that is not a whole backup. */
interface ArchiveOrigin {
  size: number;
  modified: number;
  dataFolderId: string | null;
  dataDir: string | null;
  /** How many migrations its database had (absent in records of earlier versions: read when asked). */
  migrations?: number;
  /** Who asked for a manual backup (the console's admin, issue 44). */
  takenBy?: string;
  unreadable?: true;
}

interface OwnerRecord {
  format: typeof ownerFormat;
  dataFolder: FolderIdentity;
  claimedAt: string;
  archives: Record<string, ArchiveOrigin>;
}

/** Whether `inner` is `outer` or inside it, by real paths. */
function within(inner: string, outer: string): boolean {
  const path = relative(realPath(outer), realPath(inner));
  return path === "" || (path !== ".." && !path.startsWith(`..${sep}`) && !path.startsWith(sep));
}

/** The owner file of `folder`: absent (null), or its record; a file that is not one is a refusal. */
function readOwner(folder: string): OwnerRecord | null {
  const file = join(folder, ownerFileName);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const value = JSON.parse(text) as OwnerRecord;
    if (value.format === ownerFormat && typeof value.dataFolder?.id === "string" && typeof value.dataFolder.path === "string") return { ...value, archives: value.archives ?? {} };
  } catch {
    // refused below
  }
  throw invalid(`${file} tidak dapat dibaca sebagai catatan pemilik folder cadangan; periksa isinya, atau hapus file itu bila folder ini memang milik folder data ini.`);
}

function writeOwner(folder: string, record: OwnerRecord): void {
  const file = join(folder, ownerFileName);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/**
 * The refusals of a backup folder for the data folder `dataDir` whose identity is (or will
 * be) `identity`, before anything is written: a folder inside the data folder (a backup
 * lost with the disk it guards, and swept into its own archives), and one another data
 * folder owns.
 */
export function checkBackupFolder(folder: string, dataDir: string, identity: FolderIdentity): void {
  if (within(folder, dataDir)) {
    throw invalid(`Folder cadangan ${folder} ada di dalam folder data ${dataDir}; cadangan harus di luar folder data (sebaiknya di disk lain): pilih --backup-dir lain.`);
  }
  const owner = readOwner(folder);
  if (owner && owner.dataFolder.id !== identity.id) {
    throw invalid(
      `Folder cadangan ${folder} sudah dipakai folder data lain (${owner.dataFolder.path}, sejak ${owner.claimedAt}); satu folder cadangan hanya untuk satu folder data, ` +
        `agar rotasinya tidak menghapus cadangan milik yang lain: pilih --backup-dir lain. Bila folder data itu memang tidak dipakai lagi (digantikan folder ini), ` +
        `hapus ${join(folder, ownerFileName)} lalu mulai lagi.`,
    );
  }
}

/**
 * The backup folder of a running server, claimed for its data folder: the owner file is
 * written when missing (or its path updated when the data folder moved). Then what the
 * rotation needs: which automatic backups are the server's own.
 */
export class BackupFolder {
  private record: OwnerRecord;

  private constructor(
    private readonly folder: string,
    private readonly identity: FolderIdentity,
    private readonly readManifest: (archive: string) => Promise<BackupManifest>,
    record: OwnerRecord,
  ) {
    this.record = record;
  }

  static claim(folder: string, dataDir: string, of: FolderIdentity, readManifest: (archive: string) => Promise<BackupManifest>, logger: Logger, now = new Date()): BackupFolder {
    const identity: FolderIdentity = { id: of.id, path: of.path };
    checkBackupFolder(folder, dataDir, identity);
    let record = readOwner(folder);
    if (!record) {
      record = { format: ownerFormat, dataFolder: identity, claimedAt: now.toISOString(), archives: {} };
      writeOwner(folder, record);
      logger.info(`Folder cadangan ${folder} kini tercatat milik folder data ${identity.path} (${ownerFileName}).`);
    } else if (record.dataFolder.path !== identity.path) {
      logger.info(`Folder data ${record.dataFolder.path} kini di ${identity.path}; catatan pemilik ${join(folder, ownerFileName)} diperbarui.`);
      record = { ...record, dataFolder: identity };
      writeOwner(folder, record);
    }
    return new BackupFolder(folder, identity, readManifest, record);
  }

  /** This server wrote `name` (its manifest names this data folder): known without reading it. */
  written(name: string, facts: { migrations?: number; takenBy?: string } = {}): void {
    const stats = lstatSync(join(this.folder, name), { throwIfNoEntry: false });
    if (!stats) return;
    this.record.archives[name] = { size: stats.size, modified: stats.mtimeMs, dataFolderId: this.identity.id, dataDir: this.identity.path, ...facts };
    writeOwner(this.folder, this.record);
  }

  /** Who asked for a manual backup, as recorded when it was written; null when nobody is recorded. */
  takenBy(name: string): string | null {
    return this.record.archives[name]?.takenBy ?? null;
  }

  /** How many migrations the database in `name` had (its manifest, read once); null when it cannot be read. */
  async migrationsOf(name: string): Promise<number | null> {
    const known = this.record.archives[name];
    if (known?.migrations !== undefined) return known.migrations;
    try {
      const migrations = (await this.readManifest(join(this.folder, name))).schema.migrations;
      if (known) {
        known.migrations = migrations;
        writeOwner(this.folder, this.record);
      }
      return migrations;
    } catch {
      return null;
    }
  }

  /**
   * Of these automatic backups, the ones whose manifest names this data folder: by its
   * identity, or (archives of earlier versions, which record only a path) by this folder's
   * path. An archive that cannot be read is nobody's, and so never deleted.
   */
  async own(names: readonly string[]): Promise<Set<string>> {
    const archives: Record<string, ArchiveOrigin> = {};
    let read = false;
    for (const name of names) {
      const file = join(this.folder, name);
      const stats = lstatSync(file, { throwIfNoEntry: false });
      if (!stats?.isFile()) continue;
      const known = this.record.archives[name];
      if (known && known.size === stats.size && known.modified === stats.mtimeMs) {
        archives[name] = known;
        continue;
      }
      read = true;
      try {
        const manifest = await this.readManifest(file);
        archives[name] = { size: stats.size, modified: stats.mtimeMs, dataFolderId: manifest.dataFolderId ?? null, dataDir: manifest.dataDir ?? null, migrations: manifest.schema?.migrations };
      } catch {
        archives[name] = { size: stats.size, modified: stats.mtimeMs, dataFolderId: null, dataDir: null, unreadable: true };
      }
    }
    // Archives deleted since are forgotten with the next change.
    if (read || Object.keys(archives).length !== Object.keys(this.record.archives).length) {
      this.record = { ...this.record, archives };
      writeOwner(this.folder, this.record);
    }
    return new Set(Object.entries(archives).filter(([, origin]) => this.names(origin)).map(([name]) => name));
  }

  private names(origin: ArchiveOrigin): boolean {
    if (origin.dataFolderId !== null) return origin.dataFolderId === this.identity.id;
    return origin.dataDir !== null && realPath(origin.dataDir) === this.identity.path;
  }
}
