import { describe, expect, test } from "bun:test";
import type { TestResponse } from "./helpers";

/** A student's entries that a path id names (mood, diary): what the shared DELETE tests need. */
export interface EntryRoutes {
  /** The interface's 404 text for an unknown id, and the success message. */
  unknownText: string;
  deletedText: string;
  insert(row: { id?: number; nim: string; date: string }): number;
  exists(id: number): boolean;
  count(): number;
  remove(token: string, id: number | string): Promise<TestResponse>;
  /** Tokens of `admin`, `mhs1` (N001), `mhs2`, `noProfile` and `dosen`, once logged in. */
  tokens(): Record<string, string>;
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
      expect(await routes.remove(routes.tokens().admin!, id)).toMatchObject({ status: 404, body: { error: routes.unknownText } });
      expect(routes.count()).toBe(before);
      // Free the id for the next case.
      await routes.remove(routes.tokens().admin!, inserted);
    });

    test("another student, a student without profile and a lecturer get 403; the entry stays", async () => {
      const id = routes.insert({ nim: "N001", date: "2028-02-01" });
      for (const who of ["mhs2", "noProfile", "dosen"]) {
        expect(await routes.remove(routes.tokens()[who]!, id)).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
      }
      expect(routes.exists(id)).toBe(true);
    });

    test("the owner deletes; a second delete answers 404", async () => {
      const id = routes.insert({ nim: "N001", date: "2028-03-01" });
      expect(await routes.remove(routes.tokens().mhs1!, id)).toEqual(expect.objectContaining({ status: 200, body: { message: routes.deletedText } }));
      expect(routes.exists(id)).toBe(false);
      expect((await routes.remove(routes.tokens().mhs1!, id)).status).toBe(404);
      await afterDelete(routes.tokens().mhs1!);
    });

    test("an admin deletes any student's entry", async () => {
      const id = routes.insert({ nim: "N002", date: "2028-04-01" });
      expect(await routes.remove(routes.tokens().admin!, id)).toMatchObject({ status: 200, body: { message: routes.deletedText } });
      expect(routes.exists(id)).toBe(false);
    });
  });
}
