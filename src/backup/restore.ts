import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { databaseFileName, writeTokenSecret } from "../config";
import { databaseFiles, processesHolding } from "../db/holders";
import { newerSchemaText } from "../db/migrate";
import { migrations } from "../db/migrations";
import { invalid } from "../errors";
import { syncFolder } from "../folder-sync";
import { tlsFolderName } from "../tls/local";
import { databaseSchema } from "./archive";
import { openArchive, readContents, type PassphraseSource } from "./archive-reader";
import { encryptionExpected, encryptionMessages } from "./encryption";
import { extractWithinManifest } from "./extract";
import { realPath, recordedIdentity, writeIdentity } from "./folder-identity";
import { differencesFromManifest, differsFromManifest, manifestTotal, type BackupManifest } from "./manifest";
import { fileTimestamp, quickCheck } from "./snapshot";
import { freeBytes, largestFitting, noRoom, removeLeftStaging, removeStaging, roomNeeded, stagingFolderOf } from "./staging";

/**
 * The restored folder's identity (folder-identity.ts): a folder restored over keeps its own,
 * moved aside with its old contents; a folder restored at the path the backup was taken
 * from (the same folder, rebuilt on a new disk) takes the backup's; anything else (a drill
 * into another folder) gets a new one when it is first used, so that its automatic
 * backups never rotate the original's.
 */
function keepIdentity(dataDir: string, aside: string | null, manifest: BackupManifest): void {
  const here = realPath(dataDir);
  const replaced = aside ? recordedIdentity(aside) : null;
  if (replaced) writeIdentity(dataDir, { id: replaced.id, path: here });
  else if (manifest.dataFolderId && realPath(manifest.dataDir) === here) writeIdentity(dataDir, { id: manifest.dataFolderId, path: here });
}

export const restoreMessages = {
  keepSessionsElsewhere: (dataDir: string) =>
    `--keep-sessions hanya berlaku saat memulihkan ke folder data tempat cadangan itu dibuat, di PC yang sama (restore --force ke ${dataDir} yang masih memegang identitasnya, file folder-id). ` +
    "Tanpa --keep-sessions restore membuat kunci token baru dan semua pengguna login lagi. Tidak ada yang dipulihkan.",
} as const;

/**
 * Whether a restore into `dataDir` is on the PC and into the folder the backup was taken
 * from (decisions §21, `--keep-sessions`): the folder restored over still holds the
 * identity the manifest names. That identity (folder-id) is in no backup, so a copy of an
 * archive restored anywhere else, even at the same path, is not the same PC.
 */
function sameFolderAsBackup(dataDir: string, hasEarlierContents: boolean, manifest: BackupManifest): boolean {
  if (!hasEarlierContents || !manifest.dataFolderId) return false;
  const current = recordedIdentity(dataDir);
  return current !== null && current.id === manifest.dataFolderId && current.path === realPath(dataDir);
}


export interface RestoreResult {
  manifest: BackupManifest;
  dataDir: string;
  /** Whether the archive was encrypted (and so shown to be the one written with its passphrase). */
  encrypted: boolean;
  /** Where the folder's earlier contents went (`--force`), or null when it was empty. */
  movedAsideTo: string | null;
  /** Staging folders of interrupted restores that were removed first. */
  leftStagingRemoved: string[];
  /** Migrations the restored database has not had yet; they run, after a safety copy, when it is first opened. */
  pendingMigrations: number;
  /** `keepSessions`: the backup's token secret was kept; otherwise a new one was written and every session of the restored database is to end. */
  sessionsKept: boolean;
}

/**
 * The data folder's refusals, before the archive is even opened: not a folder; not empty
 * without `force`; held open by a process (a running server); a mount point with `force`.
 * Returns what it holds (after the staging folders of interrupted restores were removed).
 */
