import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { accessSync, constants, existsSync, lstatSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { Header, Pax, list as listArchive } from "tar";
import packageJson from "../../package.json";
import { databaseFileName, replaceableFileNames } from "../config";
import { migrationsAfter, schemaLevel } from "../db/migrate";
import { asStorageError } from "../db/storage";
import { migrations as embeddedMigrations } from "../db/migrations";
import { invalid } from "../errors";
import { syncFolder } from "../folder-sync";
import { snapshotDatabase } from "./snapshot";

/**
 * A backup is a gzip-compressed tar file, which `tar xzf` opens by hand as well:
 *
 *     skrining-backup/manifest.json     what the archive holds (BackupManifest)
 *     skrining-backup/data/skrining.db  a consistent snapshot of the database
 *     skrining-backup/data/secret, questions.json, help.json, photos/..., models/...
 *
 * `skrining-backup/data` is a data folder as it was, usable with `--data`. The manifest
 * comes last because it holds the checksums, computed while the files are written.
 */
export const archiveRoot = "skrining-backup";
export const manifestEntry = `${archiveRoot}/manifest.json`;
export const dataEntryPrefix = `${archiveRoot}/data/`;

const manifestFormat = "skrining-backup";
const manifestFormatVersion = 1;

export interface ManifestFile {
  /** Relative to the data folder, with `/`. */
  path: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof manifestFormat;
  formatVersion: number;
  /** The program that wrote it, e.g. `skrining 0.1.0`. */
  program: string;
  createdAt: string;
  /** The data folder it was taken from, for a person reading the manifest. */
  dataDir: string;
  /**
   * That folder's identity (folder-identity.ts): automatic backups rotate only the archives
   * whose manifest names their own folder. Absent in archives of earlier versions, which
   * name their folder by `dataDir` alone.
   */
  dataFolderId?: string;
  /** The database's schema: how many migrations, and the journal time of the last one (decides what a program can open). */
  schema: { migrations: number; lastMigrationCreatedAt: number | null };
  files: ManifestFile[];
}

/** A file of the data folder that goes into a backup. */
interface Source {
  path: string;
  file: string;
}

/**
 * What a backup carries besides the database: the secret, the replaceable data files,
 * and the files directly in `photos/` and `models/`. Left out: the WAL files (the snapshot
 * holds everything committed), unfinished uploads and model files (names starting with `.`
 * or ending in `.tmp`), `photos/unreferenced/` (files no profile refers to, set aside by
 * the start-up sweep for an admin to look at), `backups/` (the copies taken before a
 * migration) and anything else a person put into the folder.
 */
function dataFolderSources(dataDir: string): Source[] {
  const sources: Source[] = [];
  const isFile = (file: string) => lstatSync(file, { throwIfNoEntry: false })?.isFile() === true;
  for (const name of ["secret", ...Object.values(replaceableFileNames)]) {
    if (isFile(join(dataDir, name))) sources.push({ path: name, file: join(dataDir, name) });
  }
  for (const folder of ["photos", "models"]) {
    const folderPath = join(dataDir, folder);
    if (!existsSync(folderPath)) continue;
    for (const name of readdirSync(folderPath).sort()) {
      if (name.startsWith(".") || name.endsWith(".tmp")) continue;
      const file = join(folderPath, name);
      if (isFile(file)) sources.push({ path: `${folder}/${name}`, file });
    }
  }
  return sources;
}

const blockSize = 512;
export const padding = (size: number) => Buffer.alloc((blockSize - (size % blockSize)) % blockSize);

/** A tar header for a regular file (0600, owner 0), with a PAX header first when the path is too long for the plain one. */
export function fileHeader(path: string, size: number, modified: Date): Buffer[] {
  const fields = { path, mode: 0o600, uid: 0, gid: 0, size, mtime: modified, type: "File" as const };
  const block = Buffer.alloc(blockSize);
  const needPax = new Header(fields).encode(block, 0);
  return needPax ? [new Pax(fields).encode(), block] : [block];
}

/**
 * The tar stream of the snapshot, the data folder's files and the manifest. Each file is
 * opened before its header is written and read through that handle, so a photo replaced
 * or deleted meanwhile is read whole or skipped (a file gone before it was opened), never
 * half; its checksum is computed from the very bytes that go into the archive.
 */
async function* tarStream(sources: Source[], manifest: BackupManifest): AsyncGenerator<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024);
  for (const source of sources) {
    let handle: FileHandle;
    try {
      handle = await open(source.file, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" && source.path !== databaseFileName) continue;
      throw error;
    }
    try {
      const stats = await handle.stat();
      yield* fileHeader(`${dataEntryPrefix}${source.path}`, stats.size, stats.mtime);
      const hash = createHash("sha256");
      let position = 0;
      while (position < stats.size) {
        const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, stats.size - position), position);
        if (bytesRead === 0) throw invalid(`${source.file} berubah saat dicadangkan; ulangi backup.`);
        const bytes = Buffer.from(chunk.subarray(0, bytesRead));
        hash.update(bytes);
        position += bytesRead;
        yield bytes;
      }
      yield padding(stats.size);
      manifest.files.push({ path: source.path, size: stats.size, sha256: hash.digest("hex") });
    } finally {
      await handle.close();
    }
  }
  const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + "\n");
  yield* fileHeader(manifestEntry, manifestBytes.length, new Date(manifest.createdAt));
  yield manifestBytes;
  yield padding(manifestBytes.length);
  // Two zero blocks end a tar archive.
  yield Buffer.alloc(2 * blockSize);
}

