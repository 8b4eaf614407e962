// `npm run test:browser` (after `npm run build`): each file of test-browser/ in a `bun test`
// process of its own, one after another. playwright-core's connection to its driver lives
// as long as the process: an object it lost in one file (the answer to a request of a
// context already closed) broke the first test of the next file, whatever that test did.
// Files may be named (`npm run test:browser -- test-browser/auth.test.ts`); without any,
// every file runs. The exit status is non-zero if any file failed.
import { readdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const named = process.argv.slice(2);
const files = named.length > 0 ? named : readdirSync(join(root, "test-browser")).filter((name) => name.endsWith(".test.ts")).sort().map((name) => `./test-browser/${name}`);

const failed: string[] = [];
const started = performance.now();
for (const file of files) {
  const run = Bun.spawnSync([process.execPath, "test", "--timeout", "120000", file], { cwd: root, stdout: "inherit", stderr: "inherit" });
  if (run.exitCode !== 0) failed.push(file);
}
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.error(`\n${files.length} browser test files in ${seconds} s: ${failed.length === 0 ? "all passed" : `failed: ${failed.join(", ")}`}`);
process.exit(failed.length === 0 ? 0 : 1);