function checkDataFolder(dataDir: string, force: boolean): { exists: boolean; earlier: string[]; leftStagingRemoved: string[] } {
  const dataStats = statSync(dataDir, { throwIfNoEntry: false });
  if (dataStats && !dataStats.isDirectory()) throw invalid(`${dataDir} bukan folder; pilih --data yang lain.`);
  // What an interrupted restore left is not part of the folder (one still running is a refusal).
  const leftStagingRemoved = dataStats ? removeLeftStaging(dataDir) : [];
  // `tls/` belongs to the PC, not to the data (backups do not carry it, decisions §18): it stays
  // where it is, so that the phones that trust its CA go on trusting the restored service.
  const earlier = dataStats ? readdirSync(dataDir).filter((name) => name !== tlsFolderName) : [];
  if (earlier.length > 0) {
    if (!force) {
      throw invalid(
        `Folder data ${dataDir} tidak kosong (${earlier.slice(0, 4).join(", ")}${earlier.length > 4 ? ", ..." : ""}); restore tidak menimpanya. ` +
          "Pakai --force untuk memindahkan isinya ke samping lebih dulu, atau pilih --data yang lain.",
      );
    }
    const holders = processesHolding(databaseFiles(join(dataDir, databaseFileName)));
    if (holders.length > 0) {
      throw invalid(`${join(dataDir, databaseFileName)} sedang dibuka oleh proses ${holders.join(", ")} (server skrining yang berjalan?); hentikan dulu, lalu ulangi restore.`);
    }
    if (statSync(dirname(dataDir)).dev !== dataStats!.dev) {
      throw invalid(`Folder data ${dataDir} adalah titik mount, jadi isinya tidak dapat dipindahkan ke sampingnya; pindahkan isinya sendiri, lalu ulangi restore tanpa --force.`);
    }
  }
  return { exists: dataStats !== undefined, earlier, leftStagingRemoved };
}

/**
 * Restores a backup into `dataDir` (decisions §17), in two readings of the archive. The
 * first writes nothing: an encrypted archive is authenticated whole (`passphrase` is asked
 * only for one), every file's checksum is compared with the manifest, nothing may be
 * missing or extra, and the files must fit the data folder's disk with a margin
 * (staging.ts; the reading stops as soon as they cannot). Only then does the second
 * reading write, into a folder inside the data folder, never more than that manifest
 * declares (extract.ts); then the database passes `quick_check` and its schema must not be
 * newer than this program. Nothing in the data folder changes until all of that passed.
 * A folder that is not empty is refused unless `force`; then its contents are first moved,
 * never deleted, to `<data>.before-restore-<time>` beside it. Decisions §21: a plain archive
 * where an encrypted one is expected is refused unless `allowPlain`, and the restored folder
 * gets a new token key unless `keepSessions` (only over the folder the backup is of).
 */
