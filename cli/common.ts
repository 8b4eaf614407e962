import type { Database, Statement } from "bun:sqlite";
import type { Command } from "commander";
import { dataDirNamed, loadConfig, resolveDataDir, type Config, type DataFolderUse } from "../src/config";
import { defaultTimeZone, readTimeZone } from "../src/local-time";
import { openDatabase, type DatabaseClient, type MigrationRecord, type SchemaUse } from "../src/db";
import { WriteQueue } from "../src/db/write-queue";
import type { Logger } from "../src/logger";
import { aloneInConsoleWindow, waitForEnter } from "./console-window";
import { readSecretFromTerminal } from "./terminal";

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
  /** Whether standard input is a terminal (a password is then asked for, twice, without echo). */
  inIsTerminal: boolean;
  /** Shows `prompt` and reads one line from the terminal without echoing it. */
  readSecret(prompt: string): Promise<string>;
  /** Whether standard error is a terminal (a progress bar is drawn only there). */
  errIsTerminal: boolean;
  /**
   * Whether standard output is a terminal: only there does `serve` show the first admin's
   * generated password (a pipe, a file or the journal may be a log; decisions §21).
   */
  outIsTerminal: boolean;
  /** The width of the terminal standard output is, when it is one; tables fit it (100 columns otherwise). */
  outColumns?: number;
  environment: Record<string, string | undefined>;
  /**
   * Registers how a command that runs on (`serve`) stops when the reader of standard
   * output goes away (`serve | head`); every other command simply ends (cli/pipes.ts).
   */
  onOutputClosed?(stop: () => void): void;
  /**
   * Resolves once what was written to standard output has been handed to the system: true,
   * or false when its reader had gone. Without it (captured streams) everything counts as written.
   */
  outputWritten?(): Promise<boolean>;
  /**
   * Whether the program's window closes as soon as it ends (Windows: double-clicked in
   * Explorer), and how to wait for the reader's Enter then; absent where there is no such window.
   */
  consoleWindow?: { closesOnExit(): Promise<boolean>; waitForEnter(): Promise<void> };
}

export const processIo: CommandIo = {
  consoleWindow: { closesOnExit: () => aloneInConsoleWindow(), waitForEnter },
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  readStdin: async () => await new Response(Bun.stdin.stream()).text(),
  inIsTerminal: process.stdin.isTTY === true,
  readSecret: readSecretFromTerminal,
  errIsTerminal: process.stderr.isTTY === true,
  outIsTerminal: process.stdout.isTTY === true,
  outColumns: process.stdout.isTTY ? process.stdout.columns : undefined,
  environment: process.env,
};

/** The service's log lines through a command's streams. */
export const ioLogger = (io: CommandIo): Logger => ({
  info: (line) => io.out(`${line}\n`),
  error: (line) => io.err(`${line}\n`),
});

/** The global options (`--data`, `--tz`), read from the root program whatever the nesting. */
function globalOptionsOf(command: Command): { data?: string; tz?: string } {
  let root = command;
  while (root.parent) root = root.parent;
  return root.opts<{ data?: string; tz?: string }>();
}

/**
 * Whether a command may start a new data folder (decisions: Which commands start a data
 * folder): `serve` and `restore` may (`"may-create"`); `accounts import`, `accounts add`
 * and `tls init` only where `--data` or SKRINING_DATA names the folder
 * (`"may-create-if-named"`): each says so in one line. Every other command refuses a folder
 * without a database (see DataFolderUse).
 */
export type DataFolderAccess = "may-create" | "may-create-if-named" | "existing";

/** The line a command prints when it started a new data folder. */
export const newDataFolderLine = (dataDir: string) => `Folder data baru dibuat: ${dataDir}\n`;

/** The data folder the command line names (`--data`, SKRINING_DATA or ./data), as an absolute path. */
export function dataDirOf(command: Command, io: CommandIo): string {
  return resolveDataDir(globalOptionsOf(command).data, io.environment);
}

