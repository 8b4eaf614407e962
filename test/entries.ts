import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { studentRecordsService, type TestResponse, type TestService } from "./helpers";

/**
 * A student's dated entries (mood, diary) through their routes: what the shared tests need.
 * The tokens come from `studentRecordsService()`: `admin`, `dosen` (the advisor of N001,
 * N002 and N004, not of N003), `otherDosen`, `mhs1` (N001), `mhs2`, `mhs4` and `noProfile`
 * (a student account without a profile).
 */
export interface EntryRoutes {
  /** The interface's 404 text for an unknown id, and the success message of a deletion. */
  unknownText: string;
  deletedText: string;
  insert(row: { id?: number; nim: string; date: string }): number;
  /** The entry's row as stored, or null. */
  row(id: number): unknown;
  /** Removes a row straight from the table. */
  deleteRow(id: number): void;
  exists(id: number): boolean;
  count(): number;
  post(token: string, body: unknown): Promise<TestResponse>;
  list(token: string, nim: string): Promise<TestResponse>;
  put(token: string, id: number | string, body: unknown): Promise<TestResponse>;
  remove(token: string, id: number | string): Promise<TestResponse>;
  /** Filled once the service has started (before the first test). */
  tokens: Record<string, string>;
}

/**
 * A test file's service for one kind of entry: `studentRecordsService()`, started before
 * the file's tests and closed after them; the kind's routes as a caller uses them; its
 * table's rows read and written straight. `insert` writes a row with the columns a test
 * chooses (the kind's own defaults for the rest).
 */
export function entryTestService(kind: {
  path: "mood" | "diary";
  table: "mood_entries" | "diary_entries";
  unknownText: string;
  deletedText: string;
  insert(sqlite: Database, row: { id?: number; nim: string; date: string }): number;
}) {
  let service: TestService;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    const fixture = await studentRecordsService();
    service = fixture.service;
    Object.assign(tokens, fixture.tokens);
  });
  afterAll(() => service.close());

  const sqlite = () => service.context.db.$client;
  const path = `/api/mahasiswa/${kind.path}`;
  const row = (id: number): unknown => sqlite().query(`SELECT * FROM ${kind.table} WHERE id = ?`).get(id);
  const routes = {
    unknownText: kind.unknownText,
    deletedText: kind.deletedText,
    insert: (values: { id?: number; nim: string; date: string }) => kind.insert(sqlite(), values),
    row,
    deleteRow: (id: number) => void sqlite().query(`DELETE FROM ${kind.table} WHERE id = ?`).run(id),
    exists: (id: number) => row(id) !== null,
    count: () => (sqlite().query(`SELECT count(*) AS n FROM ${kind.table}`).get() as { n: number }).n,
    post: (token: string, body: unknown) => service.request("POST", path, { token, body }),
    list: (token: string, nim: string) => service.request("GET", `${path}/${nim}`, { token }),
    put: (token: string, id: number | string, body: unknown) => service.request("PUT", `${path}/${id}`, { token, body }),
    remove: (token: string, id: number | string) => service.request("DELETE", `${path}/${id}`, { token }),
    tokens,
  } satisfies EntryRoutes;
  return { ...routes, service: () => service, sqlite };
}

/**
 * GET of a student's list by NIM, the same rules for mood and diary: who may read it
 * (decisions §9: the advisor scope), and which refusal comes first. `N004` has `entries`
 * entries by now (the kind's own ordering test wrote them); N003 has none. Staff read
 * `staffReads` of them (decisions §19: of a diary, the entries the student shared).
 */
export function describeListAccess(path: string, routes: EntryRoutes, entries: number, staffReads = entries): void {
  describe(`GET ${path}: who reads the list`, () => {
    test("a student with no entries gets an empty list", async () => {
      expect(await routes.list(routes.tokens.admin!, "N003")).toMatchObject({ status: 200, body: [] });
    });

    test("the student reads the list; their advisor and admins read what staff may of it", async () => {
      expect((await routes.list(routes.tokens.mhs4!, "N004")).body).toHaveLength(entries);
      expect((await routes.list(routes.tokens.dosen!, "N004")).body).toHaveLength(staffReads);
      expect((await routes.list(routes.tokens.admin!, "N004")).body).toHaveLength(staffReads);
    });

    test.each<[string, string, string, number, string]>([
      ["another lecturer, the student's list", "otherDosen", "N004", 403, "Mahasiswa bukan bimbingan Anda."],
      ["the advisor, a student they do not advise", "dosen", "N003", 403, "Mahasiswa bukan bimbingan Anda."],
      ["another lecturer, an unknown NIM (its 404 first)", "otherDosen", "X999", 404, "Mahasiswa tidak ditemukan."],
      ["a student, another student's list", "mhs1", "N002", 403, "Akses ditolak."],
      ["a student, an unknown NIM (the own-nim rule first)", "mhs1", "X999", 403, "Akses ditolak."],
      ["a student account without a profile, which owns no NIM", "noProfile", "N001", 403, "Akses ditolak."],
      ["an admin, an unknown student", "admin", "X999", 404, "Mahasiswa tidak ditemukan."],
    ])("%s", async (_name, who, nim, status, error) => {
      expect(await routes.list(routes.tokens[who]!, nim)).toMatchObject({ status, body: { error } });
    });

    test("no token answers 401", async () => {
      expect((await routes.list("", "N001")).status).toBe(401);
    });
  });
}

