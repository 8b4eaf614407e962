import { join } from "node:path";
import packageJson from "../package.json";

// Set by `bun build --define` (scripts/build-executable.ts); absent when run from source.
declare const SKRINING_BUILD_COMMIT: string | undefined;
declare const SKRINING_BUILD_DATE: string | undefined;

/** Which program this is: what `--version`, the start-up banner and `GET /health` say. */
export interface BuildInfo {
  /** package.json's version, raised for each release (docs/operations.md, "Releasing a version"). */
  version: string;
  /** The git commit it was built from (`1a2b3c4d5e6f`, `-dirty` when the tree had changes), `unknown` outside git. */
  commit: string;
  /** When it was built (UTC, to the second); null when run from source. */
  builtAt: string | null;
}

let known: BuildInfo | undefined;

/** The build's own values, or from source: the working tree's commit, no build date. */
export function buildInfo(): BuildInfo {
  known ??= {
    version: packageJson.version,
    commit: typeof SKRINING_BUILD_COMMIT === "string" ? SKRINING_BUILD_COMMIT : sourceCommit(join(import.meta.dir, "..")),
    builtAt: typeof SKRINING_BUILD_DATE === "string" ? SKRINING_BUILD_DATE : null,
  };
  return known;
}

/** The commit of the git tree at `root`, marked `-dirty` when a tracked file has changed; `unknown` without git. */
export function sourceCommit(root: string): string {
  const git = (args: string[]) => {
    try {
      const result = Bun.spawnSync(["git", ...args], { cwd: root, stdout: "pipe", stderr: "ignore" });
      return result.exitCode === 0 ? result.stdout.toString().trim() : null;
    } catch {
      return null;
    }
  };
  const commit = git(["rev-parse", "--short=12", "HEAD"]);
  if (!commit) return "unknown";
  return git(["status", "--porcelain", "--untracked-files=no"]) ? `${commit}-dirty` : commit;
}

/** One line: `skrining 0.2.0 (commit 1a2b3c4d5e6f, dibangun 2026-11-25T08:15:30Z)`. */
export function describeBuild(info: BuildInfo = buildInfo()): string {
  return `skrining ${info.version} (commit ${info.commit}, ${info.builtAt ? `dibangun ${info.builtAt}` : "dari kode sumber"})`;
}
