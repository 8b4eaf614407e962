// `npm run build` (after scripts/build-web.ts): compiles cli/main.ts into dist/skrining.
// Every build of the executable, the Windows one too (scripts/build-windows.ts), goes
// through compileCommand, so that all of them carry the same guards and build facts.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/**
 * What the Linux executable is built with beyond the guards: bytecode compiled ahead, the
 * program split into chunks so that `serve` can start itself again (cli/engine-options.ts)
 * before the program is loaded (4 ms instead of 12), and JavaScriptCore's tier-up thresholds
 * four times higher until serve answers (src/server.ts sets them back): the start-up code runs
 * once and rarely pays back compiling it. Issue 46 measured a first start at 94 ms without the
 * policy, 82 ms with it.
 */
const linuxExtras = ["--bytecode", "--splitting", "--compile-jit-policy=4", "--format=esm", "--sourcemap"];

/**
 * Records which functions a first start of serve runs, for `--bytecode-order`: the executable
 * is started on an empty folder, answers a request for the web interface once its start-up
 * lines (with its address) are out, and stops on SIGTERM; Bun writes the functions it loaded
 * (hashes of their syntax, no source) on that exit. A build that cannot record goes on
 * without the order, which only lays the bytecode out.
 */
async function recordServeOrder(executable: string, folder: string): Promise<string | undefined> {
  const order = join(folder, "serve.order");
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const address = `http://127.0.0.1:${probe.port}/`;
  probe.stop(true);
  const child = Bun.spawn([executable, "--data", join(folder, "data"), "serve", "--host", "127.0.0.1", "--port", String(probe.port)], {
    env: { ...process.env, BUN_BYTECODE_ORDER_OUT: order, SKRINING_LOG: "off" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "ignore",
  });
  const deadline = setTimeout(() => child.kill("SIGKILL"), 15_000);
  try {
    // The address is printed after the signal handlers are set, in the same turn. The output
    // is read to its end: serve stops when its reader goes away.
    const { promise: addressPrinted, resolve } = Promise.withResolvers<boolean>();
    void (async () => {
      let printed = "";
      for await (const chunk of child.stdout) {
        printed += new TextDecoder().decode(chunk);
        if (printed.includes(address)) resolve(true);
      }
      resolve(false);
    })();
    if (await addressPrinted) await fetch(address).then((response) => response.arrayBuffer(), () => undefined);
  } finally {
    clearTimeout(deadline);
    child.kill("SIGTERM");
    await child.exited;
  }
  return existsSync(order) ? order : undefined;
}

if (import.meta.main) {
  const outfile = "dist/skrining";
  const facts = buildFacts();
  const compile = (extra: string[]) => {
    const command = compileCommand({ entries: executableEntries, outfile, target: "bun-linux-x64-baseline", extra, facts });
    const result = Bun.spawnSync(command, { cwd: root, stdout: "inherit", stderr: "inherit" });
    if (result.exitCode !== 0) process.exit(result.exitCode ?? 1);
  };
  mkdirSync(join(root, "dist"), { recursive: true });
  // The chunks' source maps are named by content: the last build's would stay beside the new ones.
  for (const name of readdirSync(join(root, "dist"))) if (name.endsWith(".js.map") || name === "skrining.map") rmSync(join(root, "dist", name));
  compile(linuxExtras);
  const folder = mkdtempSync(join(tmpdir(), "skrining-order-"));
  try {
    const order = await recordServeOrder(join(root, outfile), folder);
    if (order) compile([...linuxExtras, `--bytecode-order=${order}`]);
    else console.warn("Urutan bytecode tidak terekam; executable dibangun tanpanya.");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
