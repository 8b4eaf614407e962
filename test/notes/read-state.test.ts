import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { type Lecturers, lecturerService } from "../dosen/support";

// Decisions §13: notes are noticed. A note records when its student first opened it
// (dibaca_mahasiswa_pada) and when its lecturer first saw the reply
// (balasan_dibaca_dosen_pada); the lecturer's list counts the replies not seen yet.

let lecturers: Lecturers;
let noteId: number;
beforeEach(async () => {
  lecturers = await lecturerService();
  const created = await request("dosen1", "POST", "/api/dosen/catatan", { NIM: "N001", isi_catatan: "Bagaimana kabar Anda minggu ini?" });
  noteId = created.body.id;
});
afterEach(() => lecturers.service.close());

type Caller = keyof Lecturers["tokens"];
function request(caller: Caller, method: string, path: string, body?: unknown) {
  return lecturers.service.request(method, path, { token: lecturers.tokens[caller], body });
}
const stored = () =>
  lecturers.service.context.db.$client
    .query<{ read: string | null; seen: string | null }, [number]>("SELECT dibaca_mahasiswa_pada AS read, balasan_dibaca_dosen_pada AS seen FROM catatan_konseling WHERE Id_catatan = ?")
    .get(noteId)!;
const newReplies = async (caller: Caller = "dosen1", query = "") =>
  (await request(caller, "GET", `/api/dosen/mahasiswa${query}`)).body.data.find((student: { NIM: string }) => student.NIM === "N001")?.balasan_baru;
const reply = (method: "POST" | "PUT", text: string) => request("mhs1", method, `/api/mahasiswa/catatan/${noteId}/reply`, { reply: text });
const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("the student opens a note", () => {
  test("unread in the list until the student opens its detail; the first opening is kept", async () => {
    expect((await request("mhs1", "GET", "/api/mahasiswa/catatan")).body[0]).toMatchObject({ Id_catatan: noteId, dibaca_mahasiswa_pada: null });
    const opened = await request("mhs1", "GET", `/api/mahasiswa/catatan/detail/${noteId}`);
    expect(opened.status).toBe(200);
    expect(opened.body.dibaca_mahasiswa_pada).toMatch(isoTimestamp);
    expect(stored().read).toBe(opened.body.dibaca_mahasiswa_pada);
    const again = await request("mhs1", "GET", `/api/mahasiswa/catatan/detail/${noteId}`);
    expect(again.body.dibaca_mahasiswa_pada).toBe(opened.body.dibaca_mahasiswa_pada);
    expect((await request("mhs1", "GET", "/api/mahasiswa/catatan")).body[0].dibaca_mahasiswa_pada).toBe(opened.body.dibaca_mahasiswa_pada);
  });

  test.each<[Caller]>([["admin"], ["dosen1"]])("%s opening it marks nothing read", async (caller) => {
    expect((await request(caller, "GET", `/api/mahasiswa/catatan/detail/${noteId}`)).status).toBe(200);
    expect(stored().read).toBeNull();
  });

  test("another student's note: 403, nothing marked", async () => {
    const response = await lecturers.service.request("GET", `/api/mahasiswa/catatan/detail/${noteId}`, {
      token: (await lecturers.service.accessTokens(["mhs2"])).mhs2,
    });
    expect(response.status).toBe(403);
    expect(stored().read).toBeNull();
  });

  test("the lecturer sees that the student read it", async () => {
    await request("mhs1", "GET", `/api/mahasiswa/catatan/detail/${noteId}`);
    expect((await request("dosen1", "GET", "/api/dosen/catatan/N001")).body[0].dibaca_mahasiswa_pada).toMatch(isoTimestamp);
  });
});

describe("the lecturer sees which advisees replied since they last looked", () => {
  test("a reply counts in the list until the lecturer opens the student; the page shows it as new once", async () => {
    expect(await newReplies()).toBe(0);
    expect((await reply("POST", "Baik, Bu.")).status).toBe(200);
    expect(await newReplies()).toBe(1);
    const page = await request("dosen1", "GET", "/api/dosen/mahasiswa/N001");
    expect(page.body.catatan[0]).toMatchObject({ reply: "Baik, Bu.", balasan_dibaca_dosen_pada: null });
    expect(stored().seen).toMatch(isoTimestamp);
    expect(await newReplies()).toBe(0);
    expect((await request("dosen1", "GET", "/api/dosen/mahasiswa/N001")).body.catatan[0].balasan_dibaca_dosen_pada).toBe(stored().seen);
  });

  test("an edited reply is new again", async () => {
    await reply("POST", "Baik.");
    await request("dosen1", "GET", "/api/dosen/mahasiswa/N001");
    expect(await newReplies()).toBe(0);
    await reply("PUT", "Sebenarnya saya sedang kesulitan.");
    expect(stored().seen).toBeNull();
    expect(await newReplies()).toBe(1);
  });

  test.each([
    ["the notes list", "/api/dosen/catatan/N001"],
    ["the note's detail", "/api/mahasiswa/catatan/detail/:id"],
  ])("the lecturer opening %s marks the reply seen", async (_, path) => {
    await reply("POST", "Baik.");
    expect((await request("dosen1", "GET", path.replace(":id", String(noteId)))).status).toBe(200);
    expect(stored().seen).toMatch(isoTimestamp);
    expect(await newReplies()).toBe(0);
  });

  test("an admin looking (as the lecturer, with NIP) counts the lecturer's replies and marks nothing", async () => {
    await reply("POST", "Baik.");
    expect(await newReplies("admin", "?NIP=D001")).toBe(1);
    await request("admin", "GET", "/api/dosen/mahasiswa/N001");
    await request("admin", "GET", "/api/dosen/catatan/N001");
    expect(stored().seen).toBeNull();
  });

  test("another lecturer's notes to the student are not counted for this one", async () => {
    await request("admin", "POST", "/api/dosen/catatan", { NIP: "D002", NIM: "N001", isi_catatan: "Dari dosen lain." });
    const other = (await request("mhs1", "GET", "/api/mahasiswa/catatan")).body.find((note: { NIP: string }) => note.NIP === "D002");
    expect((await request("mhs1", "POST", `/api/mahasiswa/catatan/${other.Id_catatan}/reply`, { reply: "Terima kasih." })).status).toBe(200);
    expect(await newReplies()).toBe(0);
    expect(await newReplies("admin", "?NIP=D001")).toBe(0);
  });
});
