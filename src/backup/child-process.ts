import { join } from "node:path";
import type { AutomaticBackupOptions } from "./automatic";
import { passphraseVariable } from "./encryption";

/**
 * The command line and environment of the child that writes one automatic backup: `skrining
 * --data <dataDir> backup <target>`, with `--encrypt` and the passphrase in the child's own
 * environment when there is one (never on its command line, which every user of the
 * machine may list); without one, the child gets none, whatever the server inherited.
 */
export function backupChildCommand(dataDir: string, environment: Record<string, string | undefined>, passphrase?: string) {
  // The compiled executable is the program itself; under Bun the entry point is cli/main.ts.
  const program = Bun.isStandaloneExecutable ? [process.execPath] : [process.execPath, join(import.meta.dir, "..", "..", "cli", "main.ts")];
  const { [passphraseVariable]: _inherited, ...inherited } = environment;
  return {
    args: (target: string) => [...program, "--data", dataDir, "backup", ...(passphrase === undefined ? [] : ["--encrypt"]), target],
    env: passphrase === undefined ? inherited : { ...inherited, [passphraseVariable]: passphrase },
  };
}

/**
 * Writes a backup in a child process (backupChildCommand): the server's own thread never
 * waits for the snapshot or the compression, the database is read as any other program
 * reads it (a snapshot, no lock held against the server's writes), and the archive is
 * exactly what the command writes and verifies.
 */
export function backupInChildProcess(dataDir: string, environment: Record<string, string | undefined>, passphrase?: string): AutomaticBackupOptions["write"] {
  const command = backupChildCommand(dataDir, environment, passphrase);
  return async (target, stop) => {
    const child = Bun.spawn(command.args(target), { env: command.env, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
    const kill = () => child.kill("SIGTERM");
    stop.addEventListener("abort", kill);
    try {
      const [exitCode, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
      if (exitCode !== 0) {
        const reason = stderr.trim().split("\n").at(-1)?.replace(/^skrining: /, "") || `kode keluar ${exitCode}`;
        throw new Error(reason);
      }
    } finally {
      stop.removeEventListener("abort", kill);
    }
  };
}
