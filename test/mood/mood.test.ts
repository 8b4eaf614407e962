import type { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { describeDeletes, describeListAccess, describeUpdateLookups, entryTestService } from "../entries";

interface MoodRow {
  id: number;
  nim: string;
  date: string;
  mood_value: number;
  created_at: string;
  updated_at: string;
}

const old = "2020-01-01T00:00:00.000Z";

/** A row written straight into the table, with every column chosen by the test. */
function insertMoodInto(sqlite: Database, row: { id?: number; nim: string; date: string; mood_value?: number; created_at?: string }): number {
  const result = sqlite
    .query("INSERT INTO mood_entries (id, nim, date, mood_value, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id")
    .get(row.id ?? null, row.nim, row.date, row.mood_value ?? 3, row.created_at ?? old, row.created_at ?? old) as { id: number };
  return result.id;
}

const routes = entryTestService({ path: "mood", table: "mood_entries", unknownText: "Mood tidak ditemukan.", deletedText: "Mood berhasil dihapus.", insert: insertMoodInto });
const { service, sqlite, tokens, post, put, list } = routes;
const countMoods = routes.count;
const moodRow = (id: number) => routes.row(id) as MoodRow | null;
const insertMood = (row: Parameters<typeof insertMoodInto>[1]) => insertMoodInto(sqlite(), row);
const moodsOf = (nim: string) => sqlite().query("SELECT * FROM mood_entries WHERE nim = ? ORDER BY id").all(nim) as MoodRow[];
const isoTimestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("POST /mood rules in order", () => {
  const required = "date dan mood_value wajib diisi.";
  const notInteger = "mood_value harus berupa angka.";
  const outOfRange = "mood_value harus antara 1-5.";
  const badDate = "format date harus YYYY-MM-DD.";
  const valid = { date: "2026-01-05", mood_value: 3 };

  test.each<[string, string, unknown, number, string]>([
    ["admin without nim", "admin", valid, 400, "NIM wajib disertakan oleh admin."],
    ["admin with a blank nim", "admin", { ...valid, nim: "   " }, 400, "NIM wajib disertakan oleh admin."],
    ["admin with an object as nim", "admin", { ...valid, nim: { NIM: "N001" } }, 400, "NIM wajib disertakan oleh admin."],
    ["admin without nim and without anything else", "admin", {}, 400, "NIM wajib disertakan oleh admin."],
    ["an empty body", "mhs1", {}, 400, required],
    ["a body that is a JSON array", "mhs1", [valid], 400, required],
    ["date missing", "mhs1", { mood_value: 3 }, 400, required],
    ["mood_value missing", "mhs1", { date: "2026-01-05" }, 400, required],
    ["mood_value null", "mhs1", { date: "2026-01-05", mood_value: null }, 400, required],
    ["date empty", "mhs1", { date: "", mood_value: 3 }, 400, required],
    ["date missing and a word as mood_value", "mhs1", { mood_value: "abc" }, 400, required],
    ["admin's date missing", "admin", { nim: "N001", mood_value: 3 }, 400, required],
    ["a word", "mhs1", { ...valid, mood_value: "abc" }, 400, notInteger],
    ["a fraction", "mhs1", { ...valid, mood_value: 3.5 }, 400, notInteger],
    ["a fraction as text", "mhs1", { ...valid, mood_value: "3.5" }, 400, notInteger],
    ["true", "mhs1", { ...valid, mood_value: true }, 400, notInteger],
    ["false", "mhs1", { ...valid, mood_value: false }, 400, notInteger],
    ["an array", "mhs1", { ...valid, mood_value: [3] }, 400, notInteger],
    ["an object", "mhs1", { ...valid, mood_value: { value: 3 } }, 400, notInteger],
    ["an exponent string", "mhs1", { ...valid, mood_value: "3e0" }, 400, notInteger],
    ["digits with spaces", "mhs1", { ...valid, mood_value: " 3 " }, 400, notInteger],
    ["a word and a bad date", "mhs1", { date: "2026-02-30", mood_value: "abc" }, 400, notInteger],
    ["0", "mhs1", { ...valid, mood_value: 0 }, 400, outOfRange],
    ["6", "mhs1", { ...valid, mood_value: 6 }, 400, outOfRange],
    ["-1", "mhs1", { ...valid, mood_value: -1 }, 400, outOfRange],
    ["'6' as text", "mhs1", { ...valid, mood_value: "6" }, 400, outOfRange],
    ["a huge number", "mhs1", { ...valid, mood_value: 99999999999999999999 }, 400, outOfRange],
    ["a huge digit string", "mhs1", { ...valid, mood_value: "99999999999999999999" }, 400, outOfRange],
    ["6 and a bad date", "mhs1", { date: "tomorrow", mood_value: 6 }, 400, outOfRange],
    ["30 February", "mhs1", { ...valid, date: "2026-02-30" }, 400, badDate],
    ["29 February of a common year", "mhs1", { ...valid, date: "2023-02-29" }, 400, badDate],
    ["29 February 1900", "mhs1", { ...valid, date: "1900-02-29" }, 400, badDate],
    ["31 April", "mhs1", { ...valid, date: "2026-04-31" }, 400, badDate],
    ["month 13", "mhs1", { ...valid, date: "2026-13-01" }, 400, badDate],
    ["day 0", "mhs1", { ...valid, date: "2026-01-00" }, 400, badDate],
    ["no leading zeros", "mhs1", { ...valid, date: "2026-1-5" }, 400, badDate],
    ["day first", "mhs1", { ...valid, date: "05-01-2026" }, 400, badDate],
    ["a timestamp", "mhs1", { ...valid, date: "2026-01-05T00:00:00Z" }, 400, badDate],
    ["a leading space", "mhs1", { ...valid, date: " 2026-01-05" }, 400, badDate],
    ["a number", "mhs1", { ...valid, date: 20260105 }, 400, badDate],
    ["an array", "mhs1", { ...valid, date: ["2026-01-05"] }, 400, badDate],
    ["non-ASCII digits", "mhs1", { ...valid, date: "٢٠٢٦-٠١-٠٥" }, 400, badDate],
    ["an unknown student", "admin", { ...valid, nim: "X999" }, 404, "Mahasiswa tidak ditemukan."],
    ["an unknown student and a bad date", "admin", { nim: "X999", date: "2026-02-30", mood_value: 3 }, 400, badDate],
    ["a student account without a profile", "noProfile", valid, 404, "Mahasiswa tidak ditemukan."],
    ["a student account without a profile, bad value", "noProfile", { ...valid, mood_value: 9 }, 400, outOfRange],
    ["a lecturer", "dosen", valid, 403, "Akses ditolak."],
  ])("%s", async (_name, who, body, status, error) => {
    const before = countMoods();
    expect(await post(tokens[who]!, body)).toMatchObject({ status, body: { error } });
    expect(countMoods()).toBe(before);
  });

  test("no token answers 401 and writes nothing", async () => {
    const before = countMoods();
    expect((await post("", valid)).status).toBe(401);
    expect(countMoods()).toBe(before);
  });

  test("a body that is not JSON counts as empty", async () => {
    const response = await service().request("POST", "/api/mahasiswa/mood", { token: tokens.mhs1!, rawBody: "date=2026-01-05", headers: { "content-type": "text/plain" } });
    expect(response).toMatchObject({ status: 400, body: { error: required } });
  });
});

describe("POST /mood writes", () => {
  test("a new entry answers 201 with the serialized entry; a student's nim in the body is ignored", async () => {
    const response = await post(tokens.mhs1!, { date: "2026-01-10", mood_value: 4, nim: "N002" });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(["created_at", "date", "id", "mood_value", "nim", "updated_at"]);
    expect(response.body).toMatchObject({ nim: "N001", date: "2026-01-10", mood_value: 4 });
    expect(response.body.created_at).toMatch(isoTimestamp);
    expect(response.body.updated_at).toBe(response.body.created_at);
    expect(moodRow(response.body.id)).toMatchObject({ nim: "N001", date: "2026-01-10", mood_value: 4 });
    expect(moodsOf("N002")).toHaveLength(0);
  });

  test("the leap day 2024-02-29 is a date; a digit string is a value", async () => {
    const response = await post(tokens.mhs1!, { date: "2024-02-29", mood_value: "2" });
    expect(response).toMatchObject({ status: 201, body: { date: "2024-02-29", mood_value: 2 } });
  });

  test("a second POST for the same date answers 200 and replaces the value in the same row", async () => {
    const first = await post(tokens.mhs1!, { date: "2026-01-11", mood_value: 2 });
    expect(first.status).toBe(201);
    sqlite().query("UPDATE mood_entries SET created_at = ?, updated_at = ? WHERE id = ?").run(old, old, first.body.id);

    const second = await post(tokens.mhs1!, { date: "2026-01-11", mood_value: "5" });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, nim: "N001", date: "2026-01-11", mood_value: 5, created_at: old });
    expect(second.body.updated_at).toMatch(isoTimestamp);
    expect(second.body.updated_at).not.toBe(old);
    expect(moodsOf("N001").filter((row) => row.date === "2026-01-11")).toEqual([
      { id: first.body.id, nim: "N001", date: "2026-01-11", mood_value: 5, created_at: old, updated_at: second.body.updated_at },
    ]);
  });

  test("an admin writes for the student named in nim", async () => {
    const response = await post(tokens.admin!, { nim: " N002 ", date: "2026-01-12", mood_value: 1 });
    expect(response).toMatchObject({ status: 201, body: { nim: "N002", date: "2026-01-12", mood_value: 1 } });
    expect(moodRow(response.body.id)?.nim).toBe("N002");
  });

  test("20 parallel POSTs for one date leave one row: one 201, the rest 200", async () => {
    const values = Array.from({ length: 20 }, (_, index) => (index % 5) + 1);
    const results = await Promise.all(values.map((mood_value) => post(tokens.mhs2!, { date: "2026-03-01", mood_value })));
    expect(results.filter((result) => result.status === 201)).toHaveLength(1);
    expect(results.filter((result) => result.status === 200)).toHaveLength(19);
    const rows = moodsOf("N002").filter((row) => row.date === "2026-03-01");
    expect(rows).toHaveLength(1);
    expect(new Set(results.map((result) => result.body.id))).toEqual(new Set([rows[0]!.id]));
    expect(values).toContain(rows[0]!.mood_value);
  });
});

