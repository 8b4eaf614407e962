import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { preparedOnFirstUse } from "../../src/db/prepared";

const names = sqliteTable("names", { name: text("name").primaryKey() });

function counted() {
  const sqlite = new Database(":memory:");
  sqlite.run("CREATE TABLE names (name TEXT PRIMARY KEY)");
  const db = drizzle(sqlite);
  let prepared = 0;
  const byName = preparedOnFirstUse(() => {
    prepared++;
    return db.select().from(names).where(sql`${names.name} = ${sql.placeholder("name")}`).prepare();
  });
  const insert = preparedOnFirstUse(() => {
    prepared++;
    return db.insert(names).values({ name: sql.placeholder("name") }).prepare();
  });
  return { byName, insert, prepared: () => prepared };
}

test("a query is not prepared until it is first run, and then once, whatever is called", async () => {
  const { byName, insert, prepared } = counted();
  expect(prepared()).toBe(0);
  insert.run({ name: "ani" });
  expect(prepared()).toBe(1);
  insert.run({ name: "budi" });
  expect(prepared()).toBe(1);
  expect(byName.get({ name: "ani" })).toEqual({ name: "ani" });
  expect(byName.all({ name: "budi" })).toEqual([{ name: "budi" }]);
  expect(byName.values({ name: "budi" })).toEqual([["budi"]]);
  expect(await byName.execute({ name: "tidak-ada" })).toEqual([]);
  expect(byName.getQuery().sql).toBe('select "name" from "names" where "names"."name" = ?');
  expect(prepared()).toBe(2);
});

test("a query whose SQL is wrong fails where it is run, with SQLite's reason", () => {
  const sqlite = new Database(":memory:");
  const db = drizzle(sqlite);
  const broken = preparedOnFirstUse(() => db.select().from(names).prepare());
  expect(() => broken.all()).toThrow("no such table: names");
});
