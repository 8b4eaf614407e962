import type { Command } from "commander";
import { loadConfig, type Config } from "../src/config";
import { openDatabase, type DatabaseClient } from "../src/db";

/** A failure reported as one line on stderr with a non-zero exit. */
export class CliError extends Error {}

/** The global `--data` option, read from the root program whatever the nesting. */
export function dataDirOf(command: Command): string | undefined {
  let root = command;
  while (root.parent) root = root.parent;
  return root.opts<{ data?: string }>().data;
}

/** Every command opens (and so migrates) the database the same way the server does. */
export function openData(command: Command): { config: Config; db: DatabaseClient } {
  const config = loadConfig(dataDirOf(command));
  return { config, db: openDatabase(config.databasePath) };
}

export async function readStdin(): Promise<string> {
  return await new Response(Bun.stdin.stream()).text();
}