/** The faculty's time zone the command line names (`--tz`, SKRINING_TZ or Asia/Jakarta), checked. */
export function timeZoneOf(command: Command, io: CommandIo): string {
  return readTimeZone(globalOptionsOf(command).tz || io.environment.SKRINING_TZ || defaultTimeZone);
}

/** Whether `--data` or SKRINING_DATA named the data folder (rather than the default `./data`). */
export function dataDirNamedBy(command: Command, io: CommandIo): boolean {
  return dataDirNamed(globalOptionsOf(command).data, io.environment);
}

/** `settings`: a command's options that stand for an environment variable, and win over it. */
export function configOf(command: Command, io: CommandIo, access: DataFolderAccess = "existing", settings: Record<string, string | undefined> = {}): Config {
  const { data, tz } = globalOptionsOf(command);
  const created = (dataDir: string) => io.out(newDataFolderLine(dataDir));
  const use: DataFolderUse =
    access === "existing" ? { create: false } : { create: true, created, ...(access === "may-create-if-named" ? { onlyWhenNamed: { named: dataDirNamed(data, io.environment) } } : {}) };
  // An option wins over its variable, as --data wins over SKRINING_DATA.
  const options = Object.fromEntries(Object.entries({ ...settings, SKRINING_TZ: tz }).filter(([, value]) => value !== undefined));
  return loadConfig(data, { ...io.environment, ...options }, use);
}

/**
 * Every command opens the database with the server's settings and writes through a write
 * queue as the server does; a command may wait longer for a lock. A command changes no
 * schema (`current`, SchemaUse): an older database is refused with what to run, except by
 * the commands that migrate (`migrate`, `restore`) or read any level as it is (`backup`,
 * `check`). The line about a copy taken before a migration goes to stderr, so it never
 * mixes into a command's output (`--json`, a CSV on stdout).
 */
export function openData(
  command: Command,
  io: CommandIo,
  access: DataFolderAccess = "existing",
  use: SchemaUse = "current",
  migration: MigrationRecord = {},
): { config: Config; db: DatabaseClient; writes: WriteQueue } {
  const config = configOf(command, io, access);
  const db = openDatabase(config.databasePath, undefined, stderrLogger(io), use, migration);
  let root = command;
  while (root.parent) root = root.parent;
  opened.set(root, [...(opened.get(root) ?? []), closable(db.$client)]);
  return { config, db, writes: new WriteQueue(db.$client, { busyWaitMilliseconds: 10_000 }) };
}

/** What each run of the program (by its root command) opened, closed when the run ends. */
const opened = new WeakMap<Command, (() => void)[]>();

/**
 * How to close a command's database for good. A connection closed while a statement of
 * drizzle's (`prepare`, not the connection's cached `query`) is alive stays open until
 * the garbage collector finalizes it: the statements prepared are kept, and finalized first.
 */
function closable(sqlite: Database): () => void {
  const statements: Statement[] = [];
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((...args: Parameters<typeof prepare>) => {
    const statement = prepare(...args);
    statements.push(statement);
    return statement;
  }) as typeof sqlite.prepare;
  return () => {
    for (const statement of statements) statement.finalize();
    sqlite.close();
  };
}

/**
 * Closes what a run's command opened (program.ts `run`), however it ended: the program run
 * in-process (the tests) holds no database after, as a process that has exited.
 */
export function closeOpened(program: Command): void {
  for (const close of opened.get(program) ?? []) close();
  opened.delete(program);
}

/** A command's log lines, all on stderr. */
export const stderrLogger = (io: CommandIo): Logger => ({ info: (line) => io.err(`${line}\n`), error: (line) => io.err(`${line}\n`) });

/** A plain table: a header, then one line per row, columns padded to their widest cell. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  return [header, ...rows].map((row) => `${row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()}\n`).join("");
}

export function printTable(io: CommandIo, header: readonly string[], rows: readonly (readonly string[])[]): void {
  io.out(formatTable(header, rows));
}
