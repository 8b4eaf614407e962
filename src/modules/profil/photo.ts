import { eq, isNotNull, sql } from "drizzle-orm";
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import type { DatabaseClient } from "../../db";
import { mahasiswa } from "../../db/schema";
import { asStorageError } from "../../db/storage";
import type { WriteQueue } from "../../db/write-queue";
import { ServiceError, invalid, notFound } from "../../errors";
import { fileSize } from "../../file-size";
import type { Logger } from "../../logger";
import { mediaTypes, sniffImageType, stripMetadata } from "../../photos/image";
import type { PhotoStore } from "../../photos/storage";
import type { Principal } from "../../requests/principal";
import { preparedOnFirstUse } from "../../db/prepared";

const photoMessages = {
  noFile: "Tidak ada file foto yang dikirim.",
  emptyName: "Nama file kosong.",
  wrongType: "Tipe file tidak diizinkan. Gunakan JPG, PNG, GIF, atau WebP.",
  studentUnknown: "Mahasiswa tidak ditemukan.",
  noPhoto: "Foto profil tidak ditemukan.",
  fileMissing: "File foto tidak ada di server.",
  saveFailed: "Terjadi kesalahan saat menyimpan foto.",
} as const;

/** What GET needs to answer: the file, its media type and its validator. */
interface StoredPhoto {
  path: string;
  mediaType: string;
  etag: string;
}

/**
 * The profile photo's life cycle (interface state table, decisions §5). The database is
 * the truth: a new file is written before its path is committed, and an old file is
 * deleted only after the path that replaced it is committed.
 */
export class PhotoService {
  private readonly photoOf;

  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
    private readonly store: PhotoStore,
    private readonly limitBytes: number,
    private readonly logger: Logger,
  ) {
    this.photoOf = preparedOnFirstUse(() => db.select({ foto: mahasiswa.fotoProfil }).from(mahasiswa).where(eq(mahasiswa.nim, sql.placeholder("nim"))).prepare());
  }

  async upload(principal: Principal, form: unknown) {
    const part = form instanceof FormData ? form.get("foto") : null;
    if (!(part instanceof File)) throw invalid(photoMessages.noFile);
    if (!part.name) throw invalid(photoMessages.emptyName);
    if (part.size > this.limitBytes) throw invalid(`Ukuran foto melebihi batas ${fileSize(this.limitBytes)}.`);
    const bytes = new Uint8Array(await part.arrayBuffer());
    const type = sniffImageType(bytes);
    if (type === null) throw invalid(photoMessages.wrongType);
    // A broken or too large picture is refused with its own text (PhotoFormatError, a 400).
    const cleaned = stripMetadata(bytes, type);

    const nim = principal.nim;
    if (nim === null || !this.photoOf.get({ nim })) throw notFound(photoMessages.studentUnknown);

    let newPath: string | null = null;
    let oldPath: string | null;
    try {
      newPath = this.store.write(nim, cleaned, type);
      const committed = newPath;
      oldPath = await this.writes.run(() => {
        const before = this.db.select({ foto: mahasiswa.fotoProfil }).from(mahasiswa).where(eq(mahasiswa.nim, nim)).get();
        if (!before) throw notFound(photoMessages.studentUnknown);
        this.db.update(mahasiswa).set({ fotoProfil: committed }).where(eq(mahasiswa.nim, nim)).run();
        return before.foto;
      });
    } catch (error) {
      this.discard(newPath);
      const failure = asStorageError(error);
      // A refusal by a rule, and a full or read-only disk, are answered as such (503/507).
      if (failure instanceof ServiceError) throw failure;
      this.logger.error(`foto ${nim} gagal disimpan: ${error instanceof Error ? error.message : String(error)}`);
      throw new ServiceError("failed", photoMessages.saveFailed);
    }
    // The new photo is committed: the answer says so even if the old file cannot be removed now.
    if (oldPath !== newPath) this.discard(oldPath);
    return { message: "Foto profil berhasil diperbarui.", foto_profil: newPath };
  }

  /** The stored photo of `nim`, with the 404 texts of the interface for each missing piece. */
  find(nim: string): StoredPhoto {
    const student = this.photoOf.get({ nim });
    if (!student) throw notFound(photoMessages.studentUnknown);
    if (!student.foto) throw notFound(photoMessages.noPhoto);
    const path = this.store.locate(student.foto);
    if (path === null || !existsSync(path)) throw notFound(photoMessages.fileMissing);
    const stats = statSync(path);
    // Stored files are never rewritten in place (every upload gets a new name), so the
    // name, size and time identify the content without reading it.
    const etag = `"${Bun.hash(`${student.foto}:${stats.size}:${stats.mtimeMs}`).toString(16)}"`;
    return { path, mediaType: mediaTypeOf(path), etag };
  }

  /** A student deletes only their own photo (the route's `ownNim` option, decisions §9). */
  async remove(nim: string) {
    const oldPath = await this.writes.run(() => {
      const before = this.db.select({ foto: mahasiswa.fotoProfil }).from(mahasiswa).where(eq(mahasiswa.nim, nim)).get();
      if (!before) throw notFound(photoMessages.studentUnknown);
      if (before.foto !== null) this.db.update(mahasiswa).set({ fotoProfil: null }).where(eq(mahasiswa.nim, nim)).run();
      return before.foto;
    });
    // The profile no longer has a photo, and the answer says so; a file that cannot be
    // removed now (a read-only photos folder) is left for the start-up sweep.
    this.discard(oldPath);
    return { message: "Foto profil berhasil dihapus.", foto_profil: null };
  }

  /** Removes a stored file if it can; a failure is logged, never reported as the request's. */
  private discard(storedPath: string | null): void {
    try {
      this.store.remove(storedPath);
    } catch (error) {
      this.logger.error(`file foto ${storedPath} tidak dapat dihapus dan tertinggal: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Tidies the photos folder at start-up (see PhotoStore.sweep), but never against a
   * database without students: a new or emptied database refers to no photo at all, and
   * every photo would look like an orphan. `among`: only these files (photoFiles() taken
   * before the port opened). Null when nothing was looked at.
   */
  sweepOrphans(among?: ReadonlySet<string>): { deleted: number; movedAside: number } | null {
    if (!this.db.select({ nim: mahasiswa.nim }).from(mahasiswa).limit(1).get()) return null;
    const referenced = this.db.select({ foto: mahasiswa.fotoProfil }).from(mahasiswa).where(isNotNull(mahasiswa.fotoProfil)).all();
    return this.store.sweep(referenced.map((row) => row.foto), among);
  }

  /** The names of the files in the photos folder now. */
  photoFiles(): Set<string> {
    return this.store.fileNames();
  }
}

/** The media type from the file's own first bytes; files of other origins are not guessed. */
function mediaTypeOf(path: string): string {
  const head = new Uint8Array(16);
  const file = openSync(path, "r");
  try {
    readSync(file, head, 0, head.length, 0);
  } finally {
    closeSync(file);
  }
  const type = sniffImageType(head);
  return type === null ? "application/octet-stream" : mediaTypes[type];
}