describe("GET /mood/:nim", () => {
  test("entries come newest date first, whatever their ids and creation times", async () => {
    insertMood({ id: 500, nim: "N004", date: "2026-02-01", created_at: "2026-02-01T10:00:00.000Z" });
    insertMood({ id: 400, nim: "N004", date: "2026-03-01", created_at: "2026-01-01T10:00:00.000Z" });
    insertMood({ id: 600, nim: "N004", date: "2025-12-31", created_at: "2026-05-01T10:00:00.000Z" });
    const response = await list(tokens.mhs4!, "N004");
    expect(response.status).toBe(200);
    expect(response.body.map((entry: MoodRow) => entry.id)).toEqual([400, 500, 600]);
    expect(response.body[0]).toEqual({ id: 400, nim: "N004", date: "2026-03-01", mood_value: 3, created_at: "2026-01-01T10:00:00.000Z", updated_at: "2026-01-01T10:00:00.000Z" });
  });
});

describeListAccess("/mood/:nim", routes, 3);

describeUpdateLookups("/mood/:id", routes, { valid: { mood_value: 5 }, invalid: { mood_value: "abc" } });

describe("PUT /mood/:id", () => {
  test.each<[string, unknown, string]>([
    ["a word", { mood_value: "abc" }, "mood_value harus angka."],
    ["a fraction", { mood_value: 3.5 }, "mood_value harus angka."],
    ["true", { mood_value: true }, "mood_value harus angka."],
    ["null", { mood_value: null }, "mood_value harus angka."],
    ["an empty string", { mood_value: "" }, "mood_value harus angka."],
    ["an object", { mood_value: { a: 1 } }, "mood_value harus angka."],
    ["a word and a bad date", { mood_value: "abc", date: "2026-02-30" }, "mood_value harus angka."],
    ["0", { mood_value: 0 }, "mood_value harus 1-5."],
    ["6", { mood_value: 6 }, "mood_value harus 1-5."],
    ["'7' as text", { mood_value: "7" }, "mood_value harus 1-5."],
    ["a huge number", { mood_value: 1e300 }, "mood_value harus 1-5."],
    ["6 and a bad date", { mood_value: 6, date: "x" }, "mood_value harus 1-5."],
    ["30 February", { date: "2026-02-30" }, "format date YYYY-MM-DD."],
    ["a good value and a bad date", { mood_value: 4, date: "2026/01/01" }, "format date YYYY-MM-DD."],
    ["a null date", { date: null }, "format date YYYY-MM-DD."],
    ["an empty date", { date: "" }, "format date YYYY-MM-DD."],
    ["a numeric date", { date: 20260101 }, "format date YYYY-MM-DD."],
  ])("%s answers 400 and changes nothing", async (_name, body, error) => {
    const id = insertMood({ nim: "N001", date: "2027-03-01", mood_value: 2 });
    const before = moodRow(id);
    expect(await put(tokens.mhs1!, id, body)).toMatchObject({ status: 400, body: { error } });
    expect(moodRow(id)).toEqual(before);
    sqlite().query("DELETE FROM mood_entries WHERE id = ?").run(id);
  });

  test("the owner changes the value; the date stays and updated_at is set", async () => {
    const id = insertMood({ nim: "N001", date: "2027-04-01", mood_value: 2 });
    const response = await put(tokens.mhs1!, id, { mood_value: "5" });
    expect(response).toMatchObject({ status: 200, body: { id, nim: "N001", date: "2027-04-01", mood_value: 5, created_at: old } });
    expect(response.body.updated_at).toMatch(isoTimestamp);
    expect(response.body.updated_at).not.toBe(old);
    expect(moodRow(id)).toMatchObject({ mood_value: 5, date: "2027-04-01", updated_at: response.body.updated_at });
  });

  test("the owner moves the entry to another free date, the leap day included", async () => {
    const id = insertMood({ nim: "N001", date: "2027-04-02", mood_value: 2 });
    const response = await put(tokens.mhs1!, id, { date: "2028-02-29" });
    expect(response).toMatchObject({ status: 200, body: { id, date: "2028-02-29", mood_value: 2 } });
    expect(moodRow(id)?.date).toBe("2028-02-29");
  });

  test("an empty body only sets updated_at", async () => {
    const id = insertMood({ nim: "N001", date: "2027-04-03", mood_value: 3 });
    const response = await put(tokens.mhs1!, id, {});
    expect(response).toMatchObject({ status: 200, body: { id, date: "2027-04-03", mood_value: 3, created_at: old } });
    expect(moodRow(id)!.updated_at).not.toBe(old);
  });

  test("moving onto a date that already has an entry answers 409 and changes neither row", async () => {
    const moving = insertMood({ nim: "N001", date: "2027-05-01", mood_value: 1 });
    const holder = insertMood({ nim: "N001", date: "2027-05-02", mood_value: 5 });
    const [movingBefore, holderBefore] = [moodRow(moving), moodRow(holder)];
    expect(await put(tokens.mhs1!, moving, { date: "2027-05-02", mood_value: 3 })).toMatchObject({
      status: 409,
      body: { error: "Mood untuk tanggal itu sudah ada." },
    });
    expect(moodRow(moving)).toEqual(movingBefore);
    expect(moodRow(holder)).toEqual(holderBefore);
  });

  test("keeping its own date is no conflict, and another student's entry on that date is none either", async () => {
    const id = insertMood({ nim: "N001", date: "2027-06-01", mood_value: 1 });
    expect((await put(tokens.mhs1!, id, { date: "2027-06-01", mood_value: 2 })).status).toBe(200);
    insertMood({ nim: "N002", date: "2027-06-02" });
    expect(await put(tokens.mhs1!, id, { date: "2027-06-02" })).toMatchObject({ status: 200, body: { date: "2027-06-02" } });
  });

  test("an admin edits any student's entry", async () => {
    const id = insertMood({ nim: "N002", date: "2027-07-01", mood_value: 1 });
    expect(await put(tokens.admin!, id, { mood_value: 4 })).toMatchObject({ status: 200, body: { id, nim: "N002", mood_value: 4 } });
  });
});

