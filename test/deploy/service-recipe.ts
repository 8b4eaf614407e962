import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repositoryRoot } from "../helpers";

// deploy/skrining-service.xml as WinSW reads it: the elements the tests check, and the
// argument list skrining.exe receives on Windows. Shared by
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

const entities: Record<string, string> = { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
    const character = entities[name];
    if (character === undefined) throw new Error(`${serviceRecipePath}: unknown entity ${whole}`);
    return character;
  });
}

/** A start tag (with its attributes), an end tag, or an empty-element tag. */
const tagPattern = /<(\/?)([A-Za-z_][\w.-]*)(?:\s+[\w.:-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*(\/?)>/g;

/** Throws unless every element is closed in order: WinSW refuses a file that is not well-formed XML. */
function checkWellFormed(xml: string): void {
  const open: string[] = [];
  const body = xml.replace(/<!--[\s\S]*?-->/g, "").replace(/<\?xml[\s\S]*?\?>/, "");
  for (const [tag, closing, name, selfClosing] of body.matchAll(tagPattern)) {
    if (closing) {
      if (open.pop() !== name) throw new Error(`${serviceRecipePath}: ${tag} closes an element that is not open`);
    } else if (!selfClosing) {
      open.push(name!);
    }
  }
  if (open.length > 0) throw new Error(`${serviceRecipePath}: <${open.join(">, <")}> not closed`);
  const stray = body.replace(tagPattern, "");
  if (/[<>]/.test(stray)) throw new Error(`${serviceRecipePath}: a stray < or > outside a tag`);
}

/** The text of the one `<name>` element under <service>; throws when there is none or several. */
function element(xml: string, name: string): string {
  const found = [...xml.replace(/<!--[\s\S]*?-->/g, "").matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, "g"))];
  if (found.length !== 1) throw new Error(`${serviceRecipePath}: expected one <${name}>, found ${found.length}`);
  return decodeEntities(found[0]![1]!.trim());
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
 * The arguments WinSW passes: one `<argument>` element each (WinSW quotes each itself), or
 * one `<arguments>` command line split as Windows splits it; not both.
 */
function commandArguments(xml: string): string[] {
  const body = xml.replace(/<!--[\s\S]*?-->/g, "");
  const each = [...body.matchAll(/<argument>([^<]*)<\/argument>/g)].map((match) => decodeEntities(match[1]!));
  const hasLine = /<arguments>/.test(body);
  if (hasLine && each.length > 0) throw new Error(`${serviceRecipePath}: both <arguments> and <argument> elements`);
  const found = hasLine ? windowsArguments(element(xml, "arguments")) : each;
  // WinSW expands %NAME% from the environment; these tests would have to do the same first.
  if (found.some((argument) => argument.includes("%"))) throw new Error(`${serviceRecipePath}: an argument uses a %variable%, which these tests do not expand yet`);
  return found;
}

export function readServiceRecipe(): ServiceRecipe {
  const xml = readFileSync(serviceRecipePath, "utf8");
  checkWellFormed(xml);
  return {
    executable: element(xml, "executable"),
    arguments: commandArguments(xml),
    workingDirectory: element(xml, "workingdirectory"),
    logPath: element(xml, "logpath"),
    stopTimeout: element(xml, "stoptimeout"),
  };
}
