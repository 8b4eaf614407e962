import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, join, relative, resolve, sep } from "node:path";
import { syncFolder } from "../folder-sync";
import { extensions, type ImageType } from "./image";

const temporaryPrefix = ".upload-";

/** The part of a photo's file name that names its student: the NIM with other characters than letters, digits, `_` and `-` replaced. */
export const safeNimOf = (nim: string) => nim.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40) || "mhs";

/** Where photos no profile refers to are moved by the start-up sweep. */
export const unreferencedFolder = "unreferenced";

/**
 * Profile photo files in the data folder's `photos/`. Names are chosen here (NIM, time,
 * random part), never taken from the client; `foto_profil` holds the path relative to the
 * data folder.
 */
export class PhotoStore {
  private readonly dataDir: string;
  private readonly photosDir: string;

  constructor(dataDir: string, photosDir: string) {
    this.dataDir = resolve(dataDir);
    this.photosDir = resolve(photosDir);
  }

  /**
   * Writes the picture completely (flushed to disk) under a temporary name and only then
   * renames it into place, so a failure never leaves a half-written photo behind.
   */
  write(nim: string, bytes: Uint8Array, type: ImageType): string {
    const name = `${safeNimOf(nim)}_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString("hex")}.${extensions[type]}`;
    const temporary = join(this.photosDir, `${temporaryPrefix}${randomBytes(8).toString("hex")}`);
    try {
      // The folder is part of the layout: if it was removed while the service runs, it comes back.
      mkdirSync(this.photosDir, { recursive: true, mode: 0o700 });
      const file = openSync(temporary, "wx", 0o600);
      try {
        let written = 0;
        while (written < bytes.length) written += writeSync(file, bytes, written);
        fsyncSync(file);
      } finally {
        closeSync(file);
      }
      renameSync(temporary, join(this.photosDir, name));
      syncFolder(this.photosDir);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    return relative(this.dataDir, join(this.photosDir, name)).split(sep).join("/");
  }

  /** The file a stored path names, or null when the path points outside `photos/`. */
  locate(storedPath: string): string | null {
    const absolute = resolve(this.dataDir, storedPath);
    return absolute.startsWith(this.photosDir + sep) ? absolute : null;
  }

  /**
   * Every finished photo file in `photos/` and `photos/unreferenced/` that was written for
   * `nim` (its name begins with the NIM as `write` puts it), as paths relative to the data
   * folder. Two NIMs can share the name part when they differ only in characters `write`
   * replaces: the caller decides what to do with a file another student may own.
   */
  filesNamedFor(nim: string): string[] {
    const pattern = new RegExp(`^${safeNimOf(nim)}_\\d+_[0-9a-f]+\\.(${Object.values(extensions).join("|")})$`);
    const found: string[] = [];
    for (const folder of [this.photosDir, join(this.photosDir, unreferencedFolder)]) {
      let entries;
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (entry.isFile() && pattern.test(entry.name)) found.push(relative(this.dataDir, join(folder, entry.name)).split(sep).join("/"));
      }
    }
    return found.sort();
  }

  /** The names of the files in the folder now (none when it is gone). */
  fileNames(): Set<string> {
    try {
      return new Set(readdirSync(this.photosDir, { withFileTypes: true }).flatMap((entry) => (entry.isFile() ? [entry.name] : [])));
    } catch {
      return new Set();
    }
  }

  /** Deletes a stored photo; a file that is already gone is not an error. */
  remove(storedPath: string | null): void {
    if (storedPath === null) return;
    const absolute = this.locate(storedPath);
    if (absolute) rmSync(absolute, { force: true });
  }

  /**
   * Tidies the folder after a crash. Half-written uploads (temporary names, never
   * referenced) are deleted. A finished photo no profile refers to is usually the leftover
   * of a process killed between writing it and committing its path, or between committing
   * and deleting the old file; but it may also be a photo whose database was replaced by an
   * older copy. Nothing is deleted on a guess: such files are moved to `unreferenced/`,
   * where an admin can look at them. `among`: only these names are looked at (the files
   * there before the server opened its port, never an upload under way); all when absent.
   */
  sweep(referenced: Iterable<string | null>, among?: ReadonlySet<string>): { deleted: number; movedAside: number } {
    const keep = new Set<string>();
    for (const path of referenced) {
      const absolute = path === null ? null : this.locate(path);
      if (absolute) keep.add(basename(absolute));
    }
    const result = { deleted: 0, movedAside: 0 };
    for (const entry of readdirSync(this.photosDir, { withFileTypes: true })) {
      if (!entry.isFile() || keep.has(entry.name) || (among && !among.has(entry.name))) continue;
      const path = join(this.photosDir, entry.name);
      if (entry.name.startsWith(temporaryPrefix)) {
        rmSync(path, { force: true });
        result.deleted++;
      } else {
        mkdirSync(join(this.photosDir, unreferencedFolder), { recursive: true, mode: 0o700 });
        renameSync(path, join(this.photosDir, unreferencedFolder, entry.name));
        result.movedAside++;
      }
    }
    return result;
  }
}
