import { readFileSync, statSync } from "node:fs";
import { delimiter, dirname } from "node:path";
import { accountNameOf } from "./os-account";

// The commands skrining prints for a person to run next (the start-up lines' steps, a hint in
// a refusal) name the data folder by its absolute path, so that a command run from another
// folder works on the server's data instead of starting a second `data/` there (issue 44),
// and run as the account that owns the data folder, so that no file becomes root's.

/** Who prints a hint and for which folder: read from the process, given by tests. */
export interface CommandRunner {
  /** The program as a person types it: `skrining`, or the executable's path when it is not on PATH. */
  program: string;
  /** `sudo -u <account>` when the command must run as another account than the reader's; empty otherwise. */
  prefix: string;
  platform: NodeJS.Platform;
}

/** A path or word as a shell takes it: quoted when it holds anything but plain characters. */
function quoted(word: string, platform: NodeJS.Platform): string {
  if (/^[\w@%+=:,./\\-]+$/.test(word)) return word;
  return platform === "win32" ? `"${word}"` : `'${word.replaceAll("'", "'\\''")}'`;
}

/** The name of `uid` in the password file, or `#uid` (which sudo -u also takes) when it has none. */
export function accountName(uid: number): string {
  let entries = "";
  try {
    entries = readFileSync("/etc/passwd", "utf8");
  } catch {
    // A minimal system without the file: the number still works with sudo.
  }
  return accountNameOf(uid, entries) ?? `#${uid}`;
}

/**
 * Whether the hints need `sudo -u` (decisions: next steps): a process that systemd runs
 * (`INVOCATION_ID` is set for every unit) as an account of its own prints for an admin
 * reading the journal as another account, so it names its own account; any other process
 * names the data folder's owner when that is not the account running it (root running a
 * command on the service's folder). On Windows there is no such switch: the service's
 * folder is the Administrators' too.
 */
export function sudoPrefix(dataDir: string, environment: Record<string, string | undefined>): string {
  const uid = process.getuid?.();
  if (uid === undefined) return "";
  if (environment.INVOCATION_ID && uid !== 0) return `sudo -u ${accountName(uid)} `;
  const owner = statSync(dataDir, { throwIfNoEntry: false })?.uid;
  return owner !== undefined && owner !== uid ? `sudo -u ${accountName(owner)} ` : "";
}

/**
 * The program's own name in a printed command: `skrining` from source (as the docs write it)
 * and for an installed executable found on PATH; otherwise the executable's full path (a
 * `dist/skrining` run where it was built, `skrining.exe` under Program Files, which PowerShell
 * runs with `&`).
 */
function programWord(environment: Record<string, string | undefined>, platform: NodeJS.Platform): string {
  if (!Bun.isStandaloneExecutable) return "skrining";
  const folder = dirname(process.execPath);
  const onPath = (environment.PATH ?? environment.Path ?? "").split(delimiter).some((entry) => entry === folder);
  const named = /^skrining(\.exe)?$/i.test(process.execPath.slice(folder.length + 1));
  if (onPath && named) return "skrining";
  return platform === "win32" ? `& ${quoted(process.execPath, platform)}` : quoted(process.execPath, platform);
}

/** How this process prints commands for the data folder `dataDir`. */
export function commandRunner(dataDir: string, environment: Record<string, string | undefined> = process.env): CommandRunner {
  const platform = process.platform;
  return { program: programWord(environment, platform), prefix: sudoPrefix(dataDir, environment), platform };
}

/**
 * A command on the data folder `dataDir` as a person runs it from any folder:
 * `sudo -u skrining skrining --data /var/lib/skrining accounts import daftar.csv`.
 */
export function commandOn(dataDir: string, command: string, runner: CommandRunner = commandRunner(dataDir)): string {
  return `${runner.prefix}${runner.program} --data ${quoted(dataDir, runner.platform)} ${command}`;
}
