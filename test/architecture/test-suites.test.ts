import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, sourceFiles } from "../../scripts/imports";

// docs/testing.md: `npm test` stays under 20 s because the checks whose subject is a
// `serve` process of its own (its start, its child processes, its signals) run in
// test-robust/, once, in CI. A test under test/ that starts one again fails here.

test("no test under test/ starts serve as a process of its own (startServer): those are in test-robust/", () => {
  const starting = sourceFiles("test").filter((file) => file.endsWith(".test.ts") && /\bstartServer\(/.test(readFileSync(join(root, file), "utf8")));
  expect(starting).toEqual([]);
});

test("test-robust/ has them", () => {
  const starting = sourceFiles("test-robust").filter((file) => /\bstartServer\(/.test(readFileSync(join(root, file), "utf8")));
  expect(starting).toContain("test-robust/cli/serve.test.ts");
});

// bun:test's `expect(promise).resolves` / `.rejects` waits by running the event loop inside
// the callback that called it. Playwright's in-process connection delivers every message
// with setImmediate; a loop run from inside one of those callbacks left the rest of its
// batch behind, so a request's `__create__` reached the client after its response ("Cannot
// find parent object request@…", every later test of the file failing with it). The
// browser tests await the value first: `expect(await locator.isVisible()).toBe(true)`.
test("no browser test hands a promise to expect (.resolves / .rejects nest the event loop under Playwright's messages)", () => {
  const nesting = sourceFiles("test-browser").filter((file) => /\.(resolves|rejects)\b/.test(readFileSync(join(root, file), "utf8")));
  expect(nesting).toEqual([]);
});
