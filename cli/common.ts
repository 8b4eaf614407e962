import type { Command } from "commander";
import { loadConfig, type Config } from "../src/config";
import { openDatabase, type DatabaseClient } from "../src/db";
import { WriteQueue } from "../src/db/write-queue";

/** A failure reported as one line on stderr with a non-zero exit. */
export class CliError extends Error {}

/** The global `--data` option, read from the root program whatever the nesting. */
export function dataDirOf(command: Command): string | undefined {
  let root = command;
  while (root.parent) root = root.parent;
  return root.opts<{ data?: string }>().data;
}

/**
 * Every command opens (and so migrates) the database the same way the server does, and
 * writes through a write queue as the server does; a command may wait longer for a lock.
 */
export function openData(command: Command): { config: Config; db: DatabaseClient; writes: WriteQueue } {
  const config = loadConfig(dataDirOf(command));
  const db = openDatabase(config.databasePath);
  return { config, db, writes: new WriteQueue(db.$client, { busyWaitMilliseconds: 10_000 }) };
}

export async function readStdin(): Promise<string> {
  return await new Response(Bun.stdin.stream()).text();
}