/**
 * PUT of an entry by id, the rules before its body, the same for mood and diary: 404 for
 * an id that names nothing (whatever its form), then 403 for anyone but its student and
 * admins, both before the body is read. `valid` is a change the kind accepts, `invalid` one
 * it refuses with 400.
 */
export function describeUpdateLookups(path: string, routes: EntryRoutes, bodies: { valid: unknown; invalid: unknown }): void {
  describe(`PUT ${path}: the entry before the body`, () => {
    test.each(["1e3", "1000.0", "0x3E8", "+1000", "1000abc", "-1000", "0", "99999999999999999999", "abc", "999999"])("id %p names no entry: 404, nothing changed", async (id) => {
      routes.insert({ id: 1000, nim: "N001", date: "2027-01-01" });
      const before = routes.row(1000);
      expect(await routes.put(routes.tokens.admin!, id, bodies.valid)).toMatchObject({ status: 404, body: { error: routes.unknownText } });
      expect(routes.row(1000)).toEqual(before);
      routes.deleteRow(1000);
    });

    test("an unknown id is reported before the body is checked", async () => {
      expect(await routes.put(routes.tokens.mhs1!, 999999, bodies.invalid)).toMatchObject({ status: 404, body: { error: routes.unknownText } });
    });

    test("another student's entry answers 403 before the body is checked, and stays as it was", async () => {
      const id = routes.insert({ nim: "N001", date: "2027-02-01" });
      const before = routes.row(id);
      const { tokens } = routes;
      expect(await routes.put(tokens.mhs2!, id, bodies.valid)).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
      expect(await routes.put(tokens.mhs2!, id, bodies.invalid)).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
      expect(await routes.put(tokens.noProfile!, id, bodies.valid)).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
      expect(await routes.put(tokens.dosen!, id, bodies.valid)).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
      expect(routes.row(id)).toEqual(before);
    });
  });
}

/**
 * DELETE of an entry by id, the same rules for mood and diary: 404 for an id that names
 * nothing (whatever its form), 403 for anyone but its student and admins, then the delete.
 * `afterDelete` checks what else the deletion allows (a mood's date is free again).
 */
export function describeDeletes(path: string, routes: EntryRoutes, afterDelete: (token: string) => Promise<void> = async () => {}): void {
  describe(`DELETE ${path}`, () => {
    test.each(["1e3", "1000.0", "-1000", "0", "99999999999999999999", "abc", "999999"])("id %p answers 404 and deletes nothing", async (id) => {
      const inserted = routes.insert({ id: 1000, nim: "N001", date: "2028-01-01" });
      const before = routes.count();
      expect(await routes.remove(routes.tokens.admin!, id)).toMatchObject({ status: 404, body: { error: routes.unknownText } });
      expect(routes.count()).toBe(before);
      // Free the id for the next case.
      await routes.remove(routes.tokens.admin!, inserted);
    });

    test("another student, a student without profile and a lecturer get 403; the entry stays", async () => {
      const id = routes.insert({ nim: "N001", date: "2028-02-01" });
      for (const who of ["mhs2", "noProfile", "dosen"]) {
        expect(await routes.remove(routes.tokens[who]!, id)).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
      }
      expect(routes.exists(id)).toBe(true);
    });

    test("the owner deletes; a second delete answers 404", async () => {
      const id = routes.insert({ nim: "N001", date: "2028-03-01" });
      expect(await routes.remove(routes.tokens.mhs1!, id)).toEqual(expect.objectContaining({ status: 200, body: { message: routes.deletedText } }));
      expect(routes.exists(id)).toBe(false);
      expect((await routes.remove(routes.tokens.mhs1!, id)).status).toBe(404);
      await afterDelete(routes.tokens.mhs1!);
    });

    test("an admin deletes any student's entry", async () => {
      const id = routes.insert({ nim: "N002", date: "2028-04-01" });
      expect(await routes.remove(routes.tokens.admin!, id)).toMatchObject({ status: 200, body: { message: routes.deletedText } });
      expect(routes.exists(id)).toBe(false);
    });
  });
}
