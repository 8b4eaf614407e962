import { closeSync, fsyncSync, openSync } from "node:fs";

/**
 * Flushes a folder's entries (a rename, a new file) to the disk, so that a file renamed
 * into place survives a power cut. POSIX only: Windows cannot flush a folder (an open
 * folder refuses FlushFileBuffers with EPERM), and NTFS journals the rename itself.
 */
export function syncFolder(folder: string, platform: NodeJS.Platform = process.platform): void {
  if (platform === "win32") return;
  const handle = openSync(folder, "r");
  try {
    fsyncSync(handle);
  } finally {
    closeSync(handle);
  }
}
