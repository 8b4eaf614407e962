import { closeSync, existsSync, fchmodSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** Where the service writes its log lines; tests pass a quiet or capturing one. */
export interface Logger {
  info(line: string): void;
  error(line: string): void;
}

export const consoleLogger: Logger = {
  info: (line) => console.log(line),
  error: (line) => console.error(line),
};

export const silentLogger: Logger = { info: () => {}, error: () => {} };

export interface LogFileOptions {
  path: string;
  /** The time an entry begins with (the faculty's local time in serve, issue 44); UTC when absent. */
  stamp?: () => string;
  /** The size a file may reach; the line that would take it past is the first of a new file. */
  maxBytes: number;
  /** How many earlier files are kept beside it: `.1` the newest, up to `.keep` the oldest. */
  keep: number;
}

/** After a failure, how long lines go to the standard streams only before the file is tried again. */
export const logFileRetryMilliseconds = 60_000;

const startsWithTimestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

/**
 * The log lines, also in a file that is set aside by size (`--log-file`). The standard
 * streams always get every line; the file is a copy, and a file that cannot be written (a
 * full disk, a read-only folder, a missing permission) never stops or slows the service:
 * the failure is reported once on `report` (standard error), the file is tried again a
 * minute later, and its recovery is reported too, with how many lines it missed.
 */
export class LogFile {
  private descriptor: number | null = null;
  private size = 0;
  /** Set while the file is failing: when to try it again, and the lines it has missed. */
  private failure: { retryAt: number; missed: number } | null = null;

  constructor(
    private readonly options: LogFileOptions,
    private readonly report: (line: string) => void,
  ) {}

  private stamp(): string {
    return this.options.stamp?.() ?? new Date().toISOString();
  }

  /** One line (a multi-line stack trace is one entry), prefixed with the time unless it has one. */
  write(line: string, level: "info" | "error"): void {
    const stamped = startsWithTimestamp.test(line) ? line : `${this.stamp()} ${level === "error" ? "GALAT " : ""}${line}`;
    if (this.failure && Date.now() < this.failure.retryAt) {
      this.failure.missed++;
      return;
    }
    try {
      const missed = this.failure?.missed;
      if (missed !== undefined) {
        const note = `Log file ${this.options.path} dapat ditulis lagi; ${missed} baris sebelumnya hanya ada di stdout/stderr.`;
        this.append(`${this.stamp()} ${note}\n`);
        this.failure = null;
        this.report(note);
      }
      this.append(`${stamped}\n`);
    } catch (error) {
      this.fail(error);
    }
  }

  close(): void {
    if (this.descriptor === null) return;
    try {
      closeSync(this.descriptor);
    } catch {
      // Nothing is left to write; a failing close changes nothing for the service.
    }
    this.descriptor = null;
  }

  private append(text: string): void {
    const bytes = Buffer.from(text);
    if (this.descriptor === null) this.open();
    if (this.size > 0 && this.size + bytes.length > this.options.maxBytes) this.rotate();
    let written = 0;
    while (written < bytes.length) written += writeSync(this.descriptor!, bytes, written);
    this.size += bytes.length;
  }

  /** Opens (creating) the file for appending, its owner's alone, and learns its size. */
  private open(): void {
    mkdirSync(dirname(this.options.path), { recursive: true, mode: 0o700 });
    const descriptor = openSync(this.options.path, "a", 0o600);
    try {
      const stat = fstatSync(descriptor);
      // Renaming a device or a pipe (`--log-file /dev/stderr`) aside would be wrong.
      if (!stat.isFile()) throw new Error(`${this.options.path} bukan file biasa`);
      if ((stat.mode & 0o077) !== 0) fchmodSync(descriptor, 0o600);
      this.size = stat.size;
      this.descriptor = descriptor;
    } catch (error) {
      closeSync(descriptor);
      throw error;
    }
  }

  /**
   * Shifts `.1` → `.2` … (the rename onto `.keep` drops the oldest), the full file becomes
   * `.1`, and a new one is begun. Files numbered beyond `keep` (left by a larger `--log-keep`
   * earlier) are not touched.
   */
  private rotate(): void {
    this.close();
    const { path, keep } = this.options;
    for (let index = keep; index >= 1; index--) {
      const from = index === 1 ? path : `${path}.${index - 1}`;
      if (existsSync(from)) renameSync(from, `${path}.${index}`);
    }
    this.open();
  }

  private fail(error: unknown): void {
    this.close();
    if (this.failure) {
      this.failure = { retryAt: Date.now() + logFileRetryMilliseconds, missed: this.failure.missed + 1 };
      return;
    }
    this.failure = { retryAt: Date.now() + logFileRetryMilliseconds, missed: 1 };
    const reason = error instanceof Error ? error.message : String(error);
    this.report(`Log file ${this.options.path} tidak dapat ditulis (${reason}); log tetap ditulis ke stdout/stderr, file dicoba lagi tiap menit.`);
  }
}

/** Every line to `streams` as before, and a copy to `file`. */
export function withLogFile(streams: Logger, file: LogFile): Logger {
  return {
    info: (line) => {
      streams.info(line);
      file.write(line, "info");
    },
    error: (line) => {
      streams.error(line);
      file.write(line, "error");
    },
  };
}
