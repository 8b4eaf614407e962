import { createHash } from "node:crypto";
import { chmodSync, closeSync, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { extract } from "tar";
import { databaseFileName } from "../config";
import { databaseFiles, processesHolding } from "../db/holders";
import { invalid } from "../errors";
import { syncFolder } from "../folder-sync";
import { archiveRoot, databaseSchema, dataEntryPrefix, differencesFromManifest, manifestEntry, parseManifest, refuseBareDatabase, unreadableArchive, type BackupManifest, type FoundFiles } from "./archive";
import { realPath, recordedIdentity, writeIdentity } from "./folder-identity";
import { fileTimestamp, quickCheck } from "./snapshot";

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

/**
 * Reads every file under `folder` (checksums by path relative to it), flushes each to the
 * disk and gives files 0600 and folders 0700. Anything that is not a file or a folder is
 * a refusal (tar entries of other kinds are never extracted, so this is a second guard).
 */
function checkStagedFiles(folder: string): FoundFiles {
  const found: FoundFiles = new Map();
  const buffer = Buffer.alloc(1024 * 1024);
  const walk = (directory: string, prefix: string) => {
    chmodSync(directory, 0o700);
    for (const name of readdirSync(directory).sort()) {
      const path = join(directory, name);
      const stats = lstatSync(path);
      if (stats.isDirectory()) walk(path, `${prefix}${name}/`);
      else if (stats.isFile()) {
        chmodSync(path, 0o600);
        const hash = createHash("sha256");
        // Opened for writing too: Windows flushes only a file opened so.
        const handle = openSync(path, "r+");
        try {
          let size = 0;
          for (let read; (read = readSync(handle, buffer, 0, buffer.length, size)) > 0; size += read) hash.update(buffer.subarray(0, read));
          fsyncSync(handle);
          found.set(`${prefix}${name}`, { size, sha256: hash.digest("hex") });
        } finally {
          closeSync(handle);
        }
      } else throw invalid(`cadangan memuat ${prefix}${name} yang bukan file biasa; tidak dipulihkan.`);
    }
  };
  walk(folder, "");
  return found;
}

export interface RestoreResult {
  manifest: BackupManifest;
  dataDir: string;
  /** Where the folder's earlier contents went (`--force`), or null when it was empty. */
  movedAsideTo: string | null;
  /** Migrations the restored database has not had yet; they run, after a safety copy, when it is first opened. */
  pendingMigrations: number;
}

/**
 * Removes the staging folder entry by entry (it holds only files and folders: the archive
 * filter takes nothing else). Bun's recursive rmSync of a folder fails on Windows under
 * Wine (EFAULT, npm run test:windows), while removing one file or one empty folder works.
 */
function removeStaging(folder: string): void {
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) removeStaging(path);
    else rmSync(path, { force: true });
  }
  rmdirSync(folder);
}

/**
 * Restores a backup into `dataDir`. Nothing in the data folder changes until the whole
 * archive is extracted into a folder inside it and verified: every checksum against the
 * manifest, nothing extra, the database through `quick_check`, its schema not newer than
 * this program. A folder that is not empty is refused unless `force`; then its contents are
 * first moved, never deleted, to `<data>.before-restore-<time>` beside it. A folder that a
 * process holds open (a running server) is refused either way.
 */
export async function restoreBackup(options: { archive: string; dataDir: string; force: boolean; now?: Date; created?: (dataDir: string) => void }): Promise<RestoreResult> {
  const archive = resolve(options.archive);
  const dataDir = resolve(options.dataDir);
  const dataStats = statSync(dataDir, { throwIfNoEntry: false });
  if (dataStats && !dataStats.isDirectory()) throw invalid(`${dataDir} bukan folder; pilih --data yang lain.`);
  const earlier = dataStats ? readdirSync(dataDir) : [];
  if (earlier.length > 0) {
    if (!options.force) {
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
  await refuseBareDatabase(archive);

  const aside = earlier.length > 0 ? join(dirname(dataDir), `${basename(dataDir)}.before-restore-${fileTimestamp(options.now ?? new Date())}`) : null;
  if (aside && existsSync(aside)) throw invalid(`${aside} sudah ada; ulangi restore sebentar lagi.`);
  if (!dataStats) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const staging = join(dataDir, `.restore-${process.pid}`);
  const stagedData = join(staging, dataEntryPrefix);
  let manifest: BackupManifest;
  let pendingMigrations: number;
  try {
    mkdirSync(staging, { mode: 0o700 });
    const strangers: string[] = [];
    try {
      await extract({
        file: archive,
        cwd: staging,
        strict: true,
        preserveOwner: false,
        filter: (path, entry) => {
          const type = "type" in entry ? entry.type : null;
          const accepted = (type === "File" && (path === manifestEntry || path.startsWith(dataEntryPrefix))) || (type === "Directory" && path.startsWith(`${archiveRoot}/`));
          if (!accepted) strangers.push(path);
          return accepted;
        },
      });
    } catch (error) {
      throw unreadableArchive(error, archive);
    }
    if (strangers.length > 0) throw invalid(`${archive} memuat isi yang bukan bagian cadangan skrining: ${strangers.slice(0, 3).join(", ")}`);
    const manifestPath = join(staging, manifestEntry);
    if (!existsSync(manifestPath)) throw invalid(`${archive} bukan arsip cadangan yang utuh: manifest tidak ada (rusak, terpotong, atau bukan cadangan skrining).`);
    manifest = parseManifest(readFileSync(manifestPath, "utf8"), archive);
    const found = existsSync(stagedData) ? checkStagedFiles(stagedData) : new Map();
    const problems = differencesFromManifest(manifest, found);
    if (problems.length > 0) throw invalid(`${archive} tidak utuh: ${problems.slice(0, 3).join("; ")}${problems.length > 3 ? ` (dan ${problems.length - 3} lagi)` : ""}. Tidak ada yang dipulihkan.`);
    const database = join(stagedData, databaseFileName);
    const damage = quickCheck(database);
    if (damage.length > 0) throw invalid(`basis data di ${archive} rusak (quick_check: ${damage.slice(0, 3).join("; ")}). Tidak ada yang dipulihkan.`);
    const schema = databaseSchema(database);
    if (schema.newerThanProgram) {
      throw invalid(`${archive} memakai skema basis data yang lebih baru (${schema.level.migrations} migrasi) dari program ini; pulihkan dengan ${manifest.program} atau yang lebih baru. Tidak ada yang dipulihkan.`);
    }
    pendingMigrations = schema.pending;
    for (const folder of ["photos", "models"]) mkdirSync(join(stagedData, folder), { recursive: true, mode: 0o700 });
  } catch (error) {
    removeStaging(staging);
    if (!dataStats) rmdirSync(dataDir);
    throw error;
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
    for (const name of readdirSync(stagedData)) move(join(stagedData, name), join(dataDir, name));
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
  if (!dataStats) options.created?.(dataDir);
  return { manifest, dataDir, movedAsideTo: aside, pendingMigrations };
}
