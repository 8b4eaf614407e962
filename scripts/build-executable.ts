// `npm run build` (after scripts/build-web.ts): compiles cli/main.ts into dist/skrining.
// Every build of the executable, the Windows one too (scripts/build-windows.ts), goes
// through compileCommand, so that all of them carry the same guards and build facts.
import { sourceCommit } from "../src/build-info";

const root = new URL("..", import.meta.url).pathname;

/** The build's facts: the commit (from git) and the time, `SOURCE_DATE_EPOCH` when set (a reproducible build). */
export function buildFacts(environment: Record<string, string | undefined> = process.env): { commit: string; builtAt: string } {
  const epoch = Number(environment.SOURCE_DATE_EPOCH);
  const moment = environment.SOURCE_DATE_EPOCH && Number.isInteger(epoch) ? new Date(epoch * 1000) : new Date();
  return { commit: sourceCommit(root), builtAt: moment.toISOString().replace(/\.\d{3}Z$/, "Z") };
}

/**
 * The `bun build --compile` command line. The executable reads no `.env` and no
 * `bunfig.toml` from the folder it is started in: a file dropped there could otherwise set
 * its environment or preload code into it (Bun's default for compiled programs). The
 * commit and the build time are put in as constants (src/build-info.ts).
 */
export function compileCommand(options: { entries: string[]; outfile: string; target: string; extra?: string[]; facts?: { commit: string; builtAt: string } }): string[] {
  const facts = options.facts ?? buildFacts();
  return [
    process.execPath, "build", ...options.entries, "--compile", ...(options.extra ?? []),
    `--target=${options.target}`, "--outfile", options.outfile,
    "--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig",
    "--define", `SKRINING_BUILD_COMMIT=${JSON.stringify(facts.commit)}`,
    "--define", `SKRINING_BUILD_DATE=${JSON.stringify(facts.builtAt)}`,
  ];
}

/**
 * What every executable is built from: the program, and the code of its worker threads as
 * entry points of their own (the bcryptjs fallback's, src/accounts/bcrypt.ts; the
 * database check's, src/db/integrity.ts), which they load by these paths.
 */
export const executableEntries = ["cli/main.ts", "src/accounts/bcrypt-worker.ts", "src/db/integrity-worker.ts"];

if (import.meta.main) {
  const command = compileCommand({
    entries: executableEntries,
    outfile: "dist/skrining",
    target: "bun-linux-x64-baseline",
    extra: ["--bytecode", "--format=esm", "--sourcemap"],
  });
  const result = Bun.spawnSync(command, { cwd: root, stdout: "inherit", stderr: "inherit" });
  process.exit(result.exitCode ?? 1);
}
