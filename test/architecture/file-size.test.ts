import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, sourceFiles } from "../../scripts/imports";

// The developers' guide: files under 400 lines, split along their seams before they grow
// past it. Generated files (the web interface's embedded assets) are not written by hand.

const limit = 400;

test(`no .ts or .tsx file under src/, cli/ or bench/ has more than ${limit} lines`, () => {
  const files = ["src", "cli", "bench"].flatMap(sourceFiles).filter((file) => !file.includes(".generated."));
  expect(files.length).toBeGreaterThan(100);
  const lines = (file: string) => readFileSync(join(root, file), "utf8").split("\n").length - 1;
  const over = files.filter((file) => lines(file) > limit).map((file) => `${file}: ${lines(file)}`);
  expect(over).toEqual([]);
});
