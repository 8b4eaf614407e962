import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import packageJson from "../../package.json";
import { buildFacts, compileCommand } from "../../scripts/build-executable";
import { repositoryRoot, temporaryDir } from "../../test/helpers";

// The executable's build (scripts/build-executable.ts, used by `npm run build` and the
// Windows build): the commit and the build date are put in at build time, and a compiled
// program reads no `.env` and no `bunfig.toml` from the folder it runs in. A small probe
// that imports src/build-info.ts is compiled exactly as the executable is, and run where a
// hostile `.env` and `bunfig.toml` (with a preload) wait.

const folder = temporaryDir("skrining-build-");
const probeSource = join(folder, "probe.ts");
const facts = { commit: "0123456789ab", builtAt: "2026-11-25T08:15:30Z" };

/** A working folder with a `.env` and a `bunfig.toml` whose preload leaves a mark. */
function hostileFolder(): string {
  const hostile = temporaryDir("skrining-hostile-");
  writeFileSync(join(hostile, ".env"), "SKRINING_DATA=/tmp/disisipkan\nSKRINING_PROBE=dari-env\n");
  writeFileSync(join(hostile, "evil.ts"), 'require("node:fs").writeFileSync("dijalankan", "preload"); console.log("PRELOAD");\n');
  writeFileSync(join(hostile, "bunfig.toml"), 'preload = ["./evil.ts"]\n');
  return hostile;
}

function compile(command: string[]): void {
  const result = Bun.spawnSync(command, { cwd: repositoryRoot, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`build failed: ${result.stderr.toString()}`);
}

const runIn = (cwd: string, executable: string) => {
  const result = Bun.spawnSync([executable], { cwd, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
  return { exitCode: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
};

beforeAll(() => {
  writeFileSync(
    probeSource,
    `import { buildInfo, describeBuild } from ${JSON.stringify(join(repositoryRoot, "src", "build-info.ts"))};\n` +
      `import { releaseNotes } from ${JSON.stringify(join(repositoryRoot, "src", "changelog.ts"))};\n` +
      "console.log(JSON.stringify({ build: describeBuild(), data: process.env.SKRINING_DATA ?? null, probe: process.env.SKRINING_PROBE ?? null, notes: releaseNotes(buildInfo().version)?.split('\\n')[0] ?? null }));\n",
  );
});

describe("the executable's build", () => {
  test("compiles with the autoloads off and the build's commit and date defined", () => {
    const command = compileCommand({ entries: ["cli/main.ts"], outfile: "dist/skrining", target: "bun-linux-x64-baseline", facts });
    expect(command).toContain("--no-compile-autoload-dotenv");
    expect(command).toContain("--no-compile-autoload-bunfig");
    expect(command.join(" ")).toContain('--define SKRINING_BUILD_COMMIT="0123456789ab" --define SKRINING_BUILD_DATE="2026-11-25T08:15:30Z"');
  });

  test("a program built so says its version, commit and build date, carries CHANGELOG.md (issue 44), and ignores a hostile .env and bunfig.toml in its folder", () => {
    const executable = join(folder, "probe-built");
    compile(compileCommand({ entries: [probeSource], outfile: executable, target: "bun-linux-x64-baseline", facts }));
    const hostile = hostileFolder();
    const result = runIn(hostile, executable);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      build: `skrining ${packageJson.version} (commit 0123456789ab, dibangun 2026-11-25T08:15:30Z)`,
      data: null,
      probe: null,
      // Read from the executable itself: its folder holds no CHANGELOG.md.
      notes: expect.stringMatching(new RegExp(`^## ${packageJson.version.replaceAll(".", "\\.")} \\(\\d{4}-\\d\\d-\\d\\d\\)$`)),
    });
    expect(result.stdout).not.toContain("PRELOAD");
    expect(existsSync(join(hostile, "dijalankan"))).toBe(false);
  }, 60_000);

  test("(the control) the same program built with Bun's defaults does read them: the check above can fail", () => {
    const executable = join(folder, "probe-default");
    compile([process.execPath, "build", probeSource, "--compile", "--outfile", executable]);
    const hostile = hostileFolder();
    const result = runIn(hostile, executable);
    expect(result.stdout).toContain("PRELOAD");
    expect(existsSync(join(hostile, "dijalankan"))).toBe(true);
    expect(JSON.parse(result.stdout.split("\n").find((line) => line.startsWith("{"))!)).toMatchObject({ data: "/tmp/disisipkan", probe: "dari-env", build: expect.stringContaining("dari kode sumber") });
  }, 60_000);

  test("the build date is SOURCE_DATE_EPOCH when set (a reproducible build), else now; the commit is git's", () => {
    expect(buildFacts({ SOURCE_DATE_EPOCH: "1795000000" }).builtAt).toBe(new Date(1_795_000_000_000).toISOString().replace(".000Z", "Z"));
    expect(buildFacts({ SOURCE_DATE_EPOCH: "0" }).builtAt).toBe("1970-01-01T00:00:00Z");
    const now = Date.parse(buildFacts({}).builtAt);
    expect(Math.abs(now - Date.now())).toBeLessThan(5_000);
    const head = Bun.spawnSync(["git", "rev-parse", "--short=12", "HEAD"], { cwd: repositoryRoot }).stdout.toString().trim();
    expect(buildFacts({}).commit).toMatch(new RegExp(`^${head}(-dirty)?$`));
  });
});
