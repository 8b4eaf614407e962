import { readFileSync } from "node:fs";
import { join } from "node:path";

// A WinSW XML file checked against the rules of the one WinSW version the docs pin
// (test/deploy/fixtures/winsw-2.12.0.json, written down from that version's source), and
// the command line that version hands to skrining.exe. Issue 44, item 2: the file used WinSW
// 3's <serviceaccount><username>, which WinSW 2.x ignores without a word, installing the
// service as LocalSystem.

interface ValueRule {
  type?: "text" | "boolean" | "integer" | "duration" | "enum" | "flag" | "container" | "empty" | "opaque";
  values?: string[];
  ignoreCase?: boolean;
  required?: boolean;
  repeatable?: boolean;
  attributes?: Record<string, ValueRule>;
  children?: Record<string, ValueRule>;
}

export interface WinswRules {
  winsw: string;
  source: { repository: string; tag: string; commit: string };
  download: { url: string; sha256: string; sha256Source: string };
  root: string;
  required: string[];
  durationSuffixes: string[];
  elements: Record<string, ValueRule>;
}

export const winswRules: WinswRules = JSON.parse(readFileSync(join(import.meta.dir, "fixtures", "winsw-2.12.0.json"), "utf8"));

/** An element of the file: its name, attributes, text and children, in order. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: XmlElement[];
}

const entities: Record<string, string> = { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'" };
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (/^#x/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
    const character = entities[name];
    if (character === undefined) throw new Error(`unknown entity ${whole}`);
    return character;
  });

/** The file as a tree of elements (comments and the declaration left out); throws on anything that is not well-formed. */
export function parseXml(xml: string): XmlElement {
  const body = xml.replace(/<!--[\s\S]*?-->/g, "").replace(/<\?xml[\s\S]*?\?>/, "");
  const tag = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/g;
  const stack: XmlElement[] = [{ name: "#document", attributes: {}, text: "", children: [] }];
  let position = 0;
  for (const match of body.matchAll(tag)) {
    const between = body.slice(position, match.index);
    if (/[<>]/.test(between)) throw new Error(`a stray < or > before ${match[0]}`);
    stack.at(-1)!.text += decode(between);
    position = match.index! + match[0].length;
    const [, closing, name, attributeText, selfClosing] = match;
    if (closing) {
      const open = stack.pop();
      if (open?.name !== name || stack.length === 0) throw new Error(`</${name}> closes an element that is not open`);
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, key, double, single] of attributeText!.matchAll(/([\w.:-]+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/g)) attributes[key!] = decode(double ?? single ?? "");
    const element: XmlElement = { name: name!, attributes, text: "", children: [] };
    stack.at(-1)!.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (stack.length !== 1) throw new Error(`<${stack.at(-1)!.name}> not closed`);
  if (/[<>]/.test(body.slice(position))) throw new Error("a stray < or > at the end");
  const roots = stack[0]!.children;
  if (roots.length !== 1) throw new Error(`expected one root element, found ${roots.length}`);
  return roots[0]!;
}

/** A duration as WinSW 2.12.0 parses it: a whole number, then an optional unit from its list (`30sec`, `10 sec`, `1 hour`). */
function isDuration(text: string, suffixes: readonly string[]): boolean {
  const trimmed = text.trim();
  const suffix = suffixes.find((each) => trimmed.endsWith(each));
  const number = (suffix ? trimmed.slice(0, -suffix.length) : trimmed).trim();
  return /^\d+$/.test(number) && Number(number) <= 2 ** 31 - 1;
}

function valueProblems(where: string, value: string, rule: ValueRule, rules: WinswRules): string[] {
  const type = rule.type ?? "text";
  if (type === "duration" && !isDuration(value, rules.durationSuffixes)) return [`${where}: "${value}" is no duration WinSW ${rules.winsw} reads (a whole number, then ${rules.durationSuffixes.join(", ")})`];
  if (type === "integer" && !/^\s*\d+\s*$/.test(value)) return [`${where}: "${value}" is no whole number`];
  if (type === "boolean" && !/^\s*(true|false)\s*$/i.test(value)) return [`${where}: "${value}" is neither true nor false`];
  if (rule.values) {
    const known = rule.ignoreCase ? rule.values.some((each) => each.toLowerCase() === value.trim().toLowerCase()) : rule.values.includes(value);
    if (!known) return [`${where}: "${value}" is not one of ${rule.values.join(", ")}`];
  }
  return [];
}

function elementProblems(element: XmlElement, rule: ValueRule, path: string, rules: WinswRules): string[] {
  const problems: string[] = [];
  const attributeRules = rule.attributes ?? {};
  for (const [name, value] of Object.entries(element.attributes)) {
    const attributeRule = attributeRules[name];
    if (!attributeRule) problems.push(`${path}: attribute ${name} is not read by WinSW ${rules.winsw}`);
    else problems.push(...valueProblems(`${path}@${name}`, value, attributeRule, rules));
  }
  for (const [name, attributeRule] of Object.entries(attributeRules)) {
    if (attributeRule.required && element.attributes[name] === undefined) problems.push(`${path}: attribute ${name} is required`);
  }
  const type = rule.type ?? "text";
  if (type === "opaque") return problems;
  if (type === "container") {
    problems.push(...childProblems(element, rule.children ?? {}, path, rules));
    if (element.text.trim() !== "") problems.push(`${path}: text outside its elements`);
    return problems;
  }
  if (element.children.length > 0) problems.push(`${path}: holds elements, but WinSW reads only its text`);
  if (type === "empty" || type === "flag") {
    if (element.text.trim() !== "") problems.push(`${path}: text where WinSW reads none`);
    return problems;
  }
  problems.push(...valueProblems(path, element.text, rule, rules));
  return problems;
}

function childProblems(parent: XmlElement, allowed: Record<string, ValueRule>, path: string, rules: WinswRules): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const child of parent.children) {
    const rule = allowed[child.name];
    const childPath = `${path}/${child.name}`;
    if (!rule) {
      problems.push(`${childPath}: not an element WinSW ${rules.winsw} reads (it would be ignored without a word)`);
      continue;
    }
    seen.set(child.name, (seen.get(child.name) ?? 0) + 1);
    if (!rule.repeatable && seen.get(child.name) === 2) problems.push(`${childPath}: more than once (WinSW reads the first only)`);
    problems.push(...elementProblems(child, rule, childPath, rules));
  }
  return problems;
}

