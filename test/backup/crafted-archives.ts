import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { list as listTar } from "tar";
import { fileHeader, padding } from "../../src/backup/archive";
import { dataEntryPrefix, manifestEntry, type BackupManifest, type ManifestFile } from "../../src/backup/manifest";

// Archives an attacker makes by hand (decisions §17): entries and a manifest of their
// choosing, packed as skrining packs them. Large entries are streamed, never held whole.

export interface CraftedFile {
  /** Relative to the data folder. */
  path: string;
  size: number;
  /** The file's bytes, in pieces that add up to `size`. */
  pieces: () => Iterable<Buffer>;
}

/** A file of `size` zero bytes (1 GiB packs into about 10 MB at gzip level 1), given a megabyte at a time. */
export function zeros(path: string, size: number): CraftedFile {
  const megabyte = Buffer.alloc(1024 * 1024);
  return {
    path,
    size,
    pieces: function* () {
      for (let left = size; left > 0; left -= megabyte.length) yield megabyte.subarray(0, Math.min(left, megabyte.length));
    },
  };
}

export const bytesFile = (path: string, bytes: Buffer): CraftedFile => ({ path, size: bytes.length, pieces: () => [bytes] });

/** The data files of a real archive (small ones: held in memory) and its manifest. */
export async function filesOf(archive: string): Promise<{ files: CraftedFile[]; manifest: BackupManifest }> {
  const files: CraftedFile[] = [];
  let manifest: BackupManifest | undefined;
  await listTar({
    file: archive,
    onReadEntry: (entry) => {
      const parts: Buffer[] = [];
      entry.on("data", (bytes: Buffer) => parts.push(bytes));
      entry.on("end", () => {
        if (entry.path === manifestEntry) manifest = JSON.parse(Buffer.concat(parts).toString("utf8"));
        else files.push(bytesFile(entry.path.slice(dataEntryPrefix.length), Buffer.concat(parts)));
      });
    },
  });
  return { files, manifest: manifest! };
}

/**
 * Writes `files` and then a manifest (`manifest`'s fields, with the files' true sizes and
 * checksums, changed by `declare` when the manifest is to lie) as a .tar.gz at `target`.
 */
export async function craftArchive(target: string, manifest: BackupManifest, files: CraftedFile[], declare: (file: ManifestFile) => ManifestFile = (file) => file): Promise<void> {
  const listed: ManifestFile[] = [];
  async function* tar(): AsyncGenerator<Buffer> {
    for (const file of files) {
      yield* fileHeader(`${dataEntryPrefix}${file.path}`, file.size, new Date());
      const hash = createHash("sha256");
      for (const piece of file.pieces()) {
        hash.update(piece);
        yield piece;
      }
      yield padding(file.size);
      listed.push(declare({ path: file.path, size: file.size, sha256: hash.digest("hex") }));
    }
    const text = Buffer.from(JSON.stringify({ ...manifest, files: listed }, null, 2));
    yield* fileHeader(manifestEntry, text.length, new Date());
    yield text;
    yield padding(text.length);
    yield Buffer.alloc(1024);
  }
  await pipeline(tar(), createGzip({ level: 1 }), createWriteStream(target, { mode: 0o600 }));
}
