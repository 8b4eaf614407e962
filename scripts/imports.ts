import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The repository's root: every path these helpers answer is relative to it, with `/` between folders. */
export const root = resolve(import.meta.dir, "..");

/** Every .ts and .tsx file below a folder of the repository (generated files included). */
export function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) found.push(relative(root, path).split("\\").join("/"));
    }
  };
  walk(join(root, folder));
  return found.sort();
}

// Comments that open a line are dropped first, so that one naming a module (`see
// src/http/body.ts`) or showing an import is not read as one; a `/*` inside a string
// ("image/*") opens no comment. Imports and re-exports open a line, type-only ones too (a
// loop of types is still a loop for a reader); `import("x")` may stand anywhere.
const blockComment = /^\s*\/\*[\s\S]*?\*\//gm;
const lineComment = /^\s*\/\/.*$/gm;
const fromClause = /^\s*(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']/gm;
const bareImport = /^\s*import\s*["']([^"']+)["']/gm;
const dynamicImport = /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g;

/** What a file's source names as modules, as written (`../http/guards`, `preact`). */
export function importSpecifiers(source: string): string[] {
  const code = source.replace(blockComment, "").replace(lineComment, "");
  return [...code.matchAll(fromClause), ...code.matchAll(bareImport), ...code.matchAll(dynamicImport)].map((match) => match[1]!);
}

/**
 * The repository files a file imports: its relative specifiers resolved as Bun resolves
 * them (the name, then with .ts, .tsx, then a folder's index). Packages are left out.
 */
export function importsOf(file: string): string[] {
  const found = new Set<string>();
  for (const specifier of importSpecifiers(readFileSync(join(root, file), "utf8"))) {
    if (!specifier.startsWith(".")) continue;
    const base = join(dirname(join(root, file)), specifier);
    const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")];
    const target = candidates.find((path) => existsSync(path) && statSync(path).isFile());
    if (target) found.add(relative(root, target).split("\\").join("/"));
  }
  return [...found];
}

/**
 * The import loops among some files, as the files in import order with the first repeated
 * at the end (`a.ts → b.ts → a.ts`): a depth-first walk that reports every edge back to a
 * file still on its path. Imports outside `files` are not followed.
 */
export function importLoops(files: readonly string[], importsOfFile: (file: string) => string[] = importsOf): string[][] {
  const inSet = new Set(files);
  const edges = new Map(files.map((file) => [file, importsOfFile(file).filter((target) => inSet.has(target))]));
  const loops: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === "open") loops.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return loops;
}
