import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileTimestamp } from "./snapshot";

// The archives serve writes into its backup folder, by their names (decisions §17, issue 44):
//
//   skrining-auto-20261125-020000Z.tar.gz           the schedule's (--backup-every), rotated to --backup-keep
//   skrining-auto-20261125-093012Z-impor.tar.gz     after a roster import, kept while the schedule's of its time are
//   skrining-auto-20261125-080001Z-migrasi.tar.gz   after a schema migration, likewise
//   skrining-manual-20261125-101500Z.tar.gz         "Cadangkan sekarang" in the console: never rotated
//
// `.enc` follows an encrypted one. The time is when the backup began, in UTC, so that sorting
// the names sorts the backups by age. Only files whose whole name has one of these forms are
// ever deleted by the rotation, so a person's own files in the folder are safe.

/** Why a backup was taken: by the schedule, after a roster import or a migration, or by an admin's hand. */
export const backupKinds = ["terjadwal", "impor", "migrasi", "manual"] as const;
export type BackupKind = (typeof backupKinds)[number];

/** The kinds the server takes by itself, which the rotation may delete. */
export const automaticKinds: ReadonlySet<BackupKind> = new Set(["terjadwal", "impor", "migrasi"]);

export function backupName(kind: BackupKind, moment: Date, encrypted = false): string {
  const prefix = kind === "manual" ? "skrining-manual" : "skrining-auto";
  const suffix = kind === "impor" || kind === "migrasi" ? `-${kind}` : "";
  return `${prefix}-${fileTimestamp(moment)}${suffix}.tar.gz${encrypted ? ".enc" : ""}`;
}

/** The schedule's own name (kept for its callers: a backup of the schedule). */
export const automaticBackupName = (moment: Date, encrypted = false) => backupName("terjadwal", moment, encrypted);

const namePattern = /^skrining-(auto|manual)-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})Z(?:-(impor|migrasi))?\.tar\.gz(?:\.enc)?$/;

/** What a backup's name says: its kind and when it began; null for any other name. */
export function readBackupName(name: string): { kind: BackupKind; began: number } | null {
  const match = namePattern.exec(name);
  if (!match) return null;
  const [, prefix, year, month, day, hour, minute, second, reason] = match;
  if (prefix === "manual" && reason !== undefined) return null;
  const kind: BackupKind = prefix === "manual" ? "manual" : ((reason as "impor" | "migrasi" | undefined) ?? "terjadwal");
  return { kind, began: Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)) };
}

/** What a backup stopped half way (the server stopped, the machine went down) leaves: its temporary files. */
export const leftoverPattern = /^\.{1,2}skrining-(?:auto|manual)-\d{8}-\d{6}Z(?:-impor|-migrasi)?\.tar\.gz\..*\.tmp$/;

/** A backup file of a backup folder, as the admin console lists it. */
export interface BackupFile {
  name: string;
  size: number;
  /** When the file was last written (ISO 8601, UTC). */
  modifiedAt: string;
  /** Taken by the server itself (the schedule, after an import or a migration): rotated with the schedule's. */
  automatic: boolean;
  /** Why it was taken, by its name; null for an archive of another name (copied in by hand). */
  kind: BackupKind | null;
  /** An encrypted archive (decisions §17): restore and `backup --check` ask for its passphrase. */
  encrypted: boolean;
  /** Who took a manual one (the console's admin), as the backup folder's record says; null otherwise. */
  takenBy: string | null;
}

/**
 * The finished backups in a folder, newest first: archives (`.tar.gz`, encrypted
 * `.tar.gz.enc`), never the temporary files of one being written (names starting with `.`)
 * or anything else. `takenBy` names who took a manual one (BackupFolder's record).
 */
export function listBackups(folder: string, takenBy: (name: string) => string | null = () => null): BackupFile[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => !name.startsWith(".") && (name.endsWith(".tar.gz") || name.endsWith(".tar.gz.enc")))
    .flatMap((name) => {
      const stats = lstatSync(join(folder, name), { throwIfNoEntry: false });
      if (!stats?.isFile()) return [];
      const kind = readBackupName(name)?.kind ?? null;
      return [
        {
          name,
          size: stats.size,
          modifiedAt: stats.mtime.toISOString(),
          automatic: kind !== null && automaticKinds.has(kind),
          kind,
          encrypted: name.endsWith(".enc"),
          takenBy: kind === "manual" ? takenBy(name) : null,
        },
      ];
    })
    .sort((a, b) => b.modifiedAt.localeCompare(a.modifiedAt) || b.name.localeCompare(a.name));
}
