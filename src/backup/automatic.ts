import { lstatSync, readdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { conflict } from "../errors";
import type { Logger } from "../logger";
import { backupName, leftoverPattern, readBackupName, type BackupKind } from "./backup-names";

const unitMilliseconds: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30m`, `6h`, `24h`, `7d` (and `45s`) in milliseconds; null for anything else. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)([smhd])$/.exec(text.trim());
  if (!match) return null;
  const milliseconds = Number(match[1]) * unitMilliseconds[match[2]!]!;
  return milliseconds > 0 && Number.isSafeInteger(milliseconds) ? milliseconds : null;
}

/** Whose the archives in the backup folder are, by their manifests (backup-folder.ts). */
export interface ArchiveOwnership {
  /** This server has just written `name`, of a database of `migrations` migrations; `takenBy` the admin who asked for a manual one. */
  written(name: string, facts?: { migrations?: number; takenBy?: string }): void;
  /** Of these names, the archives whose manifest names this data folder. */
  own(names: readonly string[]): Promise<Set<string>>;
  /** How many migrations the database in an archive of this folder had, as its manifest says; null when unknown. */
  migrationsOf?(name: string): Promise<number | null>;
  /** Who asked for a manual backup, as recorded; null when nobody is. */
  takenBy?(name: string): string | null;
}

/**
 * What in the database calls for a backup before the schedule's next one (issue 44): a
 * roster import (its audit row), and a schema newer than the newest backup's. Read by the
 * server's own connection, each a lookup by index.
 */
export interface BackupTriggers {
  /** The newest roster import's audit row: its id and time (Unix ms); null when there was none. */
  newestImport(): { id: number; at: number } | null;
  /** How many migrations the database has had. */
  schemaMigrations(): number;
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
export type BackupOutcome = ({ ok: true; target: string; removed: number } | { ok: false; target: string; reason: string }) & { kind: BackupKind };

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

/** What `GET /health` says of the backups (issue 44): the newest one's time and age, and whether they are encrypted. */
export interface BackupHealth {
  terakhir: string | null;
  umur_jam: number | null;
  terenkripsi: boolean;
}

/** How often serve looks for a roster import to back up after, unless SKRINING_BACKUP_CHECK_SECONDS says otherwise. */
export const defaultBackupCheckMilliseconds = 60_000;

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
  /** What calls for a backup before the schedule's next one (a roster import, a migration); none without. */
  triggers?: BackupTriggers;
  /** How often `triggers` is looked at (default a minute). */
  checkEveryMilliseconds?: number;
}

/**
 * Backups taken while the server runs, every `everyMilliseconds`, into `folder`. The first
 * is due one period after the newest of the schedule's already there, or at once when there
 * is none or it is older: a server restarted every morning still gets its daily backup, and
 * one restarted often does not push good backups out with new ones. Besides (issue 44): a
 * backup soon after a roster import (its audit row, looked for every `checkEveryMilliseconds`)
 * and at the start after a migration (the database newer than the newest backup), named for
 * why; and a manual one on an admin's request, which the rotation never deletes. After each
 * automatic backup that succeeded, only the newest `keep` of this data folder's scheduled
 * backups stay, and its backups after an import or a migration as long as a scheduled one of
 * their time or older does (`ownership`: another folder's are never touched); a failed one
 * is logged and tried again one period later, and removes nothing.
 */
export class AutomaticBackups {
  private readonly clock: Clock;
  private timer: unknown = null;
  private checkTimer: unknown = null;
  private running: Promise<BackupOutcome> | null = null;
  /** A backup after an import asked for while another ran: taken once that one has ended. */
  private pending: BackupKind | null = null;
  private stopped = false;
  private readonly abort = new AbortController();
  private due = 0;
  private last: (BackupOutcome & { at: string }) | null = null;
  /** The newest roster import a backup was taken (or asked for) after. */
  private importSeen = 0;
  /** When the newest backup in the folder began (any kind), known at the start and from each backup since: /health's age. */
  private newestBegan: number | null = null;

  constructor(private readonly options: AutomaticBackupOptions) {
    this.clock = options.clock ?? realClock;
  }

  /** Arms the schedule; resolves once what happened since the newest backup was looked at (the server does not wait for it). */
  async start(): Promise<void> {
    const now = this.clock.now();
    this.newestBegan = this.backupsInFolder()[0]?.began ?? null;
    const newest = Math.max(...this.backupsInFolder("terjadwal").map((backup) => backup.began), Number.NEGATIVE_INFINITY);
    // A newest backup "from the future" (the clock was set back) counts as taken now, not as a reason to wait.
    this.due = Math.max(now, Math.min(newest, now) + this.options.everyMilliseconds);
    this.options.logger.info(
      `Cadangan otomatis ke ${this.options.folder} setiap ${describeDuration(this.options.everyMilliseconds)}, ${this.options.keep} terbaru disimpan; berikutnya ${new Date(this.due).toISOString()}.`,
    );
    this.arm();
    if (this.options.triggers) {
      const dueNow = this.due <= now;
      this.importSeen = this.options.triggers.newestImport()?.id ?? 0;
      this.armCheck();
      // The schedule's backup now takes in whatever happened; otherwise what happened since the newest backup asks for one.
      if (!dueNow) await this.catchUp();
    }
  }

  /** Cancels the next backup, stops one in progress and waits until it has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    for (const timer of [this.timer, this.checkTimer]) if (timer !== null) this.clock.clearTimer(timer);
    this.timer = null;
    this.checkTimer = null;
    this.pending = null;
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
   * A manual backup now (the console's "Cadangkan sekarang", issue 44): `skrining-manual-…`,
   * written and checked as every backup, never deleted by the rotation and not counted in it;
   * the schedule goes on as it was. `takenBy` (the admin) is kept beside it. One backup at a
   * time: while one runs, this is refused.
   */
  async backUpNow(takenBy: string): Promise<BackupOutcome> {
    if (this.stopped) throw conflict("Server sedang berhenti; cadangan tidak dibuat.");
    if (this.running !== null) throw conflict("Cadangan sedang dibuat; tunggu sampai selesai, lalu muat ulang daftar.");
    return this.run("manual", takenBy);
  }

  /** The newest backup's time and age in whole hours, for a monitor (read from memory: a poll costs nothing). */
  health(): BackupHealth {
    // To the second, as the names say it.
    const began = this.newestBegan === null ? null : Math.floor(this.newestBegan / 1000) * 1000;
    return {
      terakhir: began === null ? null : new Date(began).toISOString(),
      umur_jam: began === null ? null : Math.max(0, Math.floor((this.clock.now() - began) / 3_600_000)),
      terenkripsi: this.options.encrypted === true,
    };
  }

  /** Who asked for the manual backup `name` (the console lists it). */
  takenBy(name: string): string | null {
    return this.options.ownership.takenBy?.(name) ?? null;
  }

  /** Looks for a roster import now (the console's import calls it; otherwise every check period). */
  noticeChanges(): void {
    const newest = this.options.triggers?.newestImport();
    if (!newest || newest.id <= this.importSeen || this.stopped) return;
    this.importSeen = newest.id;
    this.takeSoon("impor");
  }

  /** A backup as soon as none runs; a scheduled one waiting makes one after an import needless (it is taken later still). */
  private takeSoon(kind: BackupKind): void {
    if (this.running === null) void this.run(kind);
    else if (this.pending !== "terjadwal") this.pending = kind;
  }

  /**
   * At the start, when the schedule's backup is not due yet: a roster import after the newest
   * backup of this folder, or a database newer than that backup's (a migration by this start
   * or by `skrining migrate`), is backed up at once.
   */
  private async catchUp(): Promise<void> {
    const triggers = this.options.triggers!;
    const all = this.backupsInFolder();
    const own = await this.options.ownership.own(all.map((backup) => backup.name));
    const newest = all.find((backup) => own.has(backup.name));
    const lastImport = triggers.newestImport();
    if (this.stopped) return;
    if (newest && lastImport && lastImport.at > newest.began) return this.takeSoon("impor");
    const backedUp = newest ? await this.options.ownership.migrationsOf?.(newest.name) : null;
    if (!this.stopped && backedUp !== undefined && backedUp !== null && backedUp < triggers.schemaMigrations()) this.takeSoon("migrasi");
  }

  private armCheck(): void {
    if (this.stopped) return;
    this.checkTimer = this.clock.setTimer(() => {
      this.checkTimer = null;
      this.noticeChanges();
      this.armCheck();
    }, this.options.checkEveryMilliseconds ?? defaultBackupCheckMilliseconds);
  }

  private arm(): void {
    if (this.stopped) return;
    const wait = Math.max(0, Math.min(this.due - this.clock.now(), longestTimerMilliseconds));
    this.timer = this.clock.setTimer(() => {
      this.timer = null;
      if (this.clock.now() < this.due) this.arm();
      else this.takeSoon("terjadwal");
    }, wait);
  }

  /** One backup, remembered as the last one; a scheduled one sets the next due time, and a backup asked for meanwhile follows. */
  private run(kind: BackupKind, takenBy?: string): Promise<BackupOutcome> {
    const began = new Date(this.clock.now()).toISOString();
    if (kind === "terjadwal" && this.timer !== null) {
      this.clock.clearTimer(this.timer);
      this.timer = null;
    }
    const running = this.runOnce(kind, takenBy).then((outcome) => {
      this.last = { ...outcome, at: began };
      return outcome;
    });
    this.running = running.finally(() => {
      this.running = null;
      if (kind === "terjadwal") this.arm();
      const next = this.pending;
      this.pending = null;
      if (next !== null && !this.stopped) void this.run(next);
    });
    return this.running;
  }

  /** One backup now; a scheduled one makes the next due one period after this one began. */
  private async runOnce(kind: BackupKind, takenBy?: string): Promise<BackupOutcome> {
    const began = this.clock.now();
    if (kind === "terjadwal") this.due = began + this.options.everyMilliseconds;
    const target = join(this.options.folder, backupName(kind, new Date(began), this.options.encrypted));
    const what = kind === "manual" ? "Cadangan manual" : "Cadangan otomatis";
    try {
      this.removeLeftovers();
      await this.options.write(target, this.abort.signal);
    } catch (error) {
      if (this.stopped) {
        this.options.logger.info(`${what} ${target} dihentikan karena server berhenti; tidak ada file yang tersimpan.`);
        return { ok: false, target, reason: "server berhenti", kind };
      }
      const retry = kind === "terjadwal" ? ` Dicoba lagi ${new Date(this.due).toISOString()};` : "";
      this.options.logger.error(`${what} ${target} gagal: ${messageOf(error)}.${retry} cadangan lama tidak dihapus.`);
      return { ok: false, target, reason: messageOf(error), kind };
    }
    this.newestBegan = Math.max(this.newestBegan ?? began, began);
    let removed = 0;
    try {
      this.options.ownership.written(basename(target), { migrations: this.options.triggers?.schemaMigrations(), ...(takenBy === undefined ? {} : { takenBy }) });
      if (kind !== "manual") removed = await this.rotate();
    } catch (error) {
      this.options.logger.error(`Cadangan otomatis lama di ${this.options.folder} tidak dapat dihapus: ${messageOf(error)}.`);
    }
    const why = kind === "impor" ? " (sesudah impor daftar akun)" : kind === "migrasi" ? " (sesudah migrasi skema basis data)" : kind === "manual" && takenBy ? ` (diminta ${takenBy})` : "";
    this.options.logger.info(`${what} tersimpan: ${target}${why}${removed > 0 ? ` (${removed} cadangan otomatis lama dihapus)` : ""}.`);
    return { ok: true, target, removed, kind };
  }

  /** The backups the server names in the folder (of one kind, or every kind), newest first, whoever's they are. */
  private backupsInFolder(kind?: BackupKind): { name: string; kind: BackupKind; began: number }[] {
    let names: string[];
    try {
      names = readdirSync(this.options.folder);
    } catch {
      return [];
    }
    return names
      .flatMap((name) => {
        const read = readBackupName(name);
        return read && (kind === undefined || read.kind === kind) && this.isFile(name) ? [{ name, ...read }] : [];
      })
      .sort((a, b) => b.began - a.began || b.name.localeCompare(a.name));
  }

  private isFile(name: string): boolean {
    return lstatSync(join(this.options.folder, name), { throwIfNoEntry: false })?.isFile() === true;
  }

  /**
   * Deletes this data folder's scheduled backups beyond its newest `keep`, and its backups
   * after an import or a migration older than the oldest scheduled one kept; returns how
   * many. A manual backup, an archive whose manifest names another data folder (or none it
   * can read), and any other file are neither counted nor deleted.
   */
  private async rotate(): Promise<number> {
    const named = this.backupsInFolder().filter((backup) => backup.kind !== "manual");
    const own = await this.options.ownership.own(named.map((backup) => backup.name));
    const scheduled = named.filter((backup) => backup.kind === "terjadwal" && own.has(backup.name));
    const oldestKept = scheduled.length >= this.options.keep ? scheduled[this.options.keep - 1]!.began : Number.NEGATIVE_INFINITY;
    const surplus = [
      ...scheduled.slice(this.options.keep),
      ...named.filter((backup) => backup.kind !== "terjadwal" && own.has(backup.name) && backup.began < oldestKept),
    ];
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

/** A period as it was most likely written (`24h`, `7d`, `30m`). */
function describeDuration(milliseconds: number): string {
  for (const unit of ["d", "h", "m"] as const) {
    if (milliseconds % unitMilliseconds[unit]! === 0) return `${milliseconds / unitMilliseconds[unit]!}${unit}`;
  }
  return `${milliseconds / 1000}s`;
}
