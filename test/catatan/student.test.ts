import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { catatanKonseling } from "../../src/db/schema";
import { TestService, standardAccounts } from "../helpers";

let service: TestService;
const tokens: Record<string, string> = {};
const notes: Record<string, number> = {};

function addNote(nim: string, nip: string, isi: string, tanggalCatat: string, reply = "") {
  return service.context.db
    .insert(catatanKonseling)
    .values({ nim, nip, isi, tanggalCatat, reply, tanggalReply: reply ? "2026-11-02T00:00:00.000Z" : null })
    .returning({ id: catatanKonseling.id })
    .get().id;
}

const noteRow = (id: number) =>
  service.context.db.$client.query("SELECT reply, tanggal_reply FROM catatan_konseling WHERE Id_catatan = ?").get(id) as { reply: string; tanggal_reply: string | null };

beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(standardAccounts);
  await service.addStudentWithoutProfile();
  Object.assign(tokens, await service.accessTokens(["admin", "dosen1", "dosen2", "mhs1", "mhs2"]));
  notes.older = addNote("N001", "D001", "Catatan pertama", "2026-11-01T08:00:00.000Z");
  notes.newer = addNote("N001", "D001", "Catatan kedua", "2026-11-03T08:00:00.000Z", "Sudah saya baca");
  notes.otherStudent = addNote("N002", "D002", "Untuk mahasiswa dua", "2026-11-02T08:00:00.000Z");
  notes.byOtherLecturer = addNote("N001", "D002", "Dari dosen dua", "2026-11-02T09:00:00.000Z");
});
afterAll(() => service.close());

describe("GET /api/mahasiswa/catatan", () => {
  test("a student gets their own notes, newest first, with the serialized keys", async () => {
    const response = await service.request("GET", "/api/mahasiswa/catatan?nim=N002", { token: tokens.mhs1 });
    expect(response.status).toBe(200);
    expect(response.body.map((note: { Id_catatan: number }) => note.Id_catatan)).toEqual([notes.newer, notes.byOtherLecturer, notes.older]);
    expect(response.body[0]).toEqual({
      Id_catatan: notes.newer,
      NIM: "N001",
      NIP: "D001",
      isi_catatan: "Catatan kedua",
      tanggal_catat: "2026-11-03T08:00:00.000Z",
      reply: "Sudah saya baca",
      tanggal_reply: "2026-11-02T00:00:00.000Z",
      status: "sudah_dibalas",
      dibaca_mahasiswa_pada: null,
      balasan_dibaca_dosen_pada: null,
      nama_dosen: "Dosen Satu",
      balasan_baru: false,
    });
    expect(response.body[2]).toMatchObject({ reply: "", tanggal_reply: null, status: "belum_dibalas" });
  });

  test.each([
    ["admin with nim", "admin", "?nim=N002", 200, null],
    ["admin without nim", "admin", "", 400, "NIM wajib disertakan oleh admin."],
    ["admin with an unknown nim", "admin", "?nim=X404", 404, "Mahasiswa tidak ditemukan."],
    ["a lecturer", "dosen1", "?nim=N001", 403, "Akses ditolak."],
  ])("%s", async (_name, who, query, status, error) => {
    const response = await service.request("GET", `/api/mahasiswa/catatan${query}`, { token: tokens[who] });
    expect(response.status).toBe(status);
    if (error) expect(response.body).toEqual({ error });
    else expect(response.body.map((note: { NIM: string }) => note.NIM)).toEqual(["N002"]);
  });

  test("a student account without a profile gets 404", async () => {
    const { access } = await service.login("tanpaprofil", "tanpa-pass-1");
    expect(await service.request("GET", "/api/mahasiswa/catatan", { token: access })).toMatchObject({ status: 404, body: { error: "Mahasiswa tidak ditemukan." } });
  });
});

describe("GET /api/mahasiswa/catatan/detail/<id>", () => {
  test.each([
    ["the student it is for", "mhs1", "older", 200],
    ["another student", "mhs2", "older", 403],
    ["the lecturer who wrote it", "dosen1", "older", 200],
    ["another lecturer", "dosen2", "older", 403],
    ["the other lecturer's own note", "dosen2", "byOtherLecturer", 200],
    ["an admin", "admin", "otherStudent", 200],
  ])("%s", async (_name, who, note, status) => {
    const response = await service.request("GET", `/api/mahasiswa/catatan/detail/${notes[note]}`, { token: tokens[who] });
    expect(response.status).toBe(status);
    if (status === 200) expect(response.body).toMatchObject({ Id_catatan: notes[note] });
    else expect(response.body).toEqual({ error: "Akses ditolak." });
  });

  test.each(["999999", "abc", "0", "-1", "1.5", "99999999999999999999"])("an unknown id %s answers 404", async (id) => {
    expect(await service.request("GET", `/api/mahasiswa/catatan/detail/${id}`, { token: tokens.admin })).toMatchObject({
      status: 404,
      body: { error: "Catatan tidak ditemukan." },
    });
  });

  test("needs a token", async () => {
    expect((await service.request("GET", `/api/mahasiswa/catatan/detail/${notes.older}`)).status).toBe(401);
  });
});

