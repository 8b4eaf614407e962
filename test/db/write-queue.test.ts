import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { StorageError, StorageHealth } from "../../src/db/storage";
import { WriteQueue } from "../../src/db/write-queue";
import { temporaryDir } from "../helpers";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function setUp(busyWaitMilliseconds = 300) {
  const folder = temporaryDir();
  folders.push(folder);
  const path = join(folder, "group.db");
  const own = new Database(path);
  own.run("PRAGMA journal_mode = WAL");
  own.run("PRAGMA busy_timeout = 0");
  own.run("CREATE TABLE t (v INTEGER UNIQUE)");
  const lines: string[] = [];
  const health = new StorageHealth({ info: (line) => lines.push(`info ${line}`), error: (line) => lines.push(`error ${line}`) });
  return { own, path, lines, reader: new Database(path, { readonly: true }), group: new WriteQueue(own, { busyWaitMilliseconds, health }) };
}

const values = (db: Database) => db.query<{ v: number }, []>("SELECT v FROM t ORDER BY v").all().map((row) => row.v);

test("jobs of one turn commit together; a failing job is rolled back alone and its caller gets the error", async () => {
  const { own, reader, group } = setUp();
  const insert = (v: number) => () => {
    own.run("INSERT INTO t VALUES (?)", [v]);
    return v;
  };
  const results = await Promise.allSettled([
    group.run(insert(1)),
    group.run(() => {
      own.run("INSERT INTO t VALUES (2)");
      throw new Error("refused after writing");
    }),
    group.run(insert(1)),
    group.run(insert(3)),
  ]);
  expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
  expect((results[1] as PromiseRejectedResult).reason.message).toBe("refused after writing");
  expect(String((results[2] as PromiseRejectedResult).reason)).toContain("UNIQUE");
  // Seen from another connection: committed, without the rejected jobs' rows.
  expect(values(reader)).toEqual([1, 3]);
});

test("a job sees the writes of the jobs before it in the same group", async () => {
  const { own, group } = setUp();
  const seen = await Promise.all(
    [10, 20, 30].map((v) =>
      group.run(() => {
        own.run("INSERT INTO t VALUES (?)", [v]);
        return values(own).length;
      }),
    ),
  );
  expect(seen).toEqual([1, 2, 3]);
});

test("a promise settles only after its group is committed", async () => {
  const { own, reader, group } = setUp();
  const pending = group.run(() => own.run("INSERT INTO t VALUES (7)"));
  expect(values(reader)).toEqual([]);
  await pending;
  expect(values(reader)).toEqual([7]);
  expect(own.inTransaction).toBe(false);
});

test("when the transaction cannot begin, every job of the group is rejected", async () => {
  const { own, group } = setUp();
  own.run("BEGIN");
  const results = await Promise.allSettled([group.run(() => 1), group.run(() => 2)]);
  expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
  own.run("ROLLBACK");
});

// Faults (issue: a submission whose commit fails never got an answer). Whatever SQLite
// does, every job is settled, nothing uncommitted is reported as done, and the queue
// keeps working afterwards.

test("a job that makes SQLite drop the whole transaction: every job of the group is rejected, nothing committed, the queue goes on", async () => {
  const { own, reader, group } = setUp();
  const results = await Promise.allSettled([
    group.run(() => own.run("INSERT INTO t VALUES (1)")),
    // What SQLite does by itself on a full disk or an I/O error: the transaction is gone.
    group.run(() => own.run("ROLLBACK")),
    group.run(() => own.run("INSERT INTO t VALUES (2)")),
  ]);
  expect(results.map((result) => result.status)).toEqual(["rejected", "rejected", "rejected"]);
  for (const result of results) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(StorageError);
  expect(values(reader)).toEqual([]);
  expect(own.inTransaction).toBe(false);
  await group.run(() => own.run("INSERT INTO t VALUES (3)"));
  expect(values(reader)).toEqual([3]);
});

test("a COMMIT that fails rejects every job of the group, rolls back, and the queue goes on", async () => {
  const { own, reader, group } = setUp();
  // A deferred foreign key is checked at COMMIT: the surest way to make a COMMIT fail here.
  own.run("CREATE TABLE parent (id INTEGER PRIMARY KEY)");
  own.run("CREATE TABLE child (parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)");
  own.run("PRAGMA foreign_keys = ON");
  const results = await Promise.allSettled([group.run(() => own.run("INSERT INTO t VALUES (1)")), group.run(() => own.run("INSERT INTO child VALUES (9)"))]);
  expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
  expect(values(reader)).toEqual([]);
  expect(own.inTransaction).toBe(false);
  await group.run(() => own.run("INSERT INTO t VALUES (2)"));
  expect(values(reader)).toEqual([2]);
});

test("a full database: SQLite drops the group's transaction, so every job is rejected as full; logged once until a write succeeds", async () => {
  const { own, reader, group, lines } = setUp();
  own.run("CREATE TABLE blob (b BLOB)");
  const pages = (own.query("PRAGMA page_count").get() as { page_count: number }).page_count;
  // What a full disk is to SQLite: no page can be added.
  own.run(`PRAGMA max_page_count = ${pages + 2}`);
  const big = () => own.run("INSERT INTO blob VALUES (zeroblob(1000000))");
  const first = await Promise.allSettled([group.run(() => own.run("INSERT INTO t VALUES (1)")), group.run(big), group.run(() => own.run("INSERT INTO t VALUES (2)"))]);
  expect(first.map((result) => result.status)).toEqual(["rejected", "rejected", "rejected"]);
  for (const result of first) expect((result as PromiseRejectedResult).reason).toMatchObject({ name: "StorageError", problem: "full" });
  expect(values(reader)).toEqual([]);
  await Promise.allSettled([group.run(big), group.run(big)]);
  expect(lines.filter((line) => line.startsWith("error"))).toHaveLength(1);
  expect(lines[0]).toContain("full");
  // Space again: the next write succeeds and the recovery is logged once.
  own.run("PRAGMA max_page_count = 1073741823");
  await group.run(big);
  await group.run(() => own.run("INSERT INTO t VALUES (3)"));
  expect(lines.filter((line) => line.startsWith("info"))).toHaveLength(1);
});

describe("another program holding the write lock", () => {
  test("jobs wait without blocking the thread, and succeed once the lock is released", async () => {
    const { own, path, reader, group } = setUp(2000);
    const other = new Database(path);
    other.run("BEGIN EXCLUSIVE");
    const started = performance.now();
    const pending = group.run(() => own.run("INSERT INTO t VALUES (1)"));
    // Timers still fire while the job waits: the thread is free for reads.
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 10);
    await Bun.sleep(200);
    other.run("COMMIT");
    await pending;
    clearInterval(ticking);
    expect(ticks).toBeGreaterThan(5);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(values(reader)).toEqual([1]);
    other.close();
  });

  test("after the wait, every waiting job is rejected as busy; nothing is written", async () => {
    const { own, path, reader, group } = setUp(150);
    const other = new Database(path);
    other.run("BEGIN EXCLUSIVE");
    const results = await Promise.allSettled([group.run(() => own.run("INSERT INTO t VALUES (1)")), group.run(() => own.run("INSERT INTO t VALUES (2)"))]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    for (const result of results) expect((result as PromiseRejectedResult).reason).toMatchObject({ name: "StorageError", problem: "busy" });
    other.run("ROLLBACK");
    other.close();
    expect(values(reader)).toEqual([]);
    await group.run(() => own.run("INSERT INTO t VALUES (3)"));
    expect(values(reader)).toEqual([3]);
  });
});
