import type { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { describeDeletes, describeListAccess, describeUpdateLookups, entryTestService } from "../entries";

interface DiaryRow {
  id: number;
  nim: string;
  date: string;
  title: string;
  content: string;
  created_at: string;
  updated_at: string;
  dibagikan: number;
}

const old = "2020-01-01T00:00:00.000Z";

/** A row written straight into the table, with every column chosen by the test. */
function insertDiaryInto(sqlite: Database, row: { id?: number; nim: string; date: string; title?: string; content?: string; created_at?: string; dibagikan?: boolean }): number {
  const result = sqlite
    .query("INSERT INTO diary_entries (id, nim, date, title, content, created_at, updated_at, dibagikan) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")
    .get(row.id ?? null, row.nim, row.date, row.title ?? "Judul", row.content ?? "Isi", row.created_at ?? old, row.created_at ?? old, row.dibagikan ? 1 : 0) as { id: number };
  return result.id;
}

const routes = entryTestService({ path: "diary", table: "diary_entries", unknownText: "Diary tidak ditemukan.", deletedText: "Diary berhasil dihapus.", insert: insertDiaryInto });
const { sqlite, tokens, post, put, list } = routes;
const countDiaries = routes.count;
const diaryRow = (id: number) => routes.row(id) as DiaryRow | null;
const insertDiary = (row: Parameters<typeof insertDiaryInto>[1]) => insertDiaryInto(sqlite(), row);

const isoTimestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const emoji = "😀";

describe("POST /diary rules in order", () => {
  const required = "date dan content wajib diisi.";
  const badDate = "format date harus YYYY-MM-DD.";
  const titleTooLong = "title paling banyak 200 karakter.";
  const contentTooLong = "content paling banyak 20000 karakter.";
  const valid = { date: "2026-01-05", content: "Hari ini baik." };

  test.each<[string, string, unknown, number, string]>([
    ["admin without nim", "admin", valid, 400, "NIM wajib disertakan oleh admin."],
    ["admin with a blank nim", "admin", { ...valid, nim: "  " }, 400, "NIM wajib disertakan oleh admin."],
    ["admin with an array as nim", "admin", { ...valid, nim: ["N001"] }, 400, "NIM wajib disertakan oleh admin."],
    ["admin with an empty body", "admin", {}, 400, "NIM wajib disertakan oleh admin."],
    ["an empty body", "mhs1", {}, 400, required],
    ["date missing", "mhs1", { content: "isi" }, 400, required],
    ["content missing", "mhs1", { date: "2026-01-05" }, 400, required],
    ["content empty", "mhs1", { ...valid, content: "" }, 400, required],
    ["content only white space", "mhs1", { ...valid, content: " \n\t " }, 400, required],
    ["content null", "mhs1", { ...valid, content: null }, 400, required],
    ["date null", "mhs1", { ...valid, date: null }, 400, required],
    ["a bad date and empty content", "mhs1", { date: "2026-02-30", content: " " }, 400, required],
    ["30 February", "mhs1", { ...valid, date: "2026-02-30" }, 400, badDate],
    ["29 February of a common year", "mhs1", { ...valid, date: "2025-02-29" }, 400, badDate],
    ["a slash date", "mhs1", { ...valid, date: "2026/01/05" }, 400, badDate],
    ["a numeric date", "mhs1", { ...valid, date: 20260105 }, 400, badDate],
    ["a bad date and a long title", "mhs1", { ...valid, date: "2026-1-5", title: "x".repeat(201) }, 400, badDate],
    ["a title of 201 characters", "mhs1", { ...valid, title: "x".repeat(201) }, 400, titleTooLong],
    ["a title of 201 emoji", "mhs1", { ...valid, title: emoji.repeat(201) }, 400, titleTooLong],
    ["a numeric title", "mhs1", { ...valid, title: 5 }, 400, "title harus berupa teks."],
    ["an object as title", "mhs1", { ...valid, title: { a: 1 } }, 400, "title harus berupa teks."],
    ["a long title and long content", "mhs1", { ...valid, title: "x".repeat(201), content: "y".repeat(20001) }, 400, titleTooLong],
    ["content of 20001 characters", "mhs1", { ...valid, content: "y".repeat(20001) }, 400, contentTooLong],
    ["numeric content", "mhs1", { ...valid, content: 123 }, 400, "content harus berupa teks."],
    ["content as an array", "mhs1", { ...valid, content: ["isi"] }, 400, "content harus berupa teks."],
    ["content false", "mhs1", { ...valid, content: false }, 400, "content harus berupa teks."],
    ["an unknown student", "admin", { ...valid, nim: "X999" }, 404, "Mahasiswa tidak ditemukan."],
    ["an unknown student and a long title", "admin", { ...valid, nim: "X999", title: "x".repeat(201) }, 400, titleTooLong],
    ["a student account without a profile", "noProfile", valid, 404, "Mahasiswa tidak ditemukan."],
    ["a student account without a profile, no content", "noProfile", { date: "2026-01-05" }, 400, required],
    ["a lecturer", "dosen", valid, 403, "Akses ditolak."],
  ])("%s", async (_name, who, body, status, error) => {
    const before = countDiaries();
    expect(await post(tokens[who]!, body)).toMatchObject({ status, body: { error } });
    expect(countDiaries()).toBe(before);
  });

  test("no token answers 401 and writes nothing", async () => {
    const before = countDiaries();
    expect((await post("", valid)).status).toBe(401);
    expect(countDiaries()).toBe(before);
  });
});

describe("POST /diary writes", () => {
  test("201 with the serialized entry, title defaulting to empty; a student's nim in the body is ignored", async () => {
    const response = await post(tokens.mhs1!, { date: "2026-01-10", content: "  Catatan pertama.\n", nim: "N002" });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(["content", "created_at", "date", "dibagikan", "id", "nim", "title", "updated_at"]);
    expect(response.body).toMatchObject({ nim: "N001", date: "2026-01-10", title: "", content: "  Catatan pertama.\n", dibagikan: false });
    expect(response.body.created_at).toMatch(isoTimestamp);
    expect(response.body.updated_at).toBe(response.body.created_at);
    expect(diaryRow(response.body.id)).toMatchObject({ nim: "N001", title: "", content: "  Catatan pertama.\n" });
  });

  test("the limits are inclusive and count characters, not UTF-16 units; the leap day is a date", async () => {
    const response = await post(tokens.mhs1!, { date: "2024-02-29", title: emoji.repeat(200), content: emoji.repeat(20000) });
    expect(response).toMatchObject({ status: 201, body: { date: "2024-02-29" } });
    expect(diaryRow(response.body.id)!.content).toBe(emoji.repeat(20000));
    expect((await post(tokens.mhs1!, { date: "2024-02-29", title: "t".repeat(200), content: "c".repeat(20000) })).status).toBe(201);
  });

  test("a null title is the empty title", async () => {
    expect(await post(tokens.mhs1!, { ...{ date: "2026-01-11", content: "isi" }, title: null })).toMatchObject({ status: 201, body: { title: "" } });
  });

  test("many entries per date are kept", async () => {
    const first = await post(tokens.mhs2!, { date: "2026-01-12", title: "Pagi", content: "satu" });
    const second = await post(tokens.mhs2!, { date: "2026-01-12", title: "Malam", content: "dua" });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.id).not.toBe(second.body.id);
    expect((sqlite().query("SELECT count(*) AS n FROM diary_entries WHERE nim = 'N002' AND date = '2026-01-12'").get() as { n: number }).n).toBe(2);
  });

  test("an admin writes for the student named in nim", async () => {
    const response = await post(tokens.admin!, { nim: "N002", date: "2026-01-13", content: "oleh admin" });
    expect(response).toMatchObject({ status: 201, body: { nim: "N002", content: "oleh admin" } });
  });
});

