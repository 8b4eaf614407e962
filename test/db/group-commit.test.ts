import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { GroupCommit } from "../../src/db/group-commit";
import { temporaryDir } from "../helpers";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function setUp() {
  const folder = temporaryDir();
  folders.push(folder);
  const path = join(folder, "group.db");
  const own = new Database(path);
  own.run("PRAGMA journal_mode = WAL");
  own.run("CREATE TABLE t (v INTEGER UNIQUE)");
  return { own, reader: new Database(path, { readonly: true }), group: new GroupCommit(own) };
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
