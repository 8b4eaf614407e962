import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repositoryRoot } from "../helpers";
import { parseXml, winswCommandLine, winswProblems } from "./winsw-config";

// deploy/skrining-service.xml as WinSW 2.12.0 (the version the docs pin) reads it: the elements
// the tests check, and the argument list skrining.exe receives on Windows. Shared by
// test/deploy (the arguments against the program's parser, on Linux) and test-windows
// (the same command line run by the real executable under Wine).

export const serviceRecipePath = join(repositoryRoot, "deploy", "skrining-service.xml");

export interface ServiceRecipe {
  executable: string;
  /** The command line's arguments, each as the program gets it. */
  arguments: string[];
  workingDirectory: string;
  logPath: string;
  stopTimeout: string;
}

/**
 * A Windows command line split as the Microsoft C runtime (and CommandLineToArgvW) splits
 * it: white space separates arguments outside quotes; 2n backslashes before a quote are n
 * backslashes and the quote opens or closes; 2n+1 are n and a literal quote; `""` inside
 * quotes is a literal quote; other backslashes are themselves.
 */
export function windowsArguments(commandLine: string): string[] {
  const argumentsFound: string[] = [];
  let current = "";
  let inArgument = false;
  let quoted = false;
  for (let index = 0; index < commandLine.length; index++) {
    const character = commandLine[index]!;
    if (character === "\\") {
      let backslashes = 0;
      while (commandLine[index] === "\\") {
        backslashes++;
        index++;
      }
      if (commandLine[index] === '"') {
        current += "\\".repeat(Math.floor(backslashes / 2));
        if (backslashes % 2 === 1) current += '"';
        else index--; // the quote is handled as a quote below
      } else {
        current += "\\".repeat(backslashes);
        index--;
      }
      inArgument = true;
    } else if (character === '"') {
      if (quoted && commandLine[index + 1] === '"') {
        current += '"';
        index++;
      } else {
        quoted = !quoted;
      }
      inArgument = true;
    } else if ((character === " " || character === "\t") && !quoted) {
      if (inArgument) argumentsFound.push(current);
      current = "";
      inArgument = false;
    } else {
      current += character;
      inArgument = true;
    }
  }
  if (inArgument) argumentsFound.push(current);
  return argumentsFound;
}

/**
 * The file as WinSW 2.12.0 reads it (test/deploy/winsw-config.ts; a file it would read
 * otherwise than meant is refused here): the arguments skrining.exe receives are WinSW's
 * command line from the <argument> elements, split as Windows splits it.
 */
export function readServiceRecipe(): ServiceRecipe {
  const xml = readFileSync(serviceRecipePath, "utf8");
  const problems = winswProblems(xml);
  if (problems.length > 0) throw new Error(`${serviceRecipePath}: ${problems.join("; ")}`);
  const service = parseXml(xml);
  const texts = (name: string) => service.children.filter((child) => child.name === name).map((child) => child.text);
  const one = (name: string) => {
    const found = texts(name);
    if (found.length !== 1) throw new Error(`${serviceRecipePath}: expected one <${name}>, found ${found.length}`);
    return found[0]!.trim();
  };
  const argumentsGiven = texts("argument");
  // WinSW expands %NAME% from the environment; these tests would have to do the same first.
  if (argumentsGiven.some((argument) => argument.includes("%"))) throw new Error(`${serviceRecipePath}: an argument uses a %variable%, which these tests do not expand yet`);
  return {
    executable: one("executable"),
    arguments: windowsArguments(winswCommandLine(argumentsGiven)),
    workingDirectory: one("workingdirectory"),
    logPath: one("logpath"),
    stopTimeout: one("stoptimeout"),
  };
}