describeDeletes(
  "/mood/:id",
  routes,
  // The date of a deleted mood can be recorded anew.
  async (token) => expect((await post(token, { date: "2028-03-01", mood_value: 3 })).status).toBe(201),
);

describe("odd input never causes a 500", () => {
  const odd: unknown[] = [
    null,
    [],
    {},
    "",
    "😀",
    1e308,
    -1e308,
    99999999999999999999,
    "99999999999999999999",
    [1, [2, [3]]],
    { nested: { deeper: [null, { x: "🙂" }] } },
    "\u0000",
    "2026-02-29\u0000",
    "-0",
  ];

  test("POST and PUT with odd values in every field answer 2xx or 4xx with an error text", async () => {
    const id = insertMood({ nim: "N001", date: "2029-01-01" });
    for (const value of odd) {
      for (const body of [{ date: value, mood_value: 3 }, { date: "2029-01-02", mood_value: value }, { date: "2029-01-03", mood_value: 2, nim: value }]) {
        for (const response of [await post(tokens.admin!, body), await post(tokens.mhs1!, body), await put(tokens.mhs1!, id, body)]) {
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) expect(typeof response.body.error).toBe("string");
        }
      }
    }
  });

  test.each([
    ["an emoji", "%F0%9F%98%80"],
    ["a NUL byte", "N001%00"],
    ["2000 characters", "x".repeat(2000)],
    ["a percent sign", "%25"],
    ["an exponent", "1e3"],
  ])("GET /mood/ with %s answers without a 500", async (_name, nim) => {
    const response = await list(tokens.admin!, nim);
    expect([200, 404]).toContain(response.status);
  });
});
