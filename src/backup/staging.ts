import { existsSync, readdirSync, rmdirSync, rmSync, statfsSync } from "node:fs";
import { dirname, join } from "node:path";
import { invalid } from "../errors";
import { fileSize } from "../file-size";

// Where a restore unpacks before anything of the data folder changes, and the room it
// needs (decisions §17): `<data>/.restore-<pid>`, on the data folder's own disk so that
// putting the files in place is renames.

const stagingPattern = /^\.restore-(\d+)$/;

/** This process's staging folder in `dataDir`. */
export const stagingFolderOf = (dataDir: string) => join(dataDir, `.restore-${process.pid}`);

/**
 * Removes a staging folder entry by entry (it holds only files and folders: restore writes
 * nothing else). Bun's recursive rmSync of a folder fails on Windows under Wine (EFAULT,
 * npm run test:windows), while removing one file or one empty folder works.
 */
export function removeStaging(folder: string): void {
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) removeStaging(path);
    else rmSync(path, { force: true });
  }
  rmdirSync(folder);
}

/** Whether a process with this id exists (one of another user counts: it cannot be signalled, but it is there). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the staging folders that restores which did not finish (killed, the machine
 * went down) left in `dataDir`: those whose process is gone. One whose process still
 * runs is another restore at work, and a refusal: nothing of it is touched. Returns the
 * folders removed.
 */
export function removeLeftStaging(dataDir: string): string[] {
  const removed: string[] = [];
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    const match = stagingPattern.exec(entry.name);
    if (!match || !entry.isDirectory()) continue;
    const folder = join(dataDir, entry.name);
    const pid = Number(match[1]);
    if (pid !== process.pid && processExists(pid)) {
      throw invalid(`${folder} milik restore lain yang masih berjalan (proses ${pid}); tunggu sampai selesai. Bila proses itu bukan restore skrining, hapus folder itu lalu ulangi.`);
    }
    removeStaging(folder);
    removed.push(folder);
  }
  return removed;
}

/**
 * Room kept free beyond the files a restore writes: a tenth of them and 64 MB, for the
 * database's WAL as it is opened, the copy taken before a migration, and the system
 * itself, which should never be left with a full disk by a restore.
 */
export const roomMargin = { fraction: 0.1, bytes: 64 * 1024 * 1024 } as const;

/** What a restore of `total` bytes of files needs free. */
export const roomNeeded = (total: number) => total + Math.ceil(total * roomMargin.fraction) + roomMargin.bytes;

/** The most bytes of files that fit in `free` bytes with the margin. */
export const largestFitting = (free: number) => Math.max(0, Math.floor((free - roomMargin.bytes) / (1 + roomMargin.fraction)));

/**
 * The bytes this user may still write on the disk of `folder` (of its nearest existing
 * parent while it does not exist yet); null where the system cannot say, and the room is
 * then not checked (the manifest still bounds what is written).
 */
export function freeBytes(folder: string): number | null {
  let existing = folder;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    const stats = statfsSync(existing);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

/** The refusal of a restore whose files do not fit, with the margin, on the data folder's disk; `total` when known, else the least they hold. */
export function noRoom(archive: string, dataDir: string, files: { total: number } | { moreThan: number }, free: number): Error {
  const [more, bytes] = "total" in files ? ["", files.total] : ["lebih dari ", files.moreThan];
  return invalid(
    `Ruang disk tidak cukup untuk memulihkan ${archive} ke ${dataDir}: isi cadangan ${more}${fileSize(bytes)}, perlu ${more}${fileSize(roomNeeded(bytes))} ruang kosong ` +
      `(isi + 10% + 64 MB), tersedia ${fileSize(free)}. Kosongkan ruang disk atau pilih --data di disk lain; tidak ada yang dipulihkan.`,
  );
}