describe("GET /diary/:nim", () => {
  test("newest date first, then newest created_at, then highest id", async () => {
    insertDiary({ id: 300, nim: "N004", date: "2026-01-02", created_at: "2026-01-02T08:00:00.000Z" });
    insertDiary({ id: 100, nim: "N004", date: "2026-01-03", created_at: "2026-01-01T00:00:00.000Z" });
    insertDiary({ id: 60, nim: "N004", date: "2026-01-02", created_at: "2026-01-02T09:00:00.000Z", dibagikan: true });
    insertDiary({ id: 50, nim: "N004", date: "2026-01-02", created_at: "2026-01-02T09:00:00.000Z", dibagikan: true });
    insertDiary({ id: 400, nim: "N004", date: "2025-12-31", created_at: "2026-06-01T00:00:00.000Z" });
    const response = await list(tokens.mhs4!, "N004");
    expect(response.status).toBe(200);
    expect(response.body.map((entry: DiaryRow) => entry.id)).toEqual([100, 60, 50, 300, 400]);
    expect(response.body[0]).toEqual({
      id: 100,
      nim: "N004",
      date: "2026-01-03",
      title: "Judul",
      content: "Isi",
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: "2026-01-01T00:00:00.000Z",
      dibagikan: false,
    });
    // Decisions §19: the advisor reads the two entries the student shared, in the same order.
    expect((await list(tokens.dosen!, "N004")).body.map((entry: DiaryRow) => entry.id)).toEqual([60, 50]);
  });
});

