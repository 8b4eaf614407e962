import { randomUUID } from "node:crypto";
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

// A data folder's identity: what a backup's manifest and a backup folder's owner record
// name, so that automatic backups delete only their own folder's archives (decisions §17).
// It lives in the data folder (`folder-id`, 0600) and is not part of any backup, so that:
// - a folder moved or renamed keeps it (the file moves with it; the path it records follows);
// - a copy made by hand gets one of its own the first time it is used while the original
//   still has the same identity at its own path;
// - `restore --force` keeps the identity of the folder it replaces, and a restore into an
//   empty folder at the path the backup was taken from (the same folder on a new disk)
//   takes the backup's; any other restore (a drill into /tmp) is a new folder.

export const identityFileName = "folder-id";

export interface FolderIdentity {
  id: string;
  /** The folder's real path when the identity was made or last confirmed. */
  path: string;
}

/** A folder's real path (links resolved), or its absolute path while it does not exist. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function readIdentity(dataDir: string): FolderIdentity | null {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, identityFileName), "utf8")) as Partial<FolderIdentity>;
    return typeof value.id === "string" && value.id !== "" && typeof value.path === "string" ? { id: value.id, path: value.path } : null;
  } catch {
    return null;
  }
}

/**
 * The identity the folder has, or will have once written: its own; a new one when it has
 * none (or an unreadable file) or is a copy of a folder that still has that identity at its
 * own path; its own with the new path when it was moved. `changed` says what writing would do.
 */
export function resolveIdentity(dataDir: string): { identity: FolderIdentity; changed: "new" | "copy" | "moved" | null } {
  const here = realPath(dataDir);
  const recorded = readIdentity(dataDir);
  if (!recorded) return { identity: { id: randomUUID(), path: here }, changed: "new" };
  if (recorded.path === here) return { identity: recorded, changed: null };
  const original = realPath(recorded.path) !== here ? readIdentity(recorded.path) : null;
  if (original?.id === recorded.id) return { identity: { id: randomUUID(), path: here }, changed: "copy" };
  return { identity: { id: recorded.id, path: here }, changed: "moved" };
}

/** The folder's identity, written down when it is new or has changed (see resolveIdentity). */
export function dataFolderIdentity(dataDir: string): FolderIdentity & { changed: "new" | "copy" | "moved" | null } {
  const { identity, changed } = resolveIdentity(dataDir);
  if (changed) writeIdentity(dataDir, identity);
  return { ...identity, changed };
}

export function writeIdentity(dataDir: string, identity: FolderIdentity): void {
  writeFileSync(join(dataDir, identityFileName), `${JSON.stringify(identity)}\n`, { mode: 0o600 });
}

/** The identity file of `dataDir` as it is, if any (for restore, which carries it over). */
export const recordedIdentity = readIdentity;
