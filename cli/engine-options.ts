// What `serve` asks of the JavaScript engine before anything else runs (issue 46, docs/decisions.md
// "Memory"). JavaScriptCore grows its heap by a steeper rule on a machine with 16 GB of RAM or
// more: under the bench's mixed load that took the server from about 137 MiB to 200 MiB, most
// of it garbage waiting for a collection. The engine reads its options from the environment
// once, when the process starts, so serve starts itself again, in place (execve: the same
// process id, streams and signals), with the threshold set beyond any PC: the heap grows as on
// an 8 GB machine everywhere. This file imports nothing, so that the restart costs a runtime's
// start and no more. Windows has no execve; the service's WinSW file sets the variable there.

/** JavaScriptCore's option (BUN_JSC_ + its name): RAM in MB from which the steeper growth applies. */
export const heapGrowthVariable = "BUN_JSC_heapGrowthFunctionThresholdInMB";
/** 4 TB: no faculty PC reaches it. */
export const heapGrowthThresholdMB = "4194304";

export interface Restart {
  file: string;
  args: string[];
  env: Record<string, string | undefined>;
}

/**
 * The `execve` that starts serve again with the engine's option, or undefined when there is
 * nothing to do: another command, the option already set (by the restart, a service file or
 * the administrator, whose value stands), or a platform without execve.
 */
export function engineRestart(process: { argv: readonly string[]; execArgv: readonly string[]; execPath: string; env: Record<string, string | undefined>; platform: string; execve?: unknown }, compiled: boolean): Restart | undefined {
  const commandArgs = process.argv.slice(2);
  if (!commandArgs.includes("serve") || process.env[heapGrowthVariable] !== undefined) return undefined;
  if (process.platform === "win32" || typeof process.execve !== "function") return undefined;
  // A compiled program's argv[1] is its embedded entry point, which the kernel does not pass;
  // from source, argv[1] is the script bun runs.
  const args = compiled ? [process.execPath, ...commandArgs] : [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  return { file: process.execPath, args, env: { ...process.env, [heapGrowthVariable]: heapGrowthThresholdMB } };
}
