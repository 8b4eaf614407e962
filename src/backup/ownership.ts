import { chownSync, lstatSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

// A command run as root on a data folder another account owns (the service's `skrining`)
// leaves root's files there, which the service cannot open or chmod (EPERM at its start,
// exit 3, which systemd does not retry). What `restore` and `rollback` write is therefore
// given to the data folder's owner (issue 44, item 4).

/** The data folder's owner, when this process is root and the folder is someone else's; null otherwise (or on Windows). */
export function foreignOwner(dataDir: string): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const stats = statSync(dataDir, { throwIfNoEntry: false });
  if (!stats || stats.uid === 0) return null;
  return { uid: stats.uid, gid: stats.gid };
}

/**
 * Gives `paths` (folders with everything in them) to the data folder's owner when root wrote
 * them (foreignOwner); returns how many entries changed owner. Links are not followed.
 */
export function keepOwner(dataDir: string, paths: readonly string[]): number {
  const owner = foreignOwner(dataDir);
  if (!owner) return 0;
  let changed = 0;
  const visit = (path: string) => {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats || stats.isSymbolicLink()) return;
    if (stats.uid !== owner.uid || stats.gid !== owner.gid) {
      chownSync(path, owner.uid, owner.gid);
      changed++;
    }
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  for (const path of paths) visit(path);
  return changed;
}
