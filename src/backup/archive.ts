import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { accessSync, constants, existsSync, lstatSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { Header, Pax } from "tar";
import packageJson from "../../package.json";
import { databaseFileName, replaceableFileNames } from "../config";
import { migrationsAfter, schemaLevel } from "../db/migrate";
import { asStorageError } from "../db/storage";
import { migrations as embeddedMigrations } from "../db/migrations";
import { invalid } from "../errors";
import { syncFolder } from "../folder-sync";
import { readArchive } from "./archive-reader";
import { encrypt } from "./encryption";
import { dataEntryPrefix, differencesFromManifest, manifestEntry, manifestFormat, manifestFormatVersion, type BackupManifest } from "./manifest";
import { snapshotDatabase } from "./snapshot";

// Writing a backup (the format: manifest.ts; encrypted: encryption.ts).

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
 * checksum compared (an encrypted one decrypted, every chunk's tag checked); only then does
 * it get its name. The snapshot passed `quick_check` before it was packed, and the checksum
 * proves the archive holds those very bytes. A backup that fails anywhere (a full disk)
 * leaves no file. With `encryption`, the archive is encrypted with its passphrase, the key
 * derived at its scrypt cost (encryption.ts).
 */
export async function writeBackup(options: { sqlite: Database; dataDir: string; dataFolderId?: string; target: string; encryption?: { passphrase: string; kdfCost: number }; now?: Date }): Promise<BackupManifest> {
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
    const { encryption } = options;
    const passphrase = encryption?.passphrase;
    const handle = await open(temporary, "wx", 0o600);
    try {
      const save = async (bytes: AsyncIterable<Buffer>) => {
        for await (const chunk of bytes) await handle.write(chunk);
      };
      if (encryption === undefined) await pipeline(tarStream(sources, manifest), createGzip(), save);
      else await pipeline(tarStream(sources, manifest), createGzip(), (compressed: AsyncIterable<Buffer>) => encrypt(compressed, encryption.passphrase, encryption.kdfCost), save);
      await handle.sync();
    } finally {
      await handle.close();
    }
    const written = await readArchive(temporary, async () => passphrase ?? "");
    const problems = differencesFromManifest(manifest, written.found);
    if (JSON.stringify(written.manifest) !== JSON.stringify(manifest)) problems.push("manifest yang terbaca tidak sama dengan yang ditulis");
    if (written.encrypted !== (passphrase !== undefined)) problems.push(passphrase === undefined ? "arsip terbaca terenkripsi" : "arsip terbaca tidak terenkripsi");
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