/** What was found in an archive or a folder: each file's size and checksum, by path relative to the data folder. */
export type FoundFiles = Map<string, { size: number; sha256: string }>;

/** Every difference between a manifest and what was found; an empty list when they agree. */
export function differencesFromManifest(manifest: BackupManifest, found: FoundFiles): string[] {
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const file of manifest.files) {
    listed.add(file.path);
    const actual = found.get(file.path);
    if (!actual) problems.push(`${file.path} tidak ada di arsip`);
    else if (actual.size !== file.size || actual.sha256 !== file.sha256) problems.push(`${file.path} tidak sama dengan checksum di manifest`);
  }
  for (const path of found.keys()) if (!listed.has(path)) problems.push(`${path} tidak tercantum di manifest`);
  if (!listed.has(databaseFileName)) problems.push(`${databaseFileName} tidak tercantum di manifest`);
  return problems;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A safe relative path: segments of ordinary names, no `..`, nothing absolute. */
const safeRelativePath = (path: string) => path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..") && !path.includes("\\");

/** The manifest of an archive, or a refusal saying why the text is not one this program reads. */
export function parseManifest(text: string, archive: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(`${archive}: manifest cadangan tidak dapat dibaca.`);
  }
  if (!isRecord(value) || value.format !== manifestFormat) throw invalid(`${archive}: bukan cadangan skrining (manifest tidak dikenal).`);
  if (typeof value.formatVersion !== "number" || value.formatVersion > manifestFormatVersion) {
    throw invalid(`${archive} dibuat oleh ${String(value.program)} dengan format cadangan yang lebih baru; pulihkan dengan versi skrining itu atau yang lebih baru.`);
  }
  const files = value.files;
  const schema = value.schema;
  const wellFormed =
    typeof value.program === "string" &&
    typeof value.createdAt === "string" &&
    (value.dataFolderId === undefined || typeof value.dataFolderId === "string") &&
    isRecord(schema) &&
    typeof schema.migrations === "number" &&
    Array.isArray(files) &&
    files.every((file) => isRecord(file) && typeof file.path === "string" && safeRelativePath(file.path) && Number.isSafeInteger(file.size) && typeof file.sha256 === "string");
  if (!wellFormed) throw invalid(`${archive}: manifest cadangan tidak lengkap.`);
  return value as unknown as BackupManifest;
}

/** Why a file could not be read as an archive, as a refusal; a disk's own failure stays what it was. */
export function unreadableArchive(error: unknown, archive: string): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return invalid(`${archive} tidak ada.`);
  if (typeof code === "string" && /^E[A-Z]+$/.test(code) && code !== "EOF") return error;
  return invalid(`${archive} bukan arsip cadangan yang utuh (rusak atau terpotong): ${(error as Error).message}`);
}

/** A SQLite file's first bytes: the backups of earlier versions were a bare copy of the database. */
const sqliteHeader = "SQLite format 3\0";