describeListAccess("/diary/:nim", routes, 5, 2);

describeUpdateLookups("/diary/:id", routes, { valid: { title: "punya orang" }, invalid: { content: "" } });

describe("PUT /diary/:id", () => {
  test.each<[string, unknown, string]>([
    ["empty content", { content: "" }, "content tidak boleh kosong."],
    ["white-space content", { content: "   " }, "content tidak boleh kosong."],
    ["null content", { content: null }, "content tidak boleh kosong."],
    ["empty content and a bad date", { content: "", date: "2026-02-30" }, "content tidak boleh kosong."],
    ["30 February", { date: "2026-02-30" }, "format date YYYY-MM-DD."],
    ["a null date", { date: null }, "format date YYYY-MM-DD."],
    ["a bad date and a long title", { date: "x", title: "t".repeat(201) }, "format date YYYY-MM-DD."],
    ["a long title", { title: "t".repeat(201) }, "title paling banyak 200 karakter."],
    ["a numeric title", { title: 7 }, "title harus berupa teks."],
    ["a long title and long content", { title: "t".repeat(201), content: "c".repeat(20001) }, "title paling banyak 200 karakter."],
    ["long content", { content: "c".repeat(20001) }, "content paling banyak 20000 karakter."],
    ["numeric content", { content: 42 }, "content harus berupa teks."],
    ["nested content", { content: { text: "isi" } }, "content harus berupa teks."],
  ])("%s answers 400 and changes nothing", async (_name, body, error) => {
    const id = insertDiary({ nim: "N001", date: "2027-03-01" });
    const before = diaryRow(id);
    expect(await put(tokens.mhs1!, id, body)).toMatchObject({ status: 400, body: { error } });
    expect(diaryRow(id)).toEqual(before);
    sqlite().query("DELETE FROM diary_entries WHERE id = ?").run(id);
  });

  test("only the fields given change, and updated_at is set", async () => {
    const id = insertDiary({ nim: "N001", date: "2027-04-01", title: "Lama", content: "Isi lama" });
    const titled = await put(tokens.mhs1!, id, { title: "Baru" });
    expect(titled).toMatchObject({ status: 200, body: { id, nim: "N001", date: "2027-04-01", title: "Baru", content: "Isi lama", created_at: old } });
    expect(titled.body.updated_at).toMatch(isoTimestamp);
    expect(titled.body.updated_at).not.toBe(old);

    const moved = await put(tokens.mhs1!, id, { date: "2028-02-29", content: "Isi baru" });
    expect(moved).toMatchObject({ status: 200, body: { date: "2028-02-29", title: "Baru", content: "Isi baru" } });
    expect(diaryRow(id)).toMatchObject({ date: "2028-02-29", title: "Baru", content: "Isi baru", created_at: old });
  });

  test("a null title clears the title", async () => {
    const id = insertDiary({ nim: "N001", date: "2027-04-02", title: "Ada" });
    expect(await put(tokens.mhs1!, id, { title: null })).toMatchObject({ status: 200, body: { title: "", content: "Isi" } });
  });

  test("an empty body only sets updated_at", async () => {
    const id = insertDiary({ nim: "N001", date: "2027-04-03" });
    expect(await put(tokens.mhs1!, id, {})).toMatchObject({ status: 200, body: { id, title: "Judul", content: "Isi", date: "2027-04-03" } });
    expect(diaryRow(id)!.updated_at).not.toBe(old);
  });

  test("an admin edits any student's entry", async () => {
    const id = insertDiary({ nim: "N002", date: "2027-05-01" });
    expect(await put(tokens.admin!, id, { content: "diubah admin" })).toMatchObject({ status: 200, body: { nim: "N002", content: "diubah admin" } });
  });
});

