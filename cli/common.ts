import type { Command } from "commander";
import { loadConfig, type Config } from "../src/config";
import { openDatabase, type DatabaseClient } from "../src/db";
import { WriteQueue } from "../src/db/write-queue";
import type { Logger } from "../src/logger";

/**
 * Where a command reads and writes: the process's streams when run as `skrining`, captured
 * ones when a test runs the program in-process. Commands print only through it.
 */
export interface CommandIo {
  /** Text to standard output, as it is (add the line end). */
  out(text: string): void;
  /** Text to standard error, as it is. */
  err(text: string): void;
  readStdin(): Promise<string>;
  /** Whether standard error is a terminal (a progress bar is drawn only there). */
  errIsTerminal: boolean;
  environment: Record<string, string | undefined>;
}

export const processIo: CommandIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  readStdin: async () => await new Response(Bun.stdin.stream()).text(),
  errIsTerminal: process.stderr.isTTY === true,
  environment: process.env,
};

/** The service's log lines through a command's streams. */
export const ioLogger = (io: CommandIo): Logger => ({
  info: (line) => io.out(`${line}\n`),
  error: (line) => io.err(`${line}\n`),
});

/** The global `--data` option, read from the root program whatever the nesting. */
function dataDirOf(command: Command): string | undefined {
  let root = command;
  while (root.parent) root = root.parent;
  return root.opts<{ data?: string }>().data;
}

export function configOf(command: Command, io: CommandIo): Config {
  return loadConfig(dataDirOf(command), io.environment);
}

/**
 * Every command opens (and so migrates) the database the same way the server does, and
 * writes through a write queue as the server does; a command may wait longer for a lock.
 */
export function openData(command: Command, io: CommandIo): { config: Config; db: DatabaseClient; writes: WriteQueue } {
  const config = configOf(command, io);
  const db = openDatabase(config.databasePath);
  return { config, db, writes: new WriteQueue(db.$client, { busyWaitMilliseconds: 10_000 }) };
}

/** A plain table: a header, then one line per row, columns padded to their widest cell. */
export function printTable(io: CommandIo, header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows]) io.out(`${row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()}\n`);
}
