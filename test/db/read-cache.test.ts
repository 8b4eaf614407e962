import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { integer, sqliteTable } from "drizzle-orm/sqlite-core";
import { DatabaseStamp, databaseStamp, ReadCache } from "../../src/db/read-cache";
import { WriteQueue } from "../../src/db/write-queue";
import { temporaryDir } from "../helpers";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// The two tables of these tests, as the caches and the write jobs name them.
const t = sqliteTable("t", { v: integer("v") });
const u = sqliteTable("u", { v: integer("v") });

function databases() {
  const folder = temporaryDir();
  folders.push(folder);
  const path = join(folder, "cache.db");
  const own = new Database(path);
  own.run("PRAGMA journal_mode = WAL");
  own.run("CREATE TABLE t (v INTEGER)");
  own.run("INSERT INTO t VALUES (1)");
  own.run("CREATE TABLE u (v INTEGER)");
  own.run("INSERT INTO u VALUES (10)");
  return { own, other: new Database(path) };
}

test("a cached read is served until this connection writes", () => {
  const { own } = databases();
  const cache = new ReadCache<string, number>(new DatabaseStamp(own), { reads: [t] });
  let loads = 0;
  const read = () => cache.get("v", () => (loads++, (own.query("SELECT v FROM t").get() as { v: number }).v));
  expect([read(), read()]).toEqual([1, 1]);
  expect(loads).toBe(1);
  own.run("UPDATE t SET v = 2");
  expect(read()).toBe(2);
  expect(loads).toBe(2);
});

test("a commit by another connection (the CLI, a second server) empties the cache", () => {
  const { own, other } = databases();
  const cache = new ReadCache<string, number>(new DatabaseStamp(own), { reads: [t] });
  const read = () => cache.get("v", () => (own.query("SELECT v FROM t").get() as { v: number }).v);
  expect(read()).toBe(1);
  other.run("UPDATE t SET v = 3");
  expect(read()).toBe(3);
});

test("the oldest entry leaves first when the cache is full", () => {
  const { own } = databases();
  const cache = new ReadCache<number, number>(new DatabaseStamp(own), { reads: [t], maxEntries: 2 });
  let loads = 0;
  const read = (key: number) => cache.get(key, () => (loads++, key * 10));
  read(1);
  read(2);
  read(3);
  expect(loads).toBe(3);
  read(3);
  read(2);
  expect(loads).toBe(3);
  read(1);
  expect(loads).toBe(4);
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

test("on the server SQLite is asked once per turn: another connection's commit shows from the next turn, the write queue's commit at once; a transaction always asks", async () => {
  const { own, other } = databases();
  const stamp = databaseStamp(own);
  expect(databaseStamp(own)).toBe(stamp);
  stamp.askOncePerTurn();
  const cache = new ReadCache<string, number>(stamp, { reads: [t] });
  const read = () => cache.get("v", () => (own.query("SELECT v FROM t").get() as { v: number }).v);

  expect(read()).toBe(1);
  other.run("UPDATE t SET v = 2");
  expect(read()).toBe(1); // the same turn: not asked again
  await nextTurn();
  expect(read()).toBe(2);

  const writes = new WriteQueue(own, { busyWaitMilliseconds: 1000 });
  await writes.run(() => own.run("UPDATE t SET v = 3"), { touches: [t] });
  expect(read()).toBe(3); // the queue said what it wrote

  own.run("BEGIN");
  own.run("UPDATE t SET v = 4");
  expect(read()).toBe(4); // inside a transaction every read asks
  own.run("COMMIT");
});

test("a write job empties only the caches that read a table it wrote; a job that does not say empties every cache", async () => {
  const { own } = databases();
  const stamp = databaseStamp(own);
  const ofT = new ReadCache<string, number>(stamp, { reads: [t] });
  const ofU = new ReadCache<string, number>(stamp, { reads: [u] });
  const ofAll = new ReadCache<string, number>(stamp, { reads: "everything" });
  const loads = { t: 0, u: 0, all: 0 };
  const read = () => [
    ofT.get("v", () => (loads.t++, (own.query("SELECT v FROM t").get() as { v: number }).v)),
    ofU.get("v", () => (loads.u++, (own.query("SELECT v FROM u").get() as { v: number }).v)),
    ofAll.get("v", () => (loads.all++, (own.query("SELECT (SELECT v FROM t) + (SELECT v FROM u) AS v").get() as { v: number }).v)),
  ];
  const writes = new WriteQueue(own, { busyWaitMilliseconds: 1000 });
  expect(read()).toEqual([1, 10, 11]);

  await writes.run(() => own.run("UPDATE u SET v = 20"), { touches: [u] });
  expect(read()).toEqual([1, 20, 21]);
  expect(loads).toEqual({ t: 1, u: 2, all: 2 });

  await writes.run(() => own.run("UPDATE t SET v = 2"));
  expect(read()).toEqual([2, 20, 22]);
  expect(loads).toEqual({ t: 2, u: 3, all: 3 });

  // A job that fails is rolled back; what it may have written is emptied all the same.
  await writes.run(() => {
    own.run("UPDATE u SET v = 30");
    throw new Error("refused");
  }, { touches: [u] }).catch(() => undefined);
  expect(read()).toEqual([2, 20, 22]);
  expect(loads).toEqual({ t: 2, u: 4, all: 4 });
});

test("a write on the connection outside the queue empties every cache, even with a queue job of other tables in between", async () => {
  const { own } = databases();
  const stamp = databaseStamp(own);
  const ofT = new ReadCache<string, number>(stamp, { reads: [t] });
  const read = () => ofT.get("v", () => (own.query("SELECT v FROM t").get() as { v: number }).v);
  const writes = new WriteQueue(own, { busyWaitMilliseconds: 1000 });
  expect(read()).toBe(1);
  own.run("UPDATE t SET v = 5");
  await writes.run(() => own.run("UPDATE u SET v = 11"), { touches: [u] });
  expect(read()).toBe(5);
});