/** Every way `xml` departs from what WinSW of `rules` reads; an empty list when it reads it all. */
export function winswProblems(xml: string, rules: WinswRules = winswRules): string[] {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (error) {
    return [`not well-formed XML: ${(error as Error).message}`];
  }
  if (root.name !== rules.root) return [`the root element is <${root.name}>, not <${rules.root}>`];
  const problems = childProblems(root, rules.elements, `/${root.name}`, rules);
  for (const name of rules.required) if (!root.children.some((child) => child.name === name)) problems.push(`/${root.name}/${name}: missing (WinSW refuses to start without it)`);
  if (root.children.some((child) => child.name === "arguments") && root.children.some((child) => child.name === "argument")) {
    problems.push(`/${root.name}: both <arguments> and <argument> (WinSW takes the <argument> elements and ignores <arguments>)`);
  }
  return problems;
}

/** The account WinSW 2.12.0 installs the service as: `<domain>\<user>` (`.` without a domain), or LocalSystem without a user. */
export function serviceAccountOf(xml: string): string {
  const account = parseXml(xml).children.find((child) => child.name === "serviceaccount");
  const part = (name: string) => account?.children.find((child) => child.name === name)?.text.trim();
  const user = part("user");
  return user ? `${part("domain") ?? "."}\\${user}` : "LocalSystem";
}

/**
 * The command line WinSW 2.12.0 builds from the <argument> elements: each after a space,
 * put in double quotes when it holds a space (unless it already starts and ends with one).
 */
export function winswCommandLine(argumentsGiven: readonly string[]): string {
  return argumentsGiven.map((token) => (token.includes(" ") && !(token.startsWith('"') && token.endsWith('"')) ? `"${token}"` : token)).map((token) => ` ${token}`).join("");
}