describe("replying to a note", () => {
  let fresh: number;
  beforeEach(() => {
    fresh = addNote("N001", "D001", "Bagaimana kabarmu?", "2026-11-04T08:00:00.000Z");
  });

  const reply = (method: "POST" | "PUT", id: number | string, token: string | undefined, body: unknown) =>
    service.request(method, `/api/mahasiswa/catatan/${id}/reply`, { token, body });

  test("the state table: POST on no reply, POST again refused, PUT replaces", async () => {
    const first = await reply("POST", fresh, tokens.mhs1, { reply: "  Baik, terima kasih.  " });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ message: expect.any(String), data: { Id_catatan: fresh, reply: "Baik, terima kasih.", status: "sudah_dibalas" } });
    const firstTime = first.body.data.tanggal_reply;
    expect(firstTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    expect(await reply("POST", fresh, tokens.mhs1, { reply: "Lagi" })).toMatchObject({ status: 400, body: { error: "Anda sudah pernah membalas catatan ini." } });
    expect(noteRow(fresh).reply).toBe("Baik, terima kasih.");

    await Bun.sleep(5);
    const edit = await reply("PUT", fresh, tokens.mhs1, { reply: "Sudah lebih baik." });
    expect(edit).toMatchObject({ status: 200, body: { data: { reply: "Sudah lebih baik.", status: "sudah_dibalas" } } });
    expect(edit.body.data.tanggal_reply > firstTime).toBe(true);
    expect(noteRow(fresh)).toEqual({ reply: "Sudah lebih baik.", tanggal_reply: edit.body.data.tanggal_reply });
  });

  test("PUT before any reply is refused and writes nothing", async () => {
    expect(await reply("PUT", fresh, tokens.mhs1, { reply: "Edit" })).toMatchObject({ status: 400, body: { error: "Belum ada balasan untuk diedit." } });
    expect(noteRow(fresh)).toEqual({ reply: "", tanggal_reply: null });
  });

  // Each row is checked against a note without a reply, except where the rule needs one.
  test.each([
    ["POST", "lecturer", "dosen1", {}, 403, "Hanya mahasiswa yang dapat membalas catatan."],
    ["PUT", "lecturer", "dosen1", {}, 403, "Hanya mahasiswa yang dapat mengedit balasan."],
    ["POST", "admin", "admin", { reply: "x" }, 403, "Hanya mahasiswa yang dapat membalas catatan."],
    ["POST", "unknown note", "mhs1", { reply: "x" }, 404, "Catatan tidak ditemukan."],
    ["POST", "another student's note", "mhs2", { reply: "x" }, 403, "Anda tidak dapat membalas catatan ini."],
    ["PUT", "another student's note", "mhs2", { reply: "x" }, 403, "Anda tidak dapat membalas catatan ini."],
    ["POST", "empty reply", "mhs1", { reply: "   " }, 400, "Balasan tidak boleh kosong."],
    ["POST", "missing reply", "mhs1", {}, 400, "Balasan tidak boleh kosong."],
    ["POST", "a number as reply", "mhs1", { reply: 5 }, 400, "Balasan tidak boleh kosong."],
    ["POST", "a reply over 5000 characters", "mhs1", { reply: "a".repeat(5001) }, 400, "Balasan paling banyak 5000 karakter."],
  ])("%s by %s answers %#", async (method, name, who, body, status, error) => {
    const id = name === "unknown note" ? 987654 : fresh;
    expect(await reply(method as "POST" | "PUT", id, tokens[who], body)).toMatchObject({ status, body: { error } });
    expect(noteRow(fresh)).toEqual({ reply: "", tanggal_reply: null });
  });

  test("the 404 comes before the reply text is checked, the 403 before the state", async () => {
    expect(await reply("PUT", "abc", tokens.mhs1, {})).toMatchObject({ status: 404, body: { error: "Catatan tidak ditemukan." } });
    expect(await reply("POST", notes.newer!, tokens.mhs2, {})).toMatchObject({ status: 403, body: { error: "Anda tidak dapat membalas catatan ini." } });
  });

  test("a reply of exactly 5000 characters is accepted", async () => {
    expect((await reply("POST", fresh, tokens.mhs1, { reply: "a".repeat(5000) })).status).toBe(200);
  });

  test("two first replies sent at once: exactly one succeeds", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => reply("POST", fresh, tokens.mhs1, { reply: `Balasan ${i}` })));
    const statuses = results.map((result) => result.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    const winner = results.find((result) => result.status === 200)!;
    expect(noteRow(fresh).reply).toBe(winner.body.data.reply);
  });
});
