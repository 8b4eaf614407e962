import { afterAll, expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { closeContext, createContext } from "../../src/context";
import { scratchInMemory } from "../../src/db";
import { silentLogger } from "../../src/logger";
import { temporaryDir, testEnvironment } from "../helpers";

// Issue 28: the server keeps SQLite's scratch space (the savepoints' page copies of the
// write queue's jobs) in memory; VACUUM, which builds a whole copy of the database as a
// temporary one, goes back to a file and then leaves the setting as it was.

const context = createContext(loadConfig(temporaryDir(), { ...testEnvironment }), silentLogger);
afterAll(() => closeContext(context));
const tempStore = () => context.db.$client.query<{ temp_store: number }, []>("PRAGMA temp_store").get()!.temp_store;

test("the server's connection keeps its scratch space in memory", () => {
  expect(tempStore()).toBe(2);
});

test("work on disk sees FILE, and the memory setting is back after it, also when the work throws", () => {
  expect(scratchInMemory.onDisk(context.db.$client, tempStore)).toBe(1);
  expect(tempStore()).toBe(2);
  expect(() =>
    scratchInMemory.onDisk(context.db.$client, () => {
      throw new Error("gagal");
    }),
  ).toThrow("gagal");
  expect(tempStore()).toBe(2);
});
