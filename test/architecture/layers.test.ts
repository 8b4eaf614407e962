import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importSpecifiers, importsOf, root, sourceFiles } from "../../scripts/imports";

// docs/architecture.md: the layers point one way. `src/http/` is what only HTTP needs;
// what a service reads of a request (the caller, a NIM, an id, a page) is in
// `src/requests/`. These checks read the files' imports, so a service that reaches into
// `src/http/` again fails here, not in a reader's head.

const intoHttp = (file: string) => importsOf(file).filter((target) => target.startsWith("src/http/"));

/** A module's file that builds routes: its controller (`index.ts`) or one of the admin console's page controllers. */
const buildsRoutes = (file: string) => /\bnew Elysia\(|\badminController\(/.test(readFileSync(join(root, file), "utf8"));

/** Who may import `src/http/`: itself, the composition that puts the service together, and the controllers with their schemas. */
function mayUseHttp(file: string): boolean {
  if (file.startsWith("src/http/")) return true;
  if (["src/app.ts", "src/server.ts", "src/config.ts"].includes(file)) return true;
  if (file.startsWith("src/modules/")) return file.endsWith("/model.ts") || buildsRoutes(file);
  return false;
}

describe("the layers", () => {
  const services = sourceFiles("src/modules").filter((file) => file.endsWith("/service.ts"));

  test("every feature module's service is checked", () => {
    expect(services).toContain("src/modules/mood/service.ts");
    expect(services.length).toBeGreaterThanOrEqual(10);
  });

  test.each(services)("%s imports nothing from src/http/", (file) => {
    expect(intoHttp(file)).toEqual([]);
  });

  test("outside the controllers and the composition, nothing under src/ imports src/http/", () => {
    const offenders = sourceFiles("src")
      .filter((file) => !mayUseHttp(file))
      .flatMap((file) => intoHttp(file).map((target) => `${file} → ${target}`));
    expect(offenders).toEqual([]);
  });

  test("src/requests/ itself needs no HTTP and no feature module", () => {
    const files = sourceFiles("src/requests");
    expect(files).toContain("src/requests/values.ts");
    const reaching = files.flatMap((file) => importsOf(file).filter((target) => /^src\/(http|modules)\//.test(target)).map((target) => `${file} → ${target}`));
    expect(reaching).toEqual([]);
  });
});

describe("reading imports", () => {
  test("every form of import is read; comments are not", () => {
    const source = [
      'import { a } from "./a";',
      'import type {\n  B,\n  C,\n} from "../b";',
      'export { d } from "./d";',
      'import "./side-effect";',
      'const lazy = await import("./lazy");',
      "// import { no } from './commented';",
      '/** see import { never } from "./documented" */',
    ].join("\n");
    expect(importSpecifiers(source).sort()).toEqual(["../b", "./a", "./d", "./lazy", "./side-effect"]);
  });

  test("a relative import resolves to the file, a package is left out", () => {
    expect(importsOf("src/http/guards.ts")).toContain("src/requests/ownership.ts");
    expect(importsOf("src/http/guards.ts").some((target) => target.includes("elysia"))).toBe(false);
  });
});
