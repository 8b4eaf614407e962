import { lstatSync, readdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { conflict } from "../errors";
import type { Logger } from "../logger";
import { passphraseVariable } from "./encryption";
import { fileTimestamp } from "./snapshot";

const unitMilliseconds: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30m`, `6h`, `24h`, `7d` (and `45s`) in milliseconds; null for anything else. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)([smhd])$/.exec(text.trim());
  if (!match) return null;
  const milliseconds = Number(match[1]) * unitMilliseconds[match[2]!]!;
  return milliseconds > 0 && Number.isSafeInteger(milliseconds) ? milliseconds : null;
}

/**
 * The automatic backups' names: the time the backup began, in UTC, so that sorting the
 * names sorts the backups by age; `.enc` after an encrypted one, so that nobody tries
 * `tar xzf` on it. Only files whose whole name has this form are ever deleted by the
 * rotation, so a person's own files in the folder are safe.
 */
export const automaticBackupName = (moment: Date, encrypted = false) => `skrining-auto-${fileTimestamp(moment)}.tar.gz${encrypted ? ".enc" : ""}`;
const automaticBackupPattern = /^skrining-auto-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})Z\.tar\.gz(?:\.enc)?$/;
/** What a backup stopped half way (the server stopped, the machine went down) leaves: its temporary files. */
const leftoverPattern = /^\.{1,2}skrining-auto-\d{8}-\d{6}Z\.tar\.gz\..*\.tmp$/;

/** The time an automatic backup's name says it began, or null for any other name. */
function beganAt(name: string): number | null {
  const match = automaticBackupPattern.exec(name);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** Whose the archives in the backup folder are, by their manifests (backup-folder.ts). */
export interface ArchiveOwnership {
  /** This server has just written `name`. */
  written(name: string): void;
  /** Of these names, the archives whose manifest names this data folder. */
  own(names: readonly string[]): Promise<Set<string>>;
}

/** A timer source; tests pass one they advance by hand. */
export interface Clock {
  now(): number;
  setTimer(callback: () => void, milliseconds: number): unknown;
  clearTimer(timer: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimer: (callback, milliseconds) => setTimeout(callback, milliseconds),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** A timer is never set further ahead than a day: longer ones overflow, and the clock may be set meanwhile. */
const longestTimerMilliseconds = 86_400_000;

/** How one backup ended: its file, and how many old ones the rotation removed, or why it failed. */
export type BackupOutcome = { ok: true; target: string; removed: number } | { ok: false; target: string; reason: string };

/** The schedule of automatic backups, and the last one's outcome since the server started. */
export interface BackupSchedule {
  folder: string;
  everyMilliseconds: number;
  keep: number;
  /** When the next scheduled backup is due (ISO 8601, UTC). */
  nextDue: string;
  running: boolean;
  /** Whether the schedule encrypts (`serve --backup-passphrase-file`); "back up now" does the same. */
  encrypted: boolean;
  last: (BackupOutcome & { at: string }) | null;
}

/** A backup file of a backup folder, as the admin console lists it. */
export interface BackupFile {
  name: string;
  size: number;
  /** When the file was last written (ISO 8601, UTC). */
  modifiedAt: string;
  /** Named as the schedule names its backups (and rotated with them). */
  automatic: boolean;
  /** An encrypted archive (decisions §17): restore and `backup --check` ask for its passphrase. */
  encrypted: boolean;
}

/**
 * The finished backups in a folder, newest first: archives (`.tar.gz`, encrypted
 * `.tar.gz.enc`), never the temporary files of one being written (names starting with `.`)
 * or anything else.
 */
export function listBackups(folder: string): BackupFile[] {
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
      return [{ name, size: stats.size, modifiedAt: stats.mtime.toISOString(), automatic: automaticBackupPattern.test(name), encrypted: name.endsWith(".enc") }];
    })
    .sort((a, b) => b.modifiedAt.localeCompare(a.modifiedAt) || b.name.localeCompare(a.name));
}

export interface AutomaticBackupOptions {
  folder: string;
  everyMilliseconds: number;
  keep: number;
  /** Whether `write` encrypts: the archives are then named `….tar.gz.enc`. */
  encrypted?: boolean;
  /** Writes one complete, verified backup to `target`, or nothing when `stop` aborts it; rejects with the reason when it cannot. */
  write: (target: string, stop: AbortSignal) => Promise<void>;
  /** Which automatic backups in the folder are this data folder's own (BackupFolder): only those are rotated. */
  ownership: ArchiveOwnership;
  logger: Logger;
  clock?: Clock;
}

/**
 * Backups taken while the server runs, every `everyMilliseconds`, into `folder`. The first
 * is due one period after the newest automatic backup already there, or at once when there
 * is none or it is older: a server restarted every morning still gets its daily backup,
 * and one restarted often does not push good backups out with new ones. After each
 * backup that succeeded, only the newest `keep` of this data folder's automatic backups
 * stay (`ownership`: another folder's are never touched); a failed one is logged and
 * tried again one period later, and removes nothing.
 */
export class AutomaticBackups {
  private readonly clock: Clock;
  private timer: unknown = null;
  private running: Promise<BackupOutcome> | null = null;
  private stopped = false;
  private readonly abort = new AbortController();
  private due = 0;
  private last: (BackupOutcome & { at: string }) | null = null;

  constructor(private readonly options: AutomaticBackupOptions) {
    this.clock = options.clock ?? realClock;
  }

  start(): void {
    const now = this.clock.now();
    const newest = Math.max(...this.ownBackups().map((backup) => backup.began), Number.NEGATIVE_INFINITY);
    // A newest backup "from the future" (the clock was set back) counts as taken now, not as a reason to wait.
    this.due = Math.max(now, Math.min(newest, now) + this.options.everyMilliseconds);
    this.options.logger.info(
      `Cadangan otomatis ke ${this.options.folder} setiap ${describeDuration(this.options.everyMilliseconds)}, ${this.options.keep} terbaru disimpan; berikutnya ${new Date(this.due).toISOString()}.`,
    );
    this.arm();
  }

  /** Cancels the next backup, stops one in progress and waits until it has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    if (this.timer !== null) this.clock.clearTimer(this.timer);
    this.timer = null;
    await this.running;
  }

  /** The schedule as the admin console shows it. */
  status(): BackupSchedule {
    return {
      folder: this.options.folder,
      everyMilliseconds: this.options.everyMilliseconds,
      keep: this.options.keep,
      nextDue: new Date(this.due).toISOString(),
      running: this.running !== null,
      encrypted: this.options.encrypted === true,
      last: this.last,
    };
  }

  /**
   * A backup now (the console's "Cadangkan sekarang"): the schedule's own backup, with its
   * name, its check and its rotation, taken at once; the next one is due a period later.
   * One backup at a time: while one runs, this is refused.
   */
  async backUpNow(): Promise<BackupOutcome> {
    if (this.stopped) throw conflict("Server sedang berhenti; cadangan tidak dibuat.");
    if (this.running !== null) throw conflict("Cadangan sedang dibuat; tunggu sampai selesai, lalu muat ulang daftar.");
    if (this.timer !== null) this.clock.clearTimer(this.timer);
    this.timer = null;
    return this.run();
  }

  private arm(): void {
    if (this.stopped) return;
    const wait = Math.max(0, Math.min(this.due - this.clock.now(), longestTimerMilliseconds));
    this.timer = this.clock.setTimer(() => {
      this.timer = null;
      if (this.clock.now() < this.due) this.arm();
      else void this.run();
    }, wait);
  }

  /** One backup, remembered as the last one; the timer is armed again afterwards. */
  private run(): Promise<BackupOutcome> {
    const began = new Date(this.clock.now()).toISOString();
    const running = this.runOnce().then((outcome) => {
      this.last = { ...outcome, at: began };
      return outcome;
    });
    this.running = running.finally(() => {
      this.running = null;
      this.arm();
    });
    return this.running;
  }

  /** One backup now; the next is due one period after this one began. */
  private async runOnce(): Promise<BackupOutcome> {
    const began = this.clock.now();
    this.due = began + this.options.everyMilliseconds;
    const target = join(this.options.folder, automaticBackupName(new Date(began), this.options.encrypted));
    try {
      this.removeLeftovers();
      await this.options.write(target, this.abort.signal);
    } catch (error) {
      if (this.stopped) {
        this.options.logger.info(`Cadangan otomatis ${target} dihentikan karena server berhenti; tidak ada file yang tersimpan.`);
        return { ok: false, target, reason: "server berhenti" };
      }
      this.options.logger.error(
        `Cadangan otomatis ${target} gagal: ${messageOf(error)}. Dicoba lagi ${new Date(this.due).toISOString()}; cadangan lama tidak dihapus.`,
      );
      return { ok: false, target, reason: messageOf(error) };
    }
    let removed = 0;
    try {
      this.options.ownership.written(basename(target));
      removed = await this.rotate();
    } catch (error) {
      this.options.logger.error(`Cadangan otomatis lama di ${this.options.folder} tidak dapat dihapus: ${messageOf(error)}.`);
    }
    this.options.logger.info(`Cadangan otomatis tersimpan: ${target}${removed > 0 ? ` (${removed} cadangan otomatis lama dihapus)` : ""}.`);
    return { ok: true, target, removed };
  }

  /** The files named as automatic backups in the folder, newest first (whoever's they are). */
  private ownBackups(): { name: string; began: number }[] {
    let names: string[];
    try {
      names = readdirSync(this.options.folder);
    } catch {
      return [];
    }
    return names
      .map((name) => ({ name, began: beganAt(name) }))
      .filter((backup): backup is { name: string; began: number } => backup.began !== null && this.isFile(backup.name))
      .sort((a, b) => b.name.localeCompare(a.name));
  }

  private isFile(name: string): boolean {
    return lstatSync(join(this.options.folder, name), { throwIfNoEntry: false })?.isFile() === true;
  }

  /**
   * Deletes this data folder's automatic backups beyond its newest `keep`; returns how
   * many. An archive whose manifest names another data folder (or none it can read) is
   * neither counted nor deleted.
   */
  private async rotate(): Promise<number> {
    const named = this.ownBackups();
    const own = await this.options.ownership.own(named.map((backup) => backup.name));
    const surplus = named.filter((backup) => own.has(backup.name)).slice(this.options.keep);
    for (const backup of surplus) rmSync(join(this.options.folder, backup.name), { force: true });
    return surplus.length;
  }

  private removeLeftovers(): void {
    for (const name of readdirSync(this.options.folder)) {
      if (leftoverPattern.test(name) && this.isFile(name)) rmSync(join(this.options.folder, name), { force: true });
    }
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The command line and environment of the child that writes one automatic backup: `skrining
 * --data <dataDir> backup <target>`, with `--encrypt` and the passphrase in the child's own
 * environment when there is one (never on its command line, which every user of the
 * machine may list); without one, the child gets none, whatever the server inherited.
 */
export function backupChildCommand(dataDir: string, environment: Record<string, string | undefined>, passphrase?: string) {
  // The compiled executable is the program itself; under Bun the entry point is cli/main.ts.
  const program = Bun.isStandaloneExecutable ? [process.execPath] : [process.execPath, join(import.meta.dir, "..", "..", "cli", "main.ts")];
  const { [passphraseVariable]: _inherited, ...inherited } = environment;
  return {
    args: (target: string) => [...program, "--data", dataDir, "backup", ...(passphrase === undefined ? [] : ["--encrypt"]), target],
    env: passphrase === undefined ? inherited : { ...inherited, [passphraseVariable]: passphrase },
  };
}

/**
 * Writes a backup in a child process (backupChildCommand): the server's own thread never
 * waits for the snapshot or the compression, the database is read as any other program
 * reads it (a snapshot, no lock held against the server's writes), and the archive is
 * exactly what the command writes and verifies.
 */
export function backupInChildProcess(dataDir: string, environment: Record<string, string | undefined>, passphrase?: string): AutomaticBackupOptions["write"] {
  const command = backupChildCommand(dataDir, environment, passphrase);
  return async (target, stop) => {
    const child = Bun.spawn(command.args(target), { env: command.env, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
    const kill = () => child.kill("SIGTERM");
    stop.addEventListener("abort", kill);
    try {
      const [exitCode, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
      if (exitCode !== 0) {
        const reason = stderr.trim().split("\n").at(-1)?.replace(/^skrining: /, "") || `kode keluar ${exitCode}`;
        throw new Error(reason);
      }
    } finally {
      stop.removeEventListener("abort", kill);
    }
  };
}

/** A period as it was most likely written (`24h`, `7d`, `30m`). */
function describeDuration(milliseconds: number): string {
  for (const unit of ["d", "h", "m"] as const) {
    if (milliseconds % unitMilliseconds[unit]! === 0) return `${milliseconds / unitMilliseconds[unit]!}${unit}`;
  }
  return `${milliseconds / 1000}s`;
}
