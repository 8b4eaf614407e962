import { createHash, type Hash } from "node:crypto";
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { invalid } from "../errors";
import type { ReadEntry } from "tar";
import { classify, noManifest, readTar, strangerIn, twiceIn, unreadableArchive, type OpenedArchive, type Reading } from "./archive-reader";
import { differsFromManifest, shown, type BackupManifest } from "./manifest";

/**
 * The second reading of a restore (decisions §17): the archive was read through once
 * and found whole; now its files are written into `folder` (the staging folder), and
 * never more than the manifest of that first reading declares: each entry must be a file
 * that manifest lists, found once, and one whose header says it is larger than listed is
 * refused before a byte of it is written (the parser gives an entry exactly the bytes its
 * header says). So no file passes its size, and together they cannot pass the manifest's
 * total. Each file's checksum is compared as soon as it is written, and the manifest entry
 * must be the first reading's, byte for byte: an archive changed between the two readings
 * is caught, having written at most its declared sizes. Files are created 0600 and
 * flushed, folders 0700. A refusal leaves what was written for the caller to remove with
 * the folder.
 */
export async function extractWithinManifest(archive: OpenedArchive, folder: string, manifest: BackupManifest, manifestText: string): Promise<void> {
  const declared = new Map(manifest.files.map((file) => [file.path, file]));
  const written = new Set<string>();
  let manifestSeen = false;
  // The file being written, closed however the reading ends.
  let open: number | null = null;
  const closeOpen = () => {
    if (open !== null) closeSync(open);
    open = null;
  };
  try {
    await readTar(archive.bytes(), (entry, reading) => {
      const entryKind = classify(entry);
      if (entryKind.kind === "folder") return void entry.resume();
      if (entryKind.kind === "stranger") return reading.stop(strangerIn(archive.path, entry.path));
      if (entryKind.kind === "manifest") {
        if (manifestSeen) return reading.stop(twiceIn(archive.path, entry.path));
        manifestSeen = true;
        return compareManifest(entry, manifestText, archive.path, reading);
      }
      const { path } = entryKind;
      const file = declared.get(path);
      if (!file) return reading.stop(differsFromManifest(archive.path, [`${shown(path)} tidak tercantum di manifest`]));
      if (written.has(path)) return reading.stop(twiceIn(archive.path, entry.path));
      if (entry.size > file.size) return reading.stop(largerThanDeclared(archive.path, path, file.size));
      written.add(path);
      const target = join(folder, ...path.split("/"));
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      const handle = openSync(target, "wx", 0o600);
      open = handle;
      // Exactly 0600 whatever the umask (decisions §9).
      fchmodSync(handle, 0o600);
      const hash: Hash = createHash("sha256");
      let size = 0;
      entry.on("data", (bytes: Buffer) => {
        if (reading.stopped()) return;
        size += bytes.length;
        hash.update(bytes);
        for (let at = 0; at < bytes.length; ) at += writeSync(handle, bytes, at);
      });
      entry.on("end", () => {
        if (reading.stopped()) return;
        fsyncSync(handle);
        closeOpen();
        if (size !== file.size || hash.digest("hex") !== file.sha256) reading.stop(differsFromManifest(archive.path, [`${path} tidak sama dengan checksum di manifest`]));
      });
    });
  } catch (error) {
    throw unreadableArchive(error, archive.path);
  } finally {
    closeOpen();
  }
  if (!manifestSeen) throw noManifest(archive.path);
  const missing = manifest.files.filter((file) => !written.has(file.path)).map((file) => `${file.path} tidak ada di arsip`);
  if (missing.length > 0) throw differsFromManifest(archive.path, missing);
}

const largerThanDeclared = (archive: string, path: string, size: number) =>
  invalid(`${archive}: ${path} lebih besar dari ${size} byte yang dinyatakan manifest; pemulihan dihentikan di file itu.`);

/** The manifest entry of the second reading must be the first reading's, byte for byte (bounded by its length). */
function compareManifest(entry: ReadEntry, expected: string, archive: string, reading: Reading): void {
  const expectedBytes = Buffer.from(expected, "utf8");
  const changed = () => invalid(`${archive} berubah saat dipulihkan (manifest lain); tidak ada yang dipulihkan.`);
  if (entry.size !== expectedBytes.length) return reading.stop(changed());
  let at = 0;
  entry.on("data", (bytes: Buffer) => {
    if (reading.stopped()) return;
    if (!bytes.equals(expectedBytes.subarray(at, at + bytes.length))) return reading.stop(changed());
    at += bytes.length;
  });
}
