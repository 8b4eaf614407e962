import { expect, test } from "bun:test";
import { join } from "node:path";
import { syncFolder } from "../src/folder-sync";
import { temporaryDir } from "./helpers";

// A photo (and a backup) renamed into place is made durable by flushing its folder; on
// Windows a folder cannot be flushed, and trying made every photo upload answer 503.

test("on Linux the folder is opened and flushed: a missing folder is an error", () => {
  const folder = temporaryDir();
  expect(() => syncFolder(folder, "linux")).not.toThrow();
  expect(() => syncFolder(join(folder, "tidak-ada"), "linux")).toThrow(/ENOENT/);
});

test("on Windows the folder is not opened at all", () => {
  expect(() => syncFolder(join(temporaryDir(), "tidak-ada"), "win32")).not.toThrow();
});
