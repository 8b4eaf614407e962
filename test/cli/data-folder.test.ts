import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { buildProgram } from "../../cli/program";
import { processIo } from "../../cli/common";
import { runCli, temporaryDir } from "../helpers";
import { inputFile, modelFile, needsExistingFolder } from "./commands";
import { serveInProcess, stop, stopStarted } from "../server-process";
import { cli, csvFile, outputLines } from "./support";

// Only the commands that begin an installation may start a data folder; every other one
// refuses a folder without a database, so a mistyped --data is noticed (issue 16, item 3).
// accounts import, accounts add and tls init start one only where --data or SKRINING_DATA
// names it, never the default ./data of the folder they were run from (issue 44, item 3).

afterEach(stopStarted);

/** The commands that may start a data folder anywhere (restore: test/cli/backup.test.ts). */
const mayCreate = ["serve", "restore"];
/** The commands that may start one only where --data or SKRINING_DATA names it (test-robust/cli/next-steps.test.ts runs them from another folder). */
export const mayCreateWhenNamed = ["accounts import", "accounts add", "tls init"];
/** Works on files it is given and never opens a data folder. */
const withoutDataFolder = ["model predict", "changelog"];
/** Work on the data folder's tls/ only, never its database: `tls status` refuses one without tls/ (test/tls/). */
const tlsCommands = ["tls status"];
/** Reads whatever it finds and says what is wrong, a missing folder included (test-robust/cli/doctor.test.ts); puts a copy back (test-robust/cli/rollback.test.ts). */
const diagnosis = ["doctor", "rollback"];

function leafCommands(command: Command, prefix: string[] = []): string[] {
  if (command.commands.length === 0) return [prefix.join(" ")];
  return command.commands.flatMap((sub) => leafCommands(sub, [...prefix, sub.name()]));
}

test("every command of the program is in exactly one of the lists here", () => {
  const listed = [...needsExistingFolder.map(([name]) => name), ...mayCreate, ...mayCreateWhenNamed, ...withoutDataFolder, ...tlsCommands, ...diagnosis];
  expect(listed.sort()).toEqual(leafCommands(buildProgram(processIo)).sort());
});

describe("a command that may not start a data folder", () => {
  test.each(needsExistingFolder)("%s refuses a folder that does not exist, names it, and creates nothing", async (_name, args, stdin) => {
    const dataDir = join(temporaryDir("skrining-typo-"), "dta");
    const result = await cli(dataDir, args(), { stdin });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(outputLines(result.stderr)).toEqual([
      `skrining: Folder data ${dataDir} tidak ada. Periksa --data (atau SKRINING_DATA); folder data baru hanya dibuat oleh 'skrining serve' dan 'skrining restore', ` +
        "atau oleh 'skrining accounts import', 'skrining accounts add' dan 'skrining tls init' bila --data (atau SKRINING_DATA) menyebutnya.",
    ]);
    expect(existsSync(dataDir)).toBe(false);
  });

  test.each(needsExistingFolder)("%s refuses an empty folder and leaves it empty", async (_name, args, stdin) => {
    const dataDir = temporaryDir("skrining-empty-");
    const result = await cli(dataDir, args(), { stdin });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Folder data ${dataDir} belum berisi basis data (skrining.db). Periksa --data`);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  test("the folder comes from SKRINING_DATA when --data is not given, and the message names it", async () => {
    const dataDir = join(temporaryDir("skrining-typo-"), "data");
    const result = await runCli(["accounts", "list"], { env: { SKRINING_DATA: dataDir } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Folder data ${dataDir} tidak ada`);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe("a command that may start a data folder says so in one line", () => {
  test("accounts add", async () => {
    const dataDir = join(temporaryDir("skrining-new-"), "data");
    const result = await cli(dataDir, ["accounts", "add", "--role", "admin", "--username", "admin2", "--password", "sandi-admin-2"]);
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stdout)).toEqual([`Folder data baru dibuat: ${dataDir}`, expect.stringContaining("Akun admin2 (admin) dibuat")]);
    const again = await cli(dataDir, ["accounts", "add", "--role", "admin", "--username", "admin3", "--password", "sandi-admin-3"]);
    expect(again.stdout).not.toContain("Folder data baru dibuat");
  });

  test("accounts import", async () => {
    const dataDir = join(temporaryDir("skrining-new-"), "data");
    const result = await cli(dataDir, ["accounts", "import", csvFile("role,username,password,activated\nadmin,admin2,sandi-admin-2,true\n")]);
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stdout)[0]).toBe(`Folder data baru dibuat: ${dataDir}`);
    expect(result.stdout.match(/Folder data baru dibuat/g)).toHaveLength(1);
  });

  test("serve", async () => {
    const dataDir = join(temporaryDir("skrining-new-"), "data");
    const server = await serveInProcess({ dataDir });
    await stop(server);
    expect(outputLines(server.stdout()).filter((line) => line.includes("Folder data baru dibuat"))).toEqual([`Folder data baru dibuat: ${dataDir}`]);
    expect(existsSync(join(dataDir, "skrining.db"))).toBe(true);
  }, 30_000);
});

test("model predict needs no data folder and creates none", async () => {
  const dataDir = join(temporaryDir("skrining-typo-"), "data");
  const result = await cli(dataDir, ["model", "predict", "--file", modelFile(), "--input", inputFile("rows.csv", "S1\n3\n")]);
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toBe("stress,motivasi\nTinggi,Rendah\n");
  expect(existsSync(dataDir)).toBe(false);
});
