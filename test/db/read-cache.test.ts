import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { DatabaseStamp, databaseStamp, ReadCache } from "../../src/db/read-cache";
import { WriteQueue } from "../../src/db/write-queue";
import { temporaryDir } from "../helpers";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function databases() {
  const folder = temporaryDir();
  folders.push(folder);
  const path = join(folder, "cache.db");
  const own = new Database(path);
  own.run("PRAGMA journal_mode = WAL");
  own.run("CREATE TABLE t (v INTEGER)");
  own.run("INSERT INTO t VALUES (1)");
  return { own, other: new Database(path) };
}

test("a cached read is served until this connection writes", () => {
  const { own } = databases();
  const cache = new ReadCache<string, number>(new DatabaseStamp(own));
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
  const cache = new ReadCache<string, number>(new DatabaseStamp(own));
  const read = () => cache.get("v", () => (own.query("SELECT v FROM t").get() as { v: number }).v);
  expect(read()).toBe(1);
  other.run("UPDATE t SET v = 3");
  expect(read()).toBe(3);
});

test("the oldest entry leaves first when the cache is full", () => {
  const { own } = databases();
  const cache = new ReadCache<number, number>(new DatabaseStamp(own), 2);
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

test("a held stamp: one question per request; the next request and every write-queue commit ask again; a transaction always asks", async () => {
  const { own, other } = databases();
  const stamp = databaseStamp(own);
  expect(databaseStamp(own)).toBe(stamp);
  const cache = new ReadCache<string, number>(stamp);
  const read = () => cache.get("v", () => (own.query("SELECT v FROM t").get() as { v: number }).v);

  stamp.hold();
  expect(read()).toBe(1);
  other.run("UPDATE t SET v = 2");
  expect(read()).toBe(1); // the same request: the stamp is held
  stamp.hold(); // the next request
  expect(read()).toBe(2);

  const writes = new WriteQueue(own, { busyWaitMilliseconds: 1000 });
  await writes.run(() => own.run("UPDATE t SET v = 3"));
  expect(read()).toBe(3); // the commit let go of the held stamp

  own.run("BEGIN");
  own.run("UPDATE t SET v = 4");
  expect(read()).toBe(4); // inside a transaction every read asks
  own.run("COMMIT");
});
