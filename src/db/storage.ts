import { ServiceError } from "../errors";
import type { Logger } from "../logger";

/**
 * What can go wrong with the disk under the service, as a person would act on it:
 * - `full`: no space left (SQLite `SQLITE_FULL`, `ENOSPC`, a quota);
 * - `readonly`: the file system or the file refuses writes;
 * - `busy`: another program holds the database's write lock longer than we wait;
 * - `damaged`: the database file is corrupt or not a database;
 * - `io`: the disk reports an input/output error.
 */
export type StorageProblem = "full" | "readonly" | "busy" | "damaged" | "io";

/** Seconds a client is told to wait: a lock is released soon, space or a disk takes a person. */
const retryAfterSeconds: Record<StorageProblem, number> = { busy: 2, full: 60, readonly: 60, io: 60, damaged: 300 };

/**
 * A failure of the storage rather than of the request: a client is told the server cannot
 * store data now (507 for no space, 503 otherwise), an admin the cause and the remedy.
 */
export class StorageError extends ServiceError {
  constructor(
    readonly problem: StorageProblem,
    override readonly cause: unknown,
    /** The file concerned, when known (the database that would not open). */
    readonly file?: string,
  ) {
    super(problem === "full" ? "storage_full" : "unavailable", storageMessages[problem], { retryAfterSeconds: retryAfterSeconds[problem] }, { cause });
  }
}

/**
 * What an admin reads: the problem, the file, the cause and what to do, in one line. The
 * server recovers by itself once the storage works again; a command has ended, so it is
 * told to run it again (`"command"`).
 */
export function describeForAdmin(error: StorageError, reader: "server" | "command" = "server"): string {
  const where = error.file ? ` (${error.file})` : "";
  const remedy = reader === "command" ? commandRemedies[error.problem] : remedies[error.problem];
  return `${adminSummaries[error.problem]}${where}: ${describeCause(error.cause)}. ${remedy}`;
}

const adminSummaries: Record<StorageProblem, string> = {
  full: "Disk penuh",
  readonly: "Penyimpanan hanya-baca atau tanpa izin tulis",
  busy: "Basis data sedang dikunci program lain",
  damaged: "Basis data rusak",
  io: "Kesalahan baca/tulis disk",
};

const remedies: Record<StorageProblem, string> = {
  full: "Kosongkan ruang disk; skrining pulih sendiri begitu ada ruang.",
  readonly: "Periksa izin dan mount folder data; skrining pulih sendiri begitu dapat menulis lagi.",
  busy: "Tutup program lain yang membuka skrining.db (sqlite3, alat cadangan); skrining pulih sendiri.",
  damaged: "Hentikan skrining, jalankan 'skrining check --full', lalu pulihkan cadangan terakhir (docs/operations.md).",
  io: "Periksa disk (dmesg, SMART); bila berlanjut, pindahkan folder data dari cadangan ke disk lain.",
};

/** The same for a one-off command, which does not wait for the storage to recover. */
const commandRemedies: Record<StorageProblem, string> = {
  ...remedies,
  full: "Kosongkan ruang disk (atau pilih tempat lain), lalu jalankan perintah ini lagi.",
  readonly: "Periksa izin dan mount folder itu, lalu jalankan perintah ini lagi.",
  busy: "Tutup program lain yang membuka skrining.db (sqlite3, alat cadangan), lalu jalankan perintah ini lagi.",
};

/** What a client is told; each says that the server cannot store data right now. */
const storageMessages: Record<StorageProblem, string> = {
  full: "Penyimpanan server penuh; data tidak dapat disimpan saat ini. Coba lagi nanti.",
  readonly: "Server tidak dapat menyimpan data saat ini (penyimpanan hanya-baca). Coba lagi nanti.",
  busy: "Basis data sedang dipakai program lain; data tidak dapat disimpan saat ini. Coba lagi sebentar lagi.",
  damaged: "Basis data server rusak; data tidak dapat dibaca atau disimpan. Hubungi admin.",
  io: "Server tidak dapat menyimpan data saat ini (kesalahan disk). Coba lagi nanti.",
};

