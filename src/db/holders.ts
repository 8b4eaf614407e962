import { readdirSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The processes that hold one of `files` open, found through /proc (Linux): a server
 * running on the data folder, a command in progress, `sqlite3`. Processes of other users
 * are not visible to an ordinary user, and without /proc nothing is found.
 */
export function processesHolding(files: readonly string[]): number[] {
  let ids: string[];
  try {
    ids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const wanted = new Set(files);
  const holders: number[] = [];
  for (const id of ids) {
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${id}/fd`);
    } catch {
      continue;
    }
    for (const descriptor of descriptors) {
      try {
        if (wanted.has(readlinkSync(`/proc/${id}/fd/${descriptor}`))) {
          holders.push(Number(id));
          break;
        }
      } catch {
        // The descriptor closed while it was looked at.
      }
    }
  }
  return holders;
}

/** The files of the database at `databasePath` (itself, its WAL and its shared memory) by their real paths. */
export function databaseFiles(databasePath: string): string[] {
  const real = join(realpathSync(dirname(databasePath)), databasePath.slice(dirname(databasePath).length + 1));
  return ["", "-wal", "-shm"].map((suffix) => `${real}${suffix}`);
}
