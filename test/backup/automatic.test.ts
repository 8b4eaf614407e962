import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AutomaticBackups, parseDuration, type Clock } from "../../src/backup/automatic";
import type { Logger } from "../../src/logger";
import { temporaryDir } from "../helpers";

const hour = 3_600_000;
const day = 24 * hour;

/** A clock whose time moves only when the test says; its timers fire in order as it moves. */
class FakeClock implements Clock {
  private timers: { at: number; callback: () => void }[] = [];

  constructor(public time: number) {}

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, milliseconds: number): unknown {
    const timer = { at: this.time + milliseconds, callback };
    this.timers.push(timer);
    return timer;
  }

  clearTimer(timer: unknown): void {
    this.timers = this.timers.filter((candidate) => candidate !== timer);
  }

  /** Moves the time forward by `milliseconds`, firing every timer due on the way and letting what it started finish. */
  async advance(milliseconds: number): Promise<void> {
    const end = this.time + milliseconds;
    for (;;) {
      const next = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers = this.timers.filter((timer) => timer !== next);
      this.time = Math.max(this.time, next.at);
      next.callback();
      // The backup started by the timer runs on promises; let them settle.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.time = end;
  }
}

/** A logger that keeps its lines for the test to read. */
function recorder() {
  const info: string[] = [];
  const error: string[] = [];
  const logger: Logger = { info: (line) => void info.push(line), error: (line) => void error.push(line) };
  return { logger, info, error };
}

const start = Date.UTC(2026, 10, 25, 8, 0, 0);

/**
 * Whose the archives are, as BackupFolder says it from their manifests: every file this
 * server wrote, and those the test names as written by this data folder before; any other
 * is another data folder's.
 */
function ownershipOf(ownedBefore: readonly string[] = []) {
  const mine = new Set(ownedBefore);
  return { written: (name: string) => void mine.add(name), own: async (names: readonly string[]) => new Set(names.filter((name) => mine.has(name))) };
}

/** What the database says (BackupTriggers), set by the test: the newest import row and the schema's migrations. */
function triggersOf() {
  const database = { newestImport: null as { id: number; at: number } | null, migrations: 16 };
  return { database, triggers: { newestImport: () => database.newestImport, schemaMigrations: () => database.migrations } };
}

/** Automatic backups into a fresh folder whose writes are recorded (and fail while `failing` is set). */
function setUp(
  options: {
    every?: number;
    keep?: number;
    folder?: string;
    ownedBefore?: string[];
    encrypted?: boolean;
    triggers?: ReturnType<typeof triggersOf>["triggers"];
    /** The migrations of each archive's database, as its manifest would say. */
    migrationsOf?: Record<string, number>;
  } = {},
) {
  const folder = options.folder ?? temporaryDir("skrining-auto-");
  const clock = new FakeClock(start);
  const log = recorder();
  const written: string[] = [];
  const state = { failing: false };
  const backups = new AutomaticBackups({
    folder,
    everyMilliseconds: options.every ?? day,
    keep: options.keep ?? 3,
    logger: log.logger,
    clock,
    ownership: { ...ownershipOf(options.ownedBefore), migrationsOf: async (name: string) => options.migrationsOf?.[name] ?? null },
    encrypted: options.encrypted,
    triggers: options.triggers,
    checkEveryMilliseconds: 60_000,
    write: async (target) => {
      if (state.failing) throw new Error("Disk penuh");
      writeFileSync(target, "arsip");
      written.push(target);
    },
  });
  return { folder, clock, log, written, state, backups };
}

const autoName = (time: number) => `skrining-auto-${new Date(time).toISOString().replace(/\.\d{3}Z$/, "Z").replaceAll("-", "").replaceAll(":", "").replace("T", "-")}.tar.gz`;