// SQLite's primary result codes (extended codes share their prefix: SQLITE_IOERR_WRITE, ...)
// and the errno names of Node's file system calls.
const problemsByCode: [prefix: string, problem: StorageProblem][] = [
  ["SQLITE_FULL", "full"],
  ["ENOSPC", "full"],
  ["EDQUOT", "full"],
  ["EFBIG", "full"],
  ["SQLITE_READONLY", "readonly"],
  ["EROFS", "readonly"],
  ["EACCES", "readonly"],
  ["EPERM", "readonly"],
  ["SQLITE_BUSY", "busy"],
  ["SQLITE_LOCKED", "busy"],
  ["SQLITE_CORRUPT", "damaged"],
  ["SQLITE_NOTADB", "damaged"],
  ["SQLITE_IOERR", "io"],
  ["SQLITE_CANTOPEN", "io"],
  ["EIO", "io"],
];

/** The storage problem behind an error (looking through wrappers such as drizzle's), or null. */
function storageProblemOf(error: unknown): StorageProblem | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof StorageError) return current.problem;
    const code = (current as { code?: unknown }).code;
    if (typeof code !== "string") continue;
    const found = problemsByCode.find(([prefix]) => code === prefix || code.startsWith(`${prefix}_`));
    if (found) return found[1];
  }
  return null;
}

/** The error as a StorageError when it is one (naming `file` when it names none yet), else as it was. */
export function asStorageError(error: unknown, file?: string): unknown {
  if (error instanceof StorageError) return error.file || !file ? error : new StorageError(error.problem, error.cause, file);
  const problem = storageProblemOf(error);
  return problem === null ? error : new StorageError(problem, error, file);
}

/** Runs `work`; a storage failure it meets is thrown as a StorageError that names `file`. */
export function naming<T>(file: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw asStorageError(error, file);
  }
}

function describeCause(cause: unknown): string {
  for (let current = cause, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    // Node's file errors already begin with their code (`ENOSPC: no space left on device`).
    if (typeof code === "string") return current.message.startsWith(code) ? current.message : `${code}: ${current.message}`;
  }
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Logs a storage problem once when it starts (or changes), not once per request, and once
 * more when a write succeeds again, so the log tells an admin when the fault began and ended.
 * Damage found by the check at start holds every write until the process ends (holdWrites).
 */
export class StorageHealth {
  private current: StorageProblem | null = null;
  private held: StorageError | null = null;

  constructor(private readonly logger: Logger) {}

  /** The problem the storage last failed with, until a write succeeds again (GET /health reads it). */
  get problem(): StorageProblem | null {
    return this.held?.problem ?? this.current;
  }

  /** Why every write is refused, or null while writes are taken (the server's write queue asks). */
  get writesHeldBy(): StorageError | null {
    return this.held;
  }

  failed(error: StorageError): void {
    if (this.current === error.problem) return;
    this.current = error.problem;
    this.logger.error(`${describeForAdmin(error)} Permintaan yang gagal karenanya dijawab 503/507.`);
  }

  /**
   * Refuses every later write with `error` for the rest of the process, whatever succeeds
   * meanwhile: a write already under way when the damage was found may still commit, but
   * that does not make the file sound. `consequence` tells the admin what clients meet.
   */
  holdWrites(error: StorageError, consequence: string): void {
    if (this.held) return;
    this.held = error;
    this.current = error.problem;
    this.logger.error(`${describeForAdmin(error)} ${consequence}`);
  }

  succeeded(): void {
    if (this.current === null || this.held) return;
    this.logger.info(`Penyimpanan pulih (sebelumnya: ${this.current}); data kembali dapat disimpan.`);
    this.current = null;
  }
}