describeDeletes("/diary/:id", routes);

describe("decisions §19: an entry is the student's own unless she shares it", () => {
  const shared = (id: number) => diaryRow(id)!.dibagikan;

  test("private by default; shared when written with dibagikan true; PUT changes it, and leaves it when absent", async () => {
    const own = await post(tokens.mhs1!, { date: "2028-01-01", content: "Hanya untuk saya." });
    expect(own.body.dibagikan).toBe(false);
    const open = await post(tokens.mhs1!, { date: "2028-01-02", content: "Untuk dosen wali saya.", dibagikan: true });
    expect(open).toMatchObject({ status: 201, body: { dibagikan: true } });
    expect(shared(open.body.id)).toBe(1);
    // The advisor reads the shared entry, never the private one.
    const asAdvisor = (await list(tokens.dosen!, "N001")).body.map((entry: DiaryRow) => entry.id);
    expect(asAdvisor).toContain(open.body.id);
    expect(asAdvisor).not.toContain(own.body.id);
    expect((await put(tokens.mhs1!, open.body.id, { content: "Diubah." })).body.dibagikan).toBe(true);
    expect((await put(tokens.mhs1!, open.body.id, { dibagikan: false })).body).toMatchObject({ dibagikan: false, content: "Diubah." });
    expect((await list(tokens.dosen!, "N001")).body.map((entry: DiaryRow) => entry.id)).not.toContain(open.body.id);
    expect((await put(tokens.mhs1!, own.body.id, { dibagikan: true })).body.dibagikan).toBe(true);
    // The student reads every entry of hers, the data document too.
    const mine = (await list(tokens.mhs1!, "N001")).body.map((entry: DiaryRow) => entry.id);
    expect(mine).toEqual(expect.arrayContaining([own.body.id, open.body.id]));
  });

  test.each([["ya"], [1], [null], ["true"]])("dibagikan %p → 400, nothing written or changed", async (value) => {
    const before = countDiaries();
    expect(await post(tokens.mhs1!, { date: "2028-02-01", content: "isi", dibagikan: value })).toMatchObject({ status: 400, body: { error: "dibagikan harus true atau false." } });
    expect(countDiaries()).toBe(before);
    const id = insertDiary({ nim: "N001", date: "2028-02-02" });
    expect(await put(tokens.mhs1!, id, { dibagikan: value })).toMatchObject({ status: 400, body: { error: "dibagikan harus true atau false." } });
    expect(shared(id)).toBe(0);
  });
});

describe("odd input never causes a 500", () => {
  const odd: unknown[] = [null, [], {}, "", "😀", 1e308, 99999999999999999999, [1, [2, [3]]], { nested: { deeper: [null, { x: "🙂" }] } }, "\u0000", "\uD800"];

  test("POST and PUT with odd values in every field answer 2xx or 4xx with an error text", async () => {
    const id = insertDiary({ nim: "N001", date: "2029-01-01" });
    for (const value of odd) {
      const bodies = [
        { date: value, content: "isi" },
        { date: "2029-01-02", content: value },
        { date: "2029-01-02", content: "isi", title: value },
        { date: "2029-01-02", content: "isi", nim: value },
      ];
      for (const body of bodies) {
        for (const response of [await post(tokens.admin!, body), await post(tokens.mhs1!, body), await put(tokens.mhs1!, id, body)]) {
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) expect(typeof response.body.error).toBe("string");
        }
      }
    }
  });
});