/** Refuses a bare database copy with what to do instead. */
export async function refuseBareDatabase(archive: string): Promise<void> {
  let start = "";
  try {
    const handle = await open(archive, "r");
    try {
      const buffer = Buffer.alloc(sqliteHeader.length);
      await handle.read(buffer, 0, buffer.length, 0);
      start = buffer.toString("latin1");
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw unreadableArchive(error, archive);
  }
  if (start === sqliteHeader) {
    throw invalid(`${archive} adalah salinan basis data saja (cadangan versi lama), bukan arsip cadangan; pulihkan dengan langkah manual di docs/operations.md.`);
  }
}

/**
 * Reads an archive through and returns its manifest and every file's checksum, without
 * writing anything. Any entry that is not a regular file under `skrining-backup/` is a
 * refusal, as is an archive the gzip or tar layer finds damaged or cut short.
 */
export async function readArchive(archive: string): Promise<{ manifest: BackupManifest; found: FoundFiles }> {
  await refuseBareDatabase(archive);
  const found: FoundFiles = new Map();
  const strangers: string[] = [];
  let manifestText: string | null = null;
  try {
    await listArchive({
      file: archive,
      strict: true,
      onReadEntry: (entry) => {
        const isManifest = entry.path === manifestEntry;
        // Folders say nothing a file path does not (an archive packed again by hand has them).
        if (entry.type === "Directory" && entry.path.startsWith(`${archiveRoot}/`)) {
          entry.resume();
          return;
        }
        if (entry.type !== "File" || (!isManifest && !entry.path.startsWith(dataEntryPrefix))) {
          strangers.push(entry.path);
          entry.resume();
          return;
        }
        const hash = createHash("sha256");
        const parts: Buffer[] = [];
        let size = 0;
        entry.on("data", (bytes: Buffer) => {
          size += bytes.length;
          if (isManifest) parts.push(bytes);
          else hash.update(bytes);
        });
        entry.on("end", () => {
          if (isManifest) manifestText = Buffer.concat(parts).toString("utf8");
          else found.set(entry.path.slice(dataEntryPrefix.length), { size, sha256: hash.digest("hex") });
        });
      },
    });
  } catch (error) {
    throw unreadableArchive(error, archive);
  }
  if (strangers.length > 0) throw invalid(`${archive} memuat isi yang bukan bagian cadangan skrining: ${strangers.slice(0, 3).join(", ")}`);
  if (manifestText === null) throw invalid(`${archive} bukan arsip cadangan yang utuh: manifest tidak ada (rusak, terpotong, atau bukan cadangan skrining).`);
  return { manifest: parseManifest(manifestText, archive), found };
}

/** The schema of a database file, and whether this program knows it (not newer than its own migrations). */
export function databaseSchema(path: string): { level: BackupManifest["schema"]; newerThanProgram: boolean; pending: number } {
  const sqlite = new Database(path, { readonly: true });
  try {
    const level = schemaLevel(sqlite);
    const newest = embeddedMigrations.at(-1)!.createdAt;
    return {
      level: { migrations: level.applied, lastMigrationCreatedAt: level.lastCreatedAt },
      newerThanProgram: (level.lastCreatedAt ?? 0) > newest,
      pending: migrationsAfter(level, embeddedMigrations).length,
    };
  } finally {
    sqlite.close();
  }
}

/** The name a file is written under until it is verified, beside its final name. */
const temporaryNameOf = (target: string, purpose: string) => join(dirname(target), `.${basename(target)}.${process.pid}.${purpose}.tmp`);

/**
 * Writes one archive of the data folder to `target`: a snapshot of the database (taken
 * through `sqlite`, safe while the server writes), then the files, then the manifest. It
 * is written under a temporary name beside the target, flushed, read back whole with every
 * checksum compared; only then does it get its name. The snapshot passed `quick_check`
 * before it was packed, and the checksum proves the archive holds those very bytes. A
 * backup that fails anywhere (a full disk) leaves no file.
 */
export async function writeBackup(options: { sqlite: Database; dataDir: string; dataFolderId?: string; target: string; now?: Date }): Promise<BackupManifest> {
  const target = resolve(options.target);
  if (existsSync(target)) throw invalid(`${target} sudah ada; pilih nama file lain.`);
  if (!statSync(dirname(target), { throwIfNoEntry: false })?.isDirectory()) throw invalid(`folder ${dirname(target)} tidak ada; cadangan tidak dibuat.`);
  // Asked first, so a read-only place is named as such (SQLite would only say it cannot open the copy).
  try {
    accessSync(dirname(target), constants.W_OK);
  } catch (error) {
    throw asStorageError(error, dirname(target));
  }
  const temporary = temporaryNameOf(target, "archive");
  const snapshot = temporaryNameOf(target, "database");
  try {
    snapshotDatabase(options.sqlite, snapshot);
    const schema = databaseSchema(snapshot).level;
    const manifest: BackupManifest = {
      format: manifestFormat,
      formatVersion: manifestFormatVersion,
      program: `skrining ${packageJson.version}`,
      createdAt: (options.now ?? new Date()).toISOString(),
      dataDir: options.dataDir,
      ...(options.dataFolderId === undefined ? {} : { dataFolderId: options.dataFolderId }),
      schema,
      files: [],
    };
    const sources = [{ path: databaseFileName, file: snapshot }, ...dataFolderSources(options.dataDir)];
    const handle = await open(temporary, "wx", 0o600);
    try {
      await pipeline(tarStream(sources, manifest), createGzip(), async (compressed: AsyncIterable<Buffer>) => {
        for await (const bytes of compressed) await handle.write(bytes);
      });
      await handle.sync();
    } finally {
      await handle.close();
    }
    const written = await readArchive(temporary);
    const problems = differencesFromManifest(manifest, written.found);
    if (JSON.stringify(written.manifest) !== JSON.stringify(manifest)) problems.push("manifest yang terbaca tidak sama dengan yang ditulis");
    if (problems.length > 0) throw invalid(`cadangan tidak utuh setelah ditulis (${problems.slice(0, 3).join("; ")}); tidak disimpan.`);
    renameSync(temporary, target);
    syncFolder(dirname(target));
    return manifest;
  } catch (error) {
    rmSync(temporary, { force: true });
    throw asStorageError(error, target);
  } finally {
    rmSync(snapshot, { force: true });
  }
}
