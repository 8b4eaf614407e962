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

  test("a reply to another lecturer's note is not the author's news for this lecturer, but the advisor's (decisions §19)", async () => {
    await request("admin", "POST", "/api/dosen/catatan", { NIP: "D002", NIM: "N001", isi_catatan: "Dari dosen lain." });
    const other = (await request("mhs1", "GET", "/api/mahasiswa/catatan")).body.find((note: { NIP: string }) => note.NIP === "D002");
    expect((await request("mhs1", "POST", `/api/mahasiswa/catatan/${other.Id_catatan}/reply`, { reply: "Terima kasih." })).status).toBe(200);
    // D001 advises N001: the reply is new for them too, as the student's advisor.
    expect(await newReplies()).toBe(1);
    expect(await newReplies("admin", "?NIP=D001")).toBe(1);
  });
});

describe("decisions §19: a reply is new for the note's author and for the student's advisor, until each has seen it", () => {
  /** D002 (a counsellor, say) writes to N001, D001's advisee, and N001 replies. */
  async function counsellorsNoteReplied(): Promise<number> {
    const created = await request("admin", "POST", "/api/dosen/catatan", { NIP: "D002", NIM: "N001", isi_catatan: "Balas catatan ini: bagaimana tidurmu?" });
    expect((await request("mhs1", "POST", `/api/mahasiswa/catatan/${created.body.id}/reply`, { reply: "Hampir tidak bisa tidur." })).status).toBe(200);
    return created.body.id;
  }
  const storedOf = (id: number) =>
    lecturers.service.context.db.$client
      .query<{ author: string | null; advisor: string | null }, [number]>("SELECT balasan_dibaca_dosen_pada AS author, balasan_dilihat_doswal AS advisor FROM catatan_konseling WHERE Id_catatan = ?")
      .get(id)!;
  const noteIn = (notes: { Id_catatan: number }[], id: number) => notes.find((note) => note.Id_catatan === id);

  test("the author out of scope reads it with balasan_baru once; the advisor separately; neither sight marks the other's", async () => {
    const id = await counsellorsNoteReplied();
    // The author (D002: neither advisor nor handler) reads only her own note, new once.
    const author = await request("dosen2", "GET", "/api/dosen/catatan/N001");
    expect(author.status).toBe(200);
    expect(author.body.map((note: { Id_catatan: number }) => note.Id_catatan)).toEqual([id]);
    expect(author.body[0]).toMatchObject({ reply: "Hampir tidak bisa tidur.", balasan_baru: true, nama_dosen: "Dosen Dua" });
    expect((await request("dosen2", "GET", "/api/dosen/catatan/N001")).body[0].balasan_baru).toBe(false);
    expect(storedOf(id)).toEqual({ author: expect.stringMatching(isoTimestamp), advisor: null });
    // Still new for the advisor, on the list and on the student's page, once.
    expect(await newReplies()).toBe(1);
    const page = await request("dosen1", "GET", "/api/dosen/mahasiswa/N001");
    expect(noteIn(page.body.catatan, id)).toMatchObject({ balasan_baru: true });
    expect(noteIn((await request("dosen1", "GET", "/api/dosen/mahasiswa/N001")).body.catatan, id)).toMatchObject({ balasan_baru: false });
    expect(storedOf(id).advisor).toBe("D001");
    expect(await newReplies()).toBe(0);
  });

  test("the advisor seeing it first leaves it new for the author; an edited reply is new for both again", async () => {
    const id = await counsellorsNoteReplied();
    await request("dosen1", "GET", "/api/dosen/catatan/N001");
    expect(storedOf(id)).toEqual({ author: null, advisor: "D001" });
    expect((await request("dosen2", "GET", `/api/mahasiswa/catatan/detail/${id}`)).body).toMatchObject({ balasan_baru: true });
    expect(storedOf(id).author).toMatch(isoTimestamp);
    expect((await request("mhs1", "PUT", `/api/mahasiswa/catatan/${id}/reply`, { reply: "Masih sulit tidur." })).status).toBe(200);
    expect(storedOf(id)).toEqual({ author: null, advisor: null });
    expect(await newReplies()).toBe(1);
  });

  test("a new advisor finds the reply new even when the former advisor saw it", async () => {
    const id = await counsellorsNoteReplied();
    await request("dosen1", "GET", "/api/dosen/mahasiswa/N001");
    expect(await newReplies()).toBe(0);
    await lecturers.service.importAccounts("role,username,password,nim,nip_doswal\nmahasiswa,mhs1,,N001,D003\n");
    expect(await newReplies("tanpaBimbingan")).toBe(1);
    expect(storedOf(id).advisor).toBe("D001");
  });

  test("students and admins read no reply as new", async () => {
    const id = await counsellorsNoteReplied();
    expect(noteIn((await request("mhs1", "GET", "/api/mahasiswa/catatan")).body, id)).toMatchObject({ balasan_baru: false });
    expect(noteIn((await request("admin", "GET", "/api/dosen/catatan/N001")).body, id)).toMatchObject({ balasan_baru: false });
    expect(storedOf(id)).toEqual({ author: null, advisor: null });
  });

  test("a lecturer who never wrote to the student and does not advise them: 403, nothing marked", async () => {
    const id = await counsellorsNoteReplied();
    expect(await request("tanpaBimbingan", "GET", "/api/dosen/catatan/N001")).toMatchObject({ status: 403, body: { error: "Mahasiswa bukan bimbingan Anda." } });
    expect(storedOf(id)).toEqual({ author: null, advisor: null });
  });
});

describe("decisions §19: the advisee list filtered to who replied (balasan=1)", () => {
  test("only the advisees with a reply new for the lecturer, the latest reply first; a reply seen leaves the filter", async () => {
    await lecturers.service.importAccounts("role,username,password,nim,nama,nip_doswal,activated\nmahasiswa,mhs4,mhs-pass-4,N004,Mahasiswa Empat,D001,true\n");
    const other = await request("dosen1", "POST", "/api/dosen/catatan", { NIM: "N004", isi_catatan: "Apa kabar?" });
    const mhs4 = (await lecturers.service.login("mhs4", "mhs-pass-4")).access;
    const replying = async () => (await request("dosen1", "GET", "/api/dosen/mahasiswa?balasan=1")).body;
    expect(await replying()).toEqual({ data: [], total: 0, page: 1, total_pages: 0 });
    await reply("POST", "Baik.");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await lecturers.service.request("POST", `/api/mahasiswa/catatan/${other.body.id}/reply`, { token: mhs4, body: { reply: "Saya kurang baik." } });
    const both = await replying();
    expect(both.data.map((student: { NIM: string; balasan_baru: number }) => [student.NIM, student.balasan_baru])).toEqual([
      ["N004", 1],
      ["N001", 1],
    ]);
    expect(both.total).toBe(2);
    await request("dosen1", "GET", "/api/dosen/mahasiswa/N004");
    expect((await replying()).data.map((student: { NIM: string }) => student.NIM)).toEqual(["N001"]);
    // Another lecturer's advisees never appear.
    expect((await request("dosen2", "GET", "/api/dosen/mahasiswa?balasan=1")).body.total).toBe(0);
  });
});