export async function restoreBackup(options: {
  archive: string;
  dataDir: string;
  force: boolean;
  passphrase?: PassphraseSource;
  /** Whether a passphrase was given for the archive (a file, the variable): an encrypted one is then expected. */
  passphraseGiven?: boolean;
  /** `--allow-plain`: a plain archive where an encrypted one is expected. */
  allowPlain?: boolean;
  /** `--keep-sessions`: keep the backup's token secret (and so its sessions); only into the folder it was taken from. */
  keepSessions?: boolean;
  now?: Date;
  created?: (dataDir: string) => void;
}): Promise<RestoreResult> {
  const archive = resolve(options.archive);
  const dataDir = resolve(options.dataDir);
  const { exists, earlier, leftStagingRemoved } = checkDataFolder(dataDir, options.force);
  const opened = await openArchive(archive, options.passphrase);
  const expected = encryptionExpected(archive, options.passphraseGiven === true);
  if (!opened.encrypted && expected !== null && !options.allowPlain) {
    await opened.close();
    throw invalid(encryptionMessages.plainWhereEncrypted(archive, expected));
  }
  const aside = earlier.length > 0 ? join(dirname(dataDir), `${basename(dataDir)}.before-restore-${fileTimestamp(options.now ?? new Date())}`) : null;
  const staging = stagingFolderOf(dataDir);
  let manifest: BackupManifest;
  let pendingMigrations: number;
  try {
    const free = freeBytes(dataDir);
    const fitting = free === null ? null : largestFitting(free);
    const contents = await readContents(opened, fitting === null ? undefined : { bytes: fitting, refusal: () => noRoom(archive, dataDir, { moreThan: fitting }, free!) });
    manifest = contents.manifest;
    const problems = differencesFromManifest(manifest, contents.found);
    if (problems.length > 0) throw differsFromManifest(archive, problems);
    if (options.keepSessions && !sameFolderAsBackup(dataDir, earlier.length > 0, manifest)) throw invalid(restoreMessages.keepSessionsElsewhere(dataDir));
    if (free !== null && roomNeeded(manifestTotal(manifest)) > free) throw noRoom(archive, dataDir, { total: manifestTotal(manifest) }, free);
    if (aside && existsSync(aside)) throw invalid(`${aside} sudah ada; ulangi restore sebentar lagi.`);

    if (!exists) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
    try {
      mkdirSync(staging, { mode: 0o700 });
      await extractWithinManifest(opened, staging, manifest, contents.manifestText);
      const database = join(staging, databaseFileName);
      const damage = quickCheck(database);
      if (damage.length > 0) throw invalid(`basis data di ${archive} rusak (quick_check: ${damage.slice(0, 3).join("; ")}). Tidak ada yang dipulihkan.`);
      const schema = databaseSchema(database);
      if (schema.newerThanProgram) {
        throw invalid(`Basis data di ${archive}: ${newerSchemaText(schema.level.migrations, migrations)}; pulihkan dengan ${manifest.program} atau yang lebih baru. Tidak ada yang dipulihkan.`);
      }
      pendingMigrations = schema.pending;
      for (const folder of ["photos", "models"]) mkdirSync(join(staging, folder), { recursive: true, mode: 0o700 });
      // Decisions §21: a new token key, so that no token of the backup's time opens the
      // restored folder (a session ended since the backup is open again in its database).
      if (!options.keepSessions) writeTokenSecret(join(staging, "secret"));
    } catch (error) {
      removeStaging(staging);
      if (!exists) rmdirSync(dataDir);
      throw error;
    }
  } finally {
    await opened.close();
  }

  // Verified: only renames inside one file system from here on. One that fails (Windows
  // refuses to move a file another program holds open) puts back what was moved.
  const moves: [from: string, to: string][] = [];
  const move = (from: string, to: string) => {
    renameSync(from, to);
    moves.push([from, to]);
  };
  try {
    if (aside) {
      mkdirSync(aside, { mode: 0o700 });
      for (const name of earlier) move(join(dataDir, name), join(aside, name));
    }
    for (const name of readdirSync(staging)) move(join(staging, name), join(dataDir, name));
  } catch (error) {
    for (const [from, to] of moves.reverse()) renameSync(to, from);
    if (aside) rmdirSync(aside);
    removeStaging(staging);
    throw invalid(`restore dibatalkan, folder data ${dataDir} tetap seperti semula: ${(error as Error).message}. Hentikan program yang membuka file di sana, lalu ulangi.`);
  }
  removeStaging(staging);
  keepIdentity(dataDir, aside, manifest);
  if (aside) {
    syncFolder(aside);
    syncFolder(dirname(dataDir));
  }
  syncFolder(dataDir);
  // Said once the folder holds the backup: a refused restore removes the folder it made.
  if (!exists) options.created?.(dataDir);
  return { manifest, dataDir, encrypted: opened.encrypted, movedAsideTo: aside, leftStagingRemoved, pendingMigrations, sessionsKept: options.keepSessions === true };
}
