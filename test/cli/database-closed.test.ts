import { expect, test } from "bun:test";
import { readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { temporaryDir } from "../helpers";
import { cli } from "./support";

// A run of the program closes the database its command opened, however the command ended
// (cli/common.ts closeOpened): the statements drizzle prepared are finalized first, or the
// connection would stay open until they are collected. So a run in this process (the tests)
// leaves the folder as a process that has exited does: no file held, no WAL file left.

/** The files of `dataDir` this process holds open (Linux: /proc/self/fd). */
function heldFiles(dataDir: string): string[] {
  return readdirSync("/proc/self/fd").flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dataDir) ? [target] : [];
    } catch {
      return [];
    }
  });
}

const runs: [string, string[], number][] = [
  ["a command that wrote", ["accounts", "add", "--role", "admin", "--username", "kedua", "--password", "sandi-kedua-1"], 0],
  ["a command that only read", ["accounts", "list"], 0],
  ["a command refused after opening the database", ["accounts", "add", "--role", "admin", "--username", "pertama", "--password", "sandi-pertama-1"], 1],
  ["a backup", ["backup", "__archive__"], 0],
];

test.each(runs)("%s: nothing of the folder is held after, and no WAL file is left", async (_case, args, exitCode) => {
  const dataDir = join(temporaryDir("skrining-closed-"), "data");
  expect((await cli(dataDir, ["accounts", "add", "--role", "admin", "--username", "pertama", "--password", "sandi-pertama-1"])).exitCode).toBe(0);
  const archive = join(temporaryDir("skrining-closed-backup-"), "cadangan.tar.gz");
  const result = await cli(dataDir, args.map((arg) => (arg === "__archive__" ? archive : arg)));
  expect(result.exitCode).toBe(exitCode);
  expect(heldFiles(dataDir)).toEqual([]);
  expect(readdirSync(dataDir).filter((name) => name.startsWith("skrining.db"))).toEqual(["skrining.db"]);
});
