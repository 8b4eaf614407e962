import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, win32 } from "node:path";
import type { Command } from "commander";
import type { CommandIo } from "../../cli/common";
import { buildProgram } from "../../cli/program";
import { cliEnvironment, repositoryRoot } from "../helpers";
import { readServiceRecipe, windowsArguments } from "./service-recipe";

// deploy/skrining-service.xml against the program it starts: its <arguments>, split as
// Windows splits them, must be a command line that `skrining` accepts (every option known,
// every value valid), with the paths the installation steps in docs/operations.md create.
// npm run test:windows runs the same command line with the real skrining.exe under Wine.

interface Parsed {
  serve?: { options: Record<string, unknown>; global: Record<string, unknown> };
  output: string;
  error?: unknown;
}

/** `args` through the real program, its serve action replaced by one that keeps what it was given. */
async function parse(args: string[]): Promise<Parsed> {
  const parsed: Parsed = { output: "" };
  const io: CommandIo = {
    out: (text) => void (parsed.output += text),
    err: (text) => void (parsed.output += text),
    readStdin: async () => "",
    inIsTerminal: false,
    readSecret: async () => "",
    errIsTerminal: false,
    outIsTerminal: false,
    environment: cliEnvironment(),
  };
  const program = buildProgram(io);
  program.commands
    .find((command) => command.name() === "serve")!
    .action((options: Record<string, unknown>, command: Command) => {
      parsed.serve = { options, global: command.parent!.opts() };
    });
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (error) {
    parsed.error = error;
  }
  return parsed;
}

describe("windowsArguments splits a command line as Windows programs do", () => {
  test.each([
    ["--data C:\\data serve", ["--data", "C:\\data", "serve"]],
    ['--data "C:\\Program Files\\x y"  serve\t--port 5000', ["--data", "C:\\Program Files\\x y", "serve", "--port", "5000"]],
    ['"C:\\ends in backslash\\\\" next', ["C:\\ends in backslash\\", "next"]],
    ['a\\\\\\"b', ['a\\"b']],
    ['"say ""hi"""', ['say "hi"']],
    ['mid"dle quo"ted', ["middle quoted"]],
    ['""', [""]],
    ["", []],
  ])("%j", (commandLine, expected) => {
    expect(windowsArguments(commandLine)).toEqual(expected);
  });
});

describe("deploy/skrining-service.xml", () => {
  const recipe = readServiceRecipe();

  test("starts serve with a command line the program accepts", async () => {
    const parsed = await parse(recipe.arguments);
    expect(parsed.error).toBeUndefined();
    expect(parsed.output).toBe("");
    expect(parsed.serve).toBeDefined();
    expect(recipe.arguments).toContain("serve");
  });

  test("its paths are absolute Windows paths: the executable, the data folder, the log file in <logpath>, the working folder", async () => {
    const { serve } = await parse(recipe.arguments);
    const data = serve!.global.data as string;
    const logFile = serve!.options.logFile as string;
    for (const path of [recipe.executable, data, logFile, recipe.workingDirectory, recipe.logPath]) expect(win32.isAbsolute(path) && /^[A-Za-z]:\\/.test(path)).toBe(true);
    expect(win32.basename(recipe.executable).toLowerCase()).toBe("skrining.exe");
    expect(win32.dirname(logFile).toLowerCase()).toBe(recipe.logPath.toLowerCase());
    // The installation steps create and protect these folders and start this executable by hand first.
    const operations = readFileSync(join(repositoryRoot, "docs", "operations.md"), "utf8");
    expect(operations).toContain(data);
    expect(operations).toContain(recipe.logPath);
    expect(operations).toContain(recipe.executable);
  });

  test("a command line the program would refuse is caught by the same check", async () => {
    const wrong: string[][] = [
      [...recipe.arguments, "--no-such-option"],
      recipe.arguments.map((argument) => (argument === "serve" ? "server" : argument)),
      recipe.arguments.map((argument, index) => (recipe.arguments[index - 1] === "--port" ? "50000x" : argument)),
    ];
    const messages = [/^kesalahan: opsi '--no-such-option' tidak dikenal\.$/, /^kesalahan: perintah 'server' tidak dikenal/, /^kesalahan: .*'50000x'.*port harus 0–65535/];
    for (const [index, args] of wrong.entries()) {
      const parsed = await parse(args);
      expect(parsed.error).toBeDefined();
      expect(parsed.output.split("\n")[0]).toMatch(messages[index]!);
    }
  });
});
