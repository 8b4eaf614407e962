import { databaseFileName } from "../config";
import { invalid } from "../errors";

/**
 * A backup is a gzip-compressed tar file, which `tar xzf` opens by hand as well:
 *
 *     skrining-backup/manifest.json     what the archive holds (BackupManifest)
 *     skrining-backup/data/skrining.db  a consistent snapshot of the database
 *     skrining-backup/data/secret, questions.json, help.json, photos/..., models/...
 *
 * `skrining-backup/data` is a data folder as it was, usable with `--data`. The manifest
 * comes last because it holds the checksums, computed while the files are written. An
 * encrypted backup is that same file encrypted whole (encryption.ts).
 */
export const archiveRoot = "skrining-backup";
export const manifestEntry = `${archiveRoot}/manifest.json`;
export const dataEntryPrefix = `${archiveRoot}/data/`;

export const manifestFormat = "skrining-backup";
export const manifestFormatVersion = 1;
/** A manifest lists a line of JSON per file: even a folder of a hundred thousand photos stays far below this. */
export const maxManifestBytes = 64 * 1024 * 1024;

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

/** What was found in an archive or a folder: each file's size and checksum, by path relative to the data folder. */
export type FoundFiles = Map<string, { size: number; sha256: string }>;

/** The bytes the data files of a manifest add up to: what a restore writes at most. */
export const manifestTotal = (manifest: BackupManifest) => manifest.files.reduce((sum, file) => sum + file.size, 0);

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
  for (const path of found.keys()) if (!listed.has(path)) problems.push(`${shown(path)} tidak tercantum di manifest`);
  if (!listed.has(databaseFileName)) problems.push(`${databaseFileName} tidak tercantum di manifest`);
  return problems;
}

/** The refusal of an archive whose contents differ from its manifest, naming the first few differences. */
export const differsFromManifest = (archive: string, problems: readonly string[]) =>
  invalid(`${archive} tidak utuh: ${problems.slice(0, 3).join("; ")}${problems.length > 3 ? ` (dan ${problems.length - 3} lagi)` : ""}. Tidak ada yang dipulihkan.`);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Control characters: an archive's names and texts are printed to a terminal, where they could move the cursor or rewrite lines. */
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;
const printable = (value: unknown): value is string => typeof value === "string" && !controlCharacters.test(value);
/** A name from an archive as a refusal prints it: control characters shown as `?`. */
export const shown = (text: string) => text.replace(new RegExp(controlCharacters.source, "g"), "?");

/** A safe relative path: segments of ordinary names, no `..`, nothing absolute. */
const safeRelativePath = (path: string) =>
  path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..") && !path.includes("\\") && !controlCharacters.test(path);

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
    printable(value.program) &&
    printable(value.createdAt) &&
    printable(value.dataDir) &&
    (value.dataFolderId === undefined || printable(value.dataFolderId)) &&
    isRecord(schema) &&
    typeof schema.migrations === "number" &&
    Array.isArray(files) &&
    files.every((file) => isRecord(file) && typeof file.path === "string" && safeRelativePath(file.path) && Number.isSafeInteger(file.size) && (file.size as number) >= 0 && typeof file.sha256 === "string") &&
    // Each path once: a restore writes each listed file once, at most its size.
    new Set(files.map((file) => (file as ManifestFile).path)).size === files.length;
  if (!wellFormed) throw invalid(`${archive}: manifest cadangan tidak lengkap.`);
  return value as unknown as BackupManifest;
}