describe("parseDuration", () => {
  test.each([
    ["30m", 30 * 60_000],
    ["6h", 6 * hour],
    ["24h", day],
    ["7d", 7 * day],
    ["45s", 45_000],
  ])("%s is %d ms", (text, milliseconds) => {
    expect(parseDuration(text)).toBe(milliseconds);
  });

  test.each(["", "0h", "1.5h", "h", "24", "-1h", "24H", "1w", "6 jam"])("%p is refused", (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});

describe("automatic backups", () => {
  test("the first is taken at once when the folder has none, then one every period, named by the time it began", async () => {
    const { folder, clock, log, written, backups } = setUp({ every: 6 * hour });
    backups.start();
    expect(log.info[0]).toBe(`Cadangan otomatis ke ${folder} setiap 6h, 3 terbaru disimpan; berikutnya ${new Date(start).toISOString()}.`);
    await clock.advance(0);
    expect(written).toEqual([join(folder, autoName(start))]);
    expect(autoName(start)).toBe("skrining-auto-20261125-080000Z.tar.gz");
    await clock.advance(6 * hour - 1);
    expect(written).toHaveLength(1);
    await clock.advance(1);
    expect(written).toEqual([join(folder, autoName(start)), join(folder, autoName(start + 6 * hour))]);
    expect(log.info.at(-1)).toBe(`Cadangan otomatis tersimpan: ${join(folder, autoName(start + 6 * hour))}.`);
    expect(log.error).toEqual([]);
    await backups.stop();
  });

  test("after a restart, the first is due one period after the newest one already in the folder", async () => {
    const { folder, clock, written, backups } = setUp({ every: day });
    writeFileSync(join(folder, autoName(start - 2 * hour)), "arsip kemarin");
    backups.start();
    await clock.advance(22 * hour - 1);
    expect(written).toEqual([]);
    await clock.advance(1);
    expect(written).toEqual([join(folder, autoName(start + 22 * hour))]);
    await backups.stop();
  });

  test("a newest backup dated after now (the clock was set back) delays the first by one period, not more", async () => {
    const { folder, clock, written, backups } = setUp({ every: day });
    writeFileSync(join(folder, autoName(start + 300 * day)), "arsip dari jam yang salah");
    backups.start();
    await clock.advance(day - 1);
    expect(written).toEqual([]);
    await clock.advance(1);
    expect(written).toEqual([join(folder, autoName(start + day))]);
    await backups.stop();
  });

  test("a period longer than a timer can wait (30 days) is waited out in steps", async () => {
    const { clock, written, backups } = setUp({ every: 30 * day });
    backups.start();
    await clock.advance(0);
    await clock.advance(30 * day - 1);
    expect(written).toHaveLength(1);
    await clock.advance(1);
    expect(written).toHaveLength(2);
    await backups.stop();
  });

  test("keeps the newest N of its own and never deletes a file it did not make", async () => {
    const folder = temporaryDir("skrining-auto-");
    const own = [5, 4, 3, 2, 1].map((daysAgo) => autoName(start - daysAgo * day));
    for (const name of own) writeFileSync(join(folder, name), "arsip lama");
    const foreign = ["cadangan-manual.tar.gz", `${autoName(start - 9 * day)}.keep`, `salinan-${autoName(start - 8 * day)}`, "skrining-auto-latest.tar.gz", "catatan.txt"];
    for (const name of foreign) writeFileSync(join(folder, name), "milik admin");
    // A folder and a link whose names look like its own are not files it made either.
    mkdirSync(join(folder, autoName(start - 10 * day)));
    symlinkSync(join(folder, "catatan.txt"), join(folder, autoName(start - 11 * day)));

    const { clock, log, backups } = setUp({ folder, keep: 3, ownedBefore: own });
    backups.start();
    await clock.advance(0);
    expect(readdirSync(folder).sort()).toEqual(
      [autoName(start), own[3]!, own[4]!, ...foreign, autoName(start - 10 * day), autoName(start - 11 * day)].sort(),
    );
    expect(log.info.at(-1)).toBe(`Cadangan otomatis tersimpan: ${join(folder, autoName(start))} (3 cadangan otomatis lama dihapus).`);
    await backups.stop();
  });

  test("an archive whose manifest names another data folder is neither counted nor deleted (decisions §17)", async () => {
    const folder = temporaryDir("skrining-auto-");
    const own = [5, 3, 1].map((daysAgo) => autoName(start - daysAgo * day));
    const others = [6, 4, 2].map((daysAgo) => autoName(start - daysAgo * day - hour));
    for (const name of [...own, ...others]) writeFileSync(join(folder, name), "arsip");
    const { clock, log, backups } = setUp({ folder, keep: 2, ownedBefore: own });
    backups.start();
    await clock.advance(0);
    // Its own: the new one and the newest before it stay; the two older ones go. Every other folder's stays.
    expect(readdirSync(folder).sort()).toEqual([autoName(start), own[2]!, ...others].sort());
    expect(log.info.at(-1)).toBe(`Cadangan otomatis tersimpan: ${join(folder, autoName(start))} (2 cadangan otomatis lama dihapus).`);
    await backups.stop();
  });

  test("encrypted: named ….tar.gz.enc; the newest one decides when the next is due, and plain and encrypted ones are rotated together", async () => {
    const folder = temporaryDir("skrining-auto-");
    const plain = [3, 2].map((daysAgo) => autoName(start - daysAgo * day));
    const encrypted = `${autoName(start - 2 * hour)}.enc`;
    for (const name of [...plain, encrypted]) writeFileSync(join(folder, name), "arsip");
    const { clock, written, backups } = setUp({ folder, keep: 2, ownedBefore: [...plain, encrypted], encrypted: true });
    backups.start();
    await clock.advance(22 * hour - 1);
    expect(written).toEqual([]);
    await clock.advance(1);
    expect(written).toEqual([join(folder, `${autoName(start + 22 * hour)}.enc`)]);
    expect(readdirSync(folder).sort()).toEqual([encrypted, `${autoName(start + 22 * hour)}.enc`].sort());
    await backups.stop();
  });

  test("a failed backup is logged once, deletes nothing, and is tried again one period later", async () => {
    const folder = temporaryDir("skrining-auto-");
    const own = [4, 3, 2, 1].map((daysAgo) => autoName(start - daysAgo * day - hour));
    for (const name of own) writeFileSync(join(folder, name), "arsip lama");
    const { clock, log, written, state, backups } = setUp({ folder, keep: 2, ownedBefore: own });
    state.failing = true;
    backups.start();
    await clock.advance(0);
    expect(log.error).toEqual([
      `Cadangan otomatis ${join(folder, autoName(start))} gagal: Disk penuh. Dicoba lagi ${new Date(start + day).toISOString()}; cadangan lama tidak dihapus.`,
    ]);
    expect(readdirSync(folder).sort()).toEqual(own.sort());

    state.failing = false;
    await clock.advance(day - 1);
    expect(log.error).toHaveLength(1);
    expect(written).toEqual([]);
    await clock.advance(1);
    expect(written).toEqual([join(folder, autoName(start + day))]);
    expect(readdirSync(folder).sort()).toEqual([own[3]!, autoName(start + day)].sort());
    await backups.stop();
  });

  test("what a backup stopped half way left behind is removed before the next one; other hidden files stay", async () => {
    const folder = temporaryDir("skrining-auto-");
    const leftovers = [`.${autoName(start - day)}.4242.archive.tmp`, `.${autoName(start - day)}.4242.database.tmp`, `..${autoName(start - day)}.4242.database.tmp.tmp`];
    for (const name of leftovers) writeFileSync(join(folder, name), "setengah");
    writeFileSync(join(folder, ".cadangan-lain.tmp"), "milik admin");
    const { clock, backups } = setUp({ folder });
    backups.start();
    await clock.advance(0);
    expect(readdirSync(folder).sort()).toEqual([".cadangan-lain.tmp", autoName(start)].sort());
    await backups.stop();
  });

  test("stop cancels the next backup and aborts one in progress, which saves nothing", async () => {
    const folder = temporaryDir("skrining-auto-");
    const clock = new FakeClock(start);
    const log = recorder();
    let aborted = false;
    const backups = new AutomaticBackups({
      folder,
      everyMilliseconds: hour,
      keep: 2,
      logger: log.logger,
      clock,
      ownership: ownershipOf(),
      write: (_target, stop) =>
        new Promise((_resolve, reject) => {
          stop.addEventListener("abort", () => {
            aborted = true;
            reject(new Error("dihentikan"));
          });
        }),
    });
    backups.start();
    await clock.advance(0);
    await backups.stop();
    expect(aborted).toBe(true);
    expect(log.error).toEqual([]);
    expect(log.info.at(-1)).toBe(`Cadangan otomatis ${join(folder, autoName(start))} dihentikan karena server berhenti; tidak ada file yang tersimpan.`);
    await clock.advance(10 * hour);
    expect(readdirSync(folder)).toEqual([]);
  });
});

// Issue 44, item 9: the first automatic backup was of an empty install, and the day the roster
// came had none. A backup follows a roster import and a migration; a manual one stays.
describe("backups after a roster import or a migration, and manual ones", () => {
  const named = (kind: "impor" | "migrasi" | "manual", time: number) =>
    kind === "manual" ? autoName(time).replace("skrining-auto-", "skrining-manual-") : autoName(time).replace(".tar.gz", `-${kind}.tar.gz`);

  test("an import while serving (a command in another process, or the console) is backed up within a check period, named for it", async () => {
    const folder = temporaryDir("skrining-auto-");
    const newest = autoName(start - hour);
    writeFileSync(join(folder, newest), "arsip");
    const { database, triggers } = triggersOf();
    const { clock, log, written, backups } = setUp({ folder, ownedBefore: [newest], triggers });
    backups.start();
    await clock.advance(10 * 60_000);
    expect(written).toEqual([]);
    database.newestImport = { id: 41, at: clock.time };
    await clock.advance(60_000);
    expect(written).toEqual([join(folder, named("impor", start + 11 * 60_000))]);
    expect(log.info.at(-1)).toBe(`Cadangan otomatis tersimpan: ${join(folder, named("impor", start + 11 * 60_000))} (sesudah impor daftar akun).`);
    // The same import once; the schedule goes on as it was.
    await clock.advance(5 * 60_000);
    expect(written).toHaveLength(1);
    expect(backups.status().nextDue).toBe(new Date(start - hour + day).toISOString());
    await backups.stop();
  });

  test("at the start, an import after the newest backup, or a database newer than it (a migration), is backed up at once", async () => {
    for (const [kind, newerDatabase] of [["impor", false], ["migrasi", true]] as const) {
      const folder = temporaryDir("skrining-auto-");
      const newest = autoName(start - 2 * hour);
      writeFileSync(join(folder, newest), "arsip");
      const { database, triggers } = triggersOf();
      if (!newerDatabase) database.newestImport = { id: 7, at: start - hour };
      const { clock, written, backups } = setUp({ folder, ownedBefore: [newest], triggers, migrationsOf: { [newest]: newerDatabase ? 14 : 16 } });
      await backups.start();
      await clock.advance(0);
      expect({ kind, written }).toEqual({ kind, written: [join(folder, named(kind, start))] });
      await backups.stop();
    }
  });

  test("at the start, nothing extra when the newest backup is after the import and of this schema, or when the schedule's is due anyway", async () => {
    const folder = temporaryDir("skrining-auto-");
    const newest = autoName(start - 2 * hour);
    writeFileSync(join(folder, newest), "arsip");
    const { database, triggers } = triggersOf();
    database.newestImport = { id: 7, at: start - 3 * hour };
    const quiet = setUp({ folder, ownedBefore: [newest], triggers, migrationsOf: { [newest]: 16 } });
    await quiet.backups.start();
    await quiet.clock.advance(0);
    expect(quiet.written).toEqual([]);
    await quiet.backups.stop();

    // No backup yet: the schedule's, at once, covers the import and the migration.
    database.newestImport = { id: 8, at: start - hour };
    const fresh = setUp({ triggers });
    fresh.backups.start();
    await fresh.clock.advance(0);
    expect(fresh.written).toEqual([join(fresh.folder, autoName(start))]);
    await fresh.backups.stop();
  });

  test("rotation: the schedule's newest N stay; those after an import or a migration stay while a scheduled one of their time does; manual ones never go", async () => {
    const folder = temporaryDir("skrining-auto-");
    const scheduled = [3, 2, 1].map((daysAgo) => autoName(start - daysAgo * day));
    const events = [named("impor", start - 2.5 * day), named("migrasi", start - 1.5 * day), named("impor", start - 0.5 * day)];
    const manual = named("manual", start - 30 * day);
    for (const name of [...scheduled, ...events, manual]) writeFileSync(join(folder, name), "arsip");
    const { clock, log, backups } = setUp({ folder, keep: 2, ownedBefore: [...scheduled, ...events, manual] });
    backups.start();
    await clock.advance(0);
    // Kept: the new one and the day before; the event backups of that window; the manual one.
    expect(readdirSync(folder).sort()).toEqual([autoName(start), scheduled[2]!, events[2]!, manual].sort());
    expect(log.info.at(-1)).toBe(`Cadangan otomatis tersimpan: ${join(folder, autoName(start))} (4 cadangan otomatis lama dihapus).`);
    await backups.stop();
  });

  test("a manual backup: named as such, with who took it; the schedule is not moved and nothing is rotated", async () => {
    const folder = temporaryDir("skrining-auto-");
    const own = [50, 26, 2].map((hoursAgo) => autoName(start - hoursAgo * hour));
    for (const name of own) writeFileSync(join(folder, name), "arsip");
    const taken: [string, string | undefined][] = [];
    const { clock, log, backups } = setUp({ folder, keep: 1, ownedBefore: own });
    const ownership = (backups as unknown as { options: { ownership: { written: (name: string, facts?: { takenBy?: string }) => void } } }).options.ownership;
    const recorded = ownership.written;
    ownership.written = (name, facts) => {
      taken.push([name, facts?.takenBy]);
      recorded(name, facts);
    };
    backups.start();
    const due = backups.status().nextDue;
    await clock.advance(hour);
    const outcome = await backups.backUpNow("admin");
    expect(outcome).toMatchObject({ ok: true, kind: "manual", removed: 0, target: join(folder, named("manual", start + hour)) });
    expect(taken).toEqual([[named("manual", start + hour), "admin"]]);
    expect(log.info.at(-1)).toBe(`Cadangan manual tersimpan: ${join(folder, named("manual", start + hour))} (diminta admin).`);
    expect(backups.status().nextDue).toBe(due);
    expect(readdirSync(folder).sort()).toEqual([...own, named("manual", start + hour)].sort());
    await backups.stop();
  });
});
