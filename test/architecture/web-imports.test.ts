import { describe, expect, test } from "bun:test";
import { importLoops, importsOf, sourceFiles } from "../../scripts/imports";

// The web interface's modules import one way: the entry and the shell (main.tsx, app.tsx)
// import the pages, the pages import the shared pieces (types.ts, components/, strings/),
// and nothing imports back. A loop (a page taking its props type from the shell that
// imports it) would make the order in which modules run matter, and a reader go round.

describe("the web interface's imports", () => {
  const files = sourceFiles("src/web");

  test("the walk sees the pages and their imports", () => {
    expect(files).toContain("src/web/app.tsx");
    expect(files).toContain("src/web/pages/dosen/DaftarTindakLanjut.tsx");
    expect(importsOf("src/web/pages/dosen/index.ts")).toContain("src/web/pages/dosen/DaftarTindakLanjut.tsx");
  });

  test("no import loop among the files of src/web", () => {
    expect(importLoops(files).map((loop) => loop.join(" → "))).toEqual([]);
  });
});

describe("finding import loops", () => {
  const graph: Record<string, string[]> = {
    "app.tsx": ["pages/index.ts", "types.ts"],
    "pages/index.ts": ["pages/Beranda.tsx"],
    "pages/Beranda.tsx": ["app.tsx", "types.ts"],
    "types.ts": [],
    "self.ts": ["self.ts"],
    "a.ts": ["b.ts", "c.ts"],
    "b.ts": ["c.ts"],
    "c.ts": [],
  };
  const loopsOf = (files: string[]) => importLoops(files, (file) => graph[file] ?? []).map((loop) => loop.join(" → "));

  test("a loop through three files is found once, in import order", () => {
    expect(loopsOf(["app.tsx", "pages/index.ts", "pages/Beranda.tsx", "types.ts"])).toEqual(["app.tsx → pages/index.ts → pages/Beranda.tsx → app.tsx"]);
  });

  test("a file that imports itself is a loop; a file imported by two others is not", () => {
    expect(loopsOf(["self.ts", "types.ts"])).toEqual(["self.ts → self.ts"]);
    expect(loopsOf(["c.ts", "b.ts", "a.ts"])).toEqual([]);
  });

  test("imports of files outside the set are not followed", () => {
    expect(loopsOf(["pages/Beranda.tsx", "types.ts"])).toEqual([]);
  });
});
