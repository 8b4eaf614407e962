import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Runs the real dist/skrining.exe under Wine, in a Wine prefix of the test's own (a fresh
// Windows with its own C: drive, in a temporary folder): every wait bounded, every
// process it started ended, the prefix removed, and each failure said with what the
// program printed.

/** Generous for a 120 MB executable under Wine on a busy 2-core machine, but bounded. */
export const limits = { prefixSeconds: 180, commandSeconds: 120, startSeconds: 90 } as const;

const standIn = join(import.meta.dir, "process-prng.c");

export interface Finished {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface Running {
  child: ReturnType<typeof Bun.spawn>;
  /** What it printed so far. */
  stdout: () => string;
  stderr: () => string;
  description: string;
}

function collect(stream: ReadableStream<Uint8Array>): () => string {
  let text = "";
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  })();
  return () => text;
}

/** The last lines of a program's output, for a failure message. */
export function tail(text: string, lines = 25): string {
  const kept = text.trimEnd().split("\n").slice(-lines).join("\n");
  return kept ? kept.replace(/^/gm, "    | ") : "    (nothing)";
}

/** Resolves with the exit code, or with null once `seconds` have passed. */
async function exitWithin(child: ReturnType<typeof Bun.spawn>, seconds: number): Promise<number | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), seconds * 1000)));
  try {
    return await Promise.race([child.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export class WinePrefix {
  /** The temporary folder: the prefix and anything else the test writes. */
  readonly root = mkdtempSync(join(tmpdir(), "skrining-windows-"));
  readonly prefix = join(this.root, "prefix");
  private readonly running: Running[] = [];
  readonly environment: Record<string, string | undefined>;
  /** Whether the runtime needed the stand-in bcryptprimitives.dll (Wine before 9). */
  standInBuilt = false;

  constructor() {
    // Only this prefix; no window (no DISPLAY); no Mono or Gecko to install; no SKRINING_* of the developer's.
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("SKRINING_") && !name.startsWith("WINE") && name !== "DISPLAY"));
    this.environment = { ...inherited, WINEPREFIX: this.prefix, WINEARCH: "win64", WINEDEBUG: "-all", WINEDLLOVERRIDES: "mscoree,mshtml,winemenubuilder.exe=" };
  }

  /** The Linux path of a path on the prefix's C: drive. */
  linuxPath(windowsPath: string): string {
    const match = /^[Cc]:\\(.*)$/.exec(windowsPath);
    if (!match) throw new Error(`not a path on C: ${windowsPath}`);
    return join(this.prefix, "drive_c", ...match[1]!.split("\\").filter(Boolean));
  }

  /** Starts a Windows program (`wine program ...args`) in `windowsFolder` and keeps its output. */
  start(program: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Running {
    const child = Bun.spawn(["wine", program, ...args], {
      cwd: this.linuxPath(options.cwd),
      env: { ...this.environment, ...options.env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const running: Running = {
      child,
      stdout: collect(child.stdout as ReadableStream<Uint8Array>),
      stderr: collect(child.stderr as ReadableStream<Uint8Array>),
      description: [program, ...args].map((part) => (part.includes(" ") ? `"${part}"` : part)).join(" "),
    };
    this.running.push(running);
    return running;
  }

  /** Runs a Windows program to its end; a program still running after `seconds` is killed and reported. */
  async run(program: string, args: string[], options: { cwd: string; env?: Record<string, string>; seconds?: number }): Promise<Finished> {
    const running = this.start(program, args, options);
    const seconds = options.seconds ?? limits.commandSeconds;
    const exitCode = await exitWithin(running.child, seconds);
    if (exitCode === null) {
      running.child.kill("SIGKILL");
      throw new Error(`${running.description} did not end within ${seconds} s; it printed:\n${tail(running.stdout() + running.stderr())}`);
    }
    // The streams may still hold their last bytes for a moment after the exit.
    await Bun.sleep(50);
    return { exitCode, stdout: running.stdout(), stderr: running.stderr() };
  }

  /** Sends Ctrl+C (Wine turns SIGINT into the console's Ctrl+C event, as WinSW sends on stop) and waits for the exit code. */
  async interrupt(running: Running, seconds: number): Promise<number> {
    running.child.kill("SIGINT");
    const exitCode = await exitWithin(running.child, seconds);
    if (exitCode === null) {
      running.child.kill("SIGKILL");
      throw new Error(`${running.description} did not stop within ${seconds} s of Ctrl+C; it printed:\n${tail(running.stdout() + running.stderr())}`);
    }
    return exitCode;
  }

  /** Creates the prefix (Wine's first start writes a whole Windows folder tree). */
  async create(): Promise<void> {
    const wine = Bun.which("wine");
    if (!wine) throw new Error("Wine is not installed: apt-get install -y --no-install-recommends wine wine64 (.ci/run installs it when it is missing)");
    // A wineserver that stays until dispose() ends it: by default it exits a few seconds
    // after the last program, and a program started just then was refused ("wine client
    // error:0: recvmsg: Connection reset by peer", exit code 1) before it ran at all.
    mkdirSync(this.prefix, { recursive: true });
    const server = Bun.spawnSync(["wineserver", "-p"], { cwd: this.root, env: this.environment, stdin: "ignore", stdout: "ignore", stderr: "pipe", timeout: 30_000 });
    if (server.exitCode !== 0) throw new Error(`wineserver -p could not start for the prefix ${this.prefix} (exit ${server.exitCode}):\n${tail(server.stderr.toString())}`);
    const child = Bun.spawn(["wineboot", "--init"], { cwd: this.root, env: this.environment, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const output = collect(child.stderr as ReadableStream<Uint8Array>);
    const exitCode = await exitWithin(child, limits.prefixSeconds);
    if (exitCode === null) child.kill("SIGKILL");
    if (exitCode !== 0 || !existsSync(join(this.prefix, "drive_c", "windows", "system32"))) {
      throw new Error(`wineboot --init could not create the Wine prefix ${this.prefix} (exit ${exitCode ?? `none within ${limits.prefixSeconds} s`}):\n${tail(output())}`);
    }
  }

  /** Puts the executable at `windowsPath`, as an admin copies it to the PC. */
  install(executable: string, windowsPath: string): void {
    const target = this.linuxPath(windowsPath);
    mkdirSync(join(target, ".."), { recursive: true });
    copyFileSync(executable, target);
  }

  /**
   * Checks that `program --version` runs and prints `version` (with its build). Where Wine lacks the
   * bcryptprimitives.dll that Bun's runtime imports (Wine 8: the loader refuses the
   * program with exit code 53 and names the DLL), builds the test's stand-in into this
   * prefix's system32 (where Windows has its own) and checks again.
   */
  async checkStarts(program: string, version: string, cwd: string): Promise<void> {
    const probe = () => this.run(program, ["--version"], { cwd, env: { WINEDEBUG: "err+module" } });
    let first = await probe();
    if (first.exitCode !== 0 && /bcryptprimitives\.dll/i.test(first.stderr)) {
      this.buildStandIn();
      first = await probe();
    }
    // `skrining 0.1.0 (commit …, dibangun …)` since the version line names the build.
    if (first.exitCode !== 0 || !first.stdout.trim().startsWith(`skrining ${version} (`)) {
      throw new Error(`${program} --version should print ${version} and end with 0; it ended with ${first.exitCode}${this.standInBuilt ? " (with the stand-in bcryptprimitives.dll)" : ""}:\n${tail(first.stdout + first.stderr)}`);
    }
  }

  private buildStandIn(): void {
    const compiler = Bun.which("x86_64-w64-mingw32-gcc");
    if (!compiler) {
      throw new Error("This Wine lacks bcryptprimitives.dll (ProcessPrng), and the stand-in needs x86_64-w64-mingw32-gcc: apt-get install -y --no-install-recommends gcc-mingw-w64-x86-64 (.ci/run installs it when it is missing)");
    }
    const output = join(this.prefix, "drive_c", "windows", "system32", "bcryptprimitives.dll");
    const built = Bun.spawnSync([compiler, "-shared", "-O2", "-s", "-Wall", "-Werror", "-o", output, standIn, "-ladvapi32"], { stdout: "pipe", stderr: "pipe" });
    if (built.exitCode !== 0) throw new Error(`building the stand-in ${standIn} failed:\n${tail(built.stdout.toString() + built.stderr.toString())}`);
    this.standInBuilt = true;
  }

  /** Ends what is still running (by its own handle), then the prefix's wineserver, and removes the temporary folder. */
  dispose(): void {
    for (const running of this.running.splice(0)) if (running.child.exitCode === null) running.child.kill("SIGKILL");
    if (existsSync(this.prefix)) Bun.spawnSync(["wineserver", "-k"], { env: this.environment, stdout: "ignore", stderr: "ignore", timeout: 30_000 });
    rmSync(this.root, { recursive: true, force: true });
  }
}
