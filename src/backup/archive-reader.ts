import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { Parser, type ReadEntry } from "tar";
import { ServiceError, invalid } from "../errors";
import { decrypt, isEncryptedArchive, unlockArchive, type ArchiveKey } from "./encryption";
import { archiveRoot, dataEntryPrefix, manifestEntry, maxManifestBytes, parseManifest, shown, type BackupManifest, type FoundFiles } from "./manifest";

/** Where the passphrase of an archive comes from; asked only once the archive turns out to be encrypted. */
export type PassphraseSource = () => Promise<string>;

/** An archive opened for reading: plain or encrypted, read from the start as often as needed through one handle. */
export interface OpenedArchive {
  path: string;
  encrypted: boolean;
  /** The plain archive's bytes from its start; of an encrypted one, each chunk only after its tag was checked. */
  bytes(): AsyncIterable<Buffer>;
  close(): Promise<void>;
}

/** Why a file could not be read as an archive, as a refusal; a refusal of ours and a disk's own failure stay what they were. */
export function unreadableArchive(error: unknown, archive: string): unknown {
  if (error instanceof ServiceError) return error;
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

async function* fileBytes(handle: FileHandle): AsyncGenerator<Buffer> {
  for (let position = 0; ; ) {
    // A fresh buffer each time: whoever reads may keep a chunk (the decryption does).
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * Opens an archive: a bare database copy is refused; an encrypted one asks `passphrase`
 * for its passphrase and refuses a wrong one here, before anything of it is read.
 */
export async function openArchive(path: string, passphrase?: PassphraseSource): Promise<OpenedArchive> {
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw invalid(`${path} adalah folder, bukan arsip cadangan.`);
  await refuseBareDatabase(path);
  let key: ArchiveKey | null = null;
  let handle: FileHandle;
  try {
    if (await isEncryptedArchive(path)) {
      if (!passphrase) throw invalid(`${path} terenkripsi; passphrase-nya diperlukan untuk membacanya.`);
      key = await unlockArchive(path, await passphrase());
    }
    handle = await open(path, "r");
  } catch (error) {
    throw unreadableArchive(error, path);
  }
  const unlocked = key;
  return {
    path,
    encrypted: unlocked !== null,
    bytes: () => (unlocked ? decrypt(fileBytes(handle), unlocked, path) : fileBytes(handle)),
    close: () => handle.close(),
  };
}

/** What an entry of a backup archive is: a folder (says nothing a file path does not), the manifest, a data file, or anything else. */
export type EntryKind = { kind: "folder" } | { kind: "manifest" } | { kind: "file"; path: string } | { kind: "stranger" };

export function classify(entry: ReadEntry): EntryKind {
  // An archive packed again by hand has folders.
  if (entry.type === "Directory" && entry.path.startsWith(`${archiveRoot}/`)) return { kind: "folder" };
  if (entry.type !== "File") return { kind: "stranger" };
  if (entry.path === manifestEntry) return { kind: "manifest" };
  if (entry.path.startsWith(dataEntryPrefix)) return { kind: "file", path: entry.path.slice(dataEntryPrefix.length) };
  return { kind: "stranger" };
}

export const strangerIn = (archive: string, path: string) => invalid(`${archive} memuat isi yang bukan bagian cadangan skrining: ${shown(path)}`);
export const twiceIn = (archive: string, path: string) => invalid(`${archive} memuat ${shown(path)} dua kali; arsip ini tidak dipakai.`);
export const noManifest = (archive: string) => invalid(`${archive} bukan arsip cadangan yang utuh: manifest tidak ada (rusak, terpotong, atau bukan cadangan skrining).`);

/** How a visitor of the entries ends the reading: nothing of the archive is read after `stop`. */
export interface Reading {
  stop(reason: Error): void;
  stopped(): boolean;
}

/**
 * Feeds an archive's bytes (gzip-compressed or not) to node-tar's parser and hands each
 * entry to `visit`, which reads it with synchronous `data` and `end` handlers and may stop
 * the reading with a refusal. Resolves once the archive was read to its end; rejects with
 * the refusal, the parser's complaint (damaged, cut short) or the source's (decryption).
 */
export async function readTar(bytes: AsyncIterable<Buffer>, visit: (entry: ReadEntry, reading: Reading) => void): Promise<void> {
  let failure: unknown = null;
  const parser = new Parser({ strict: true });
  const reading: Reading = {
    stop: (reason) => {
      failure ??= reason;
      parser.abort(reason);
    },
    stopped: () => failure !== null,
  };
  const finished = new Promise<void>((resolve) => {
    parser.on("error", (error: unknown) => {
      failure ??= error;
      resolve();
    });
    parser.on("end", () => resolve());
  });
  parser.on("entry", (entry: ReadEntry) => (failure === null ? visit(entry, reading) : entry.resume()));
  try {
    for await (const chunk of bytes) {
      if (failure !== null) break;
      if (!parser.write(chunk)) await Promise.race([new Promise((resolve) => parser.once("drain", resolve)), finished]);
    }
  } catch (error) {
    failure ??= error;
  }
  if (failure === null) {
    parser.end();
    await finished;
  }
  if (failure !== null) throw failure;
}

export interface ArchiveContents {
  manifest: BackupManifest;
  /** The manifest as it is in the archive: a second reading must find these very bytes. */
  manifestText: string;
  found: FoundFiles;
}

/**
 * Reads an opened archive through, writing nothing: every file's size and checksum, and
 * the manifest. Any entry that is not a regular file under `skrining-backup/` is a
 * refusal, as is a path found twice and an archive the gzip or tar layer (or the
 * decryption) finds damaged or cut short. `limit` stops the reading as soon as the files
 * add up to more than it allows (the room a restore has), with its refusal.
 */
export async function readContents(archive: OpenedArchive, limit?: { bytes: number; refusal: () => Error }): Promise<ArchiveContents> {
  const found: FoundFiles = new Map();
  let manifestText: string | null = null;
  let total = 0;
  try {
    await readTar(archive.bytes(), (entry, reading) => {
      const entryKind = classify(entry);
      if (entryKind.kind === "folder") return void entry.resume();
      if (entryKind.kind === "stranger") return reading.stop(strangerIn(archive.path, entry.path));
      const isManifest = entryKind.kind === "manifest";
      if (isManifest ? manifestText !== null : found.has(entryKind.path)) return reading.stop(twiceIn(archive.path, entry.path));
      if (isManifest && entry.size > maxManifestBytes) return reading.stop(invalid(`${archive.path}: manifest cadangan terlalu besar.`));
      const hash = createHash("sha256");
      const parts: Buffer[] = [];
      let size = 0;
      entry.on("data", (bytes: Buffer) => {
        if (reading.stopped()) return;
        size += bytes.length;
        if (isManifest) return void parts.push(bytes);
        hash.update(bytes);
        total += bytes.length;
        if (limit && total > limit.bytes) reading.stop(limit.refusal());
      });
      entry.on("end", () => {
        if (reading.stopped()) return;
        if (isManifest) manifestText = Buffer.concat(parts).toString("utf8");
        else found.set(entryKind.path, { size, sha256: hash.digest("hex") });
      });
    });
  } catch (error) {
    throw unreadableArchive(error, archive.path);
  }
  if (manifestText === null) throw noManifest(archive.path);
  return { manifest: parseManifest(manifestText, archive.path), manifestText, found };
}

/** Opens, reads through and closes an archive (readContents); whether it was encrypted. */
export async function readArchive(path: string, passphrase?: PassphraseSource): Promise<ArchiveContents & { encrypted: boolean }> {
  const archive = await openArchive(path, passphrase);
  try {
    return { ...(await readContents(archive)), encrypted: archive.encrypted };
  } finally {
    await archive.close();
  }
}
