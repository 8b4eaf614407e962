import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addNote, countRows, type Lecturers, lecturerService, texts } from "../dosen/support";

let lecturers: Lecturers;

const post = (who: keyof Lecturers["tokens"], body: unknown) => lecturers.service.request("POST", "/api/dosen/catatan", { token: lecturers.tokens[who], body });
const noteRow = (id: number) =>
  lecturers.service.context.db.$client.query<Record<string, unknown>, [number]>("SELECT NIM, NIP, isi_catatan, tanggal_catat, reply, tanggal_reply FROM catatan_konseling WHERE Id_catatan = ?").get(id);

beforeAll(async () => {
  lecturers = await lecturerService();
});
afterAll(() => lecturers.service.close());

const longText = "a".repeat(5001);

describe("POST /api/dosen/catatan: rules in order, nothing written on rejection", () => {
  test.each([
    ["admin: an empty body", "admin", {}, 400, texts.nipRequired],
    ["admin: NIP before NIM and isi_catatan", "admin", { NIM: "N001", isi_catatan: "Halo" }, 400, texts.nipRequired],
    ["admin: a blank NIP", "admin", { NIP: "   ", NIM: "N001", isi_catatan: "Halo" }, 400, texts.nipRequired],
    ["admin: a NIP that is not text", "admin", { NIP: true, NIM: "N001", isi_catatan: "Halo" }, 400, texts.nipRequired],
    ["admin: NIM missing", "admin", { NIP: "D001", isi_catatan: "Halo" }, 400, texts.noteFieldsRequired],
    ["admin: missing fields before an unknown NIP", "admin", { NIP: "D999", NIM: "", isi_catatan: "Halo" }, 400, texts.noteFieldsRequired],
    ["admin: too long before an unknown student", "admin", { NIP: "D001", NIM: "X404", isi_catatan: longText }, 400, texts.noteTooLong],
    ["admin: an unknown student before an unknown NIP", "admin", { NIP: "D999", NIM: "X404", isi_catatan: "Halo" }, 404, texts.studentUnknown],
    ["admin: an unknown NIP", "admin", { NIP: "D999", NIM: "N001", isi_catatan: "Halo" }, 404, texts.lecturerUnknown],
    ["lecturer: an empty body", "dosen1", {}, 400, texts.noteFieldsRequired],
    ["lecturer: NIM missing", "dosen1", { isi_catatan: "Halo" }, 400, texts.noteFieldsRequired],
    ["lecturer: isi_catatan missing", "dosen1", { NIM: "N001" }, 400, texts.noteFieldsRequired],
    ["lecturer: isi_catatan blank after trimming", "dosen1", { NIM: "N001", isi_catatan: " \n\t " }, 400, texts.noteFieldsRequired],
    ["lecturer: isi_catatan not text", "dosen1", { NIM: "N001", isi_catatan: 42 }, 400, texts.noteFieldsRequired],
    ["lecturer: a blank NIM", "dosen1", { NIM: "  ", isi_catatan: "Halo" }, 400, texts.noteFieldsRequired],
    ["lecturer: 5001 characters", "dosen1", { NIM: "N001", isi_catatan: longText }, 400, texts.noteTooLong],
    ["lecturer: 5001 emoji", "dosen1", { NIM: "N001", isi_catatan: "😀".repeat(5001) }, 400, texts.noteTooLong],
    ["lecturer: too long before an unknown student", "dosen1", { NIM: "X404", isi_catatan: longText }, 400, texts.noteTooLong],
    ["lecturer: an unknown student", "dosen1", { NIM: "X404", isi_catatan: "Halo" }, 404, texts.studentUnknown],
    ["lecturer: another lecturer's student", "dosen1", { NIM: "N002", isi_catatan: "Halo" }, 403, texts.notAdvisee],
    ["lecturer: a student without an advisor", "dosen1", { NIM: "N003", isi_catatan: "Halo" }, 403, texts.notAdvisee],
    ["lecturer: naming NIP does not borrow another lecturer's students", "dosen1", { NIM: "N002", NIP: "D002", isi_catatan: "Halo" }, 403, texts.notAdvisee],
    ["a dosen account without a lecturer profile", "tanpaProfil", { NIM: "N001", isi_catatan: "Halo" }, 403, texts.notAdvisee],
    ["a dosen account without a lecturer profile, for a student without an advisor", "tanpaProfil", { NIM: "N003", isi_catatan: "Halo" }, 403, texts.notAdvisee],
  ] as const)("%s", async (_name, who, body, status, error) => {
    const before = countRows(lecturers.service, "catatan_konseling");
    expect(await post(who, body)).toMatchObject({ status, body: { error } });
    expect(countRows(lecturers.service, "catatan_konseling")).toBe(before);
  });

  test("a body that is not JSON counts as empty", async () => {
    const response = await lecturers.service.request("POST", "/api/dosen/catatan", {
      token: lecturers.tokens.dosen1,
      rawBody: "NIM=N001",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response).toMatchObject({ status: 400, body: { error: texts.noteFieldsRequired } });
  });
});

describe("POST /api/dosen/catatan: success", () => {
  test("a lecturer writes for an advisee: 201 {message, id}, text trimmed, now as tanggal_catat, no reply", async () => {
    const before = Date.now();
    const response = await post("dosen1", { NIM: " N001 ", isi_catatan: "  Jaga pola tidur.  " });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(["id", "message"]);
    expect(typeof response.body.message).toBe("string");
    const row = noteRow(response.body.id)!;
    expect(row).toEqual({ NIM: "N001", NIP: "D001", isi_catatan: "Jaga pola tidur.", tanggal_catat: expect.any(String), reply: "", tanggal_reply: null });
    expect(String(row.tanggal_catat)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(String(row.tanggal_catat))).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(String(row.tanggal_catat))).toBeLessThanOrEqual(Date.now() + 5);
  });

  test("a lecturer's own NIP is the author whatever the body says", async () => {
    const response = await post("dosen1", { NIM: "N001", NIP: "D002", isi_catatan: "Catatan" });
    expect(response.status).toBe(201);
    expect(noteRow(response.body.id)).toMatchObject({ NIP: "D001" });
  });

  test("exactly 5000 characters (emoji count once) are accepted", async () => {
    for (const text of ["a".repeat(5000), "😀".repeat(5000)]) {
      const response = await post("dosen1", { NIM: "N001", isi_catatan: text });
      expect(response.status).toBe(201);
      expect(noteRow(response.body.id)).toMatchObject({ isi_catatan: text });
    }
  });

  test("an admin writes in any lecturer's name, for any student", async () => {
    const response = await post("admin", { NIP: " D002 ", NIM: "N001", isi_catatan: "Dari admin" });
    expect(response.status).toBe(201);
    expect(noteRow(response.body.id)).toMatchObject({ NIM: "N001", NIP: "D002", isi_catatan: "Dari admin" });
  });
});

describe("GET /api/dosen/catatan/<nim>", () => {
  test("all notes of the student, newest first (ties by the higher id), for the advisor and admins", async () => {
    const tied = "2030-01-01T00:00:00.000Z";
    const first = addNote(lecturers.service, "N002", "D002", "Pertama", tied);
    const second = addNote(lecturers.service, "N002", "D001", "Kedua", tied);
    const older = addNote(lecturers.service, "N002", "D002", "Lama", "2026-01-01T00:00:00.000Z");
    for (const who of ["dosen2", "admin"] as const) {
      const response = await lecturers.service.request("GET", "/api/dosen/catatan/N002", { token: lecturers.tokens[who] });
      expect(response.status).toBe(200);
      expect(response.body.map((note: { Id_catatan: number }) => note.Id_catatan)).toEqual([second, first, older]);
    }
  });

  // decisions §9: the advisor scope holds here too, after the 404 of an unknown student.
  test.each([
    ["another lecturer who wrote the student no note", "tanpaBimbingan", "N002", 403, texts.notAdvisee],
    ["a lecturer account without a profile", "tanpaProfil", "N002", 403, texts.notAdvisee],
    ["a lecturer, for a student without advisor", "dosen1", "N003", 403, texts.notAdvisee],
    ["a lecturer, for an unknown student", "dosen2", "X404", 404, texts.studentUnknown],
  ] as const)("%s → %d", async (_name, who, nim, status, error) => {
    expect(await lecturers.service.request("GET", `/api/dosen/catatan/${nim}`, { token: lecturers.tokens[who] })).toMatchObject({ status, body: { error } });
  });

  // Decisions §19: a note belongs to its conversation.
  test("a lecturer who wrote to a student not theirs reads the notes they wrote, and nothing else of the student", async () => {
    const own = addNote(lecturers.service, "N002", "D001", "Catatan dari dosen lain", "2030-02-01T00:00:00.000Z");
    const response = await lecturers.service.request("GET", "/api/dosen/catatan/N002", { token: lecturers.tokens.dosen1 });
    expect(response.status).toBe(200);
    expect(response.body.length).toBeGreaterThan(0);
    expect(response.body.every((note: { NIP: string }) => note.NIP === "D001")).toBe(true);
    expect(response.body.map((note: { Id_catatan: number }) => note.Id_catatan)).toContain(own);
    expect(await lecturers.service.request("GET", "/api/dosen/mahasiswa/N002", { token: lecturers.tokens.dosen1 })).toMatchObject({ status: 403, body: { error: texts.notAdvisee } });
  });

  test("the serialized keys of a note", async () => {
    const response = await lecturers.service.request("GET", "/api/dosen/catatan/N001", { token: lecturers.tokens.dosen1 });
    expect(response.status).toBe(200);
    expect(response.body.length).toBeGreaterThan(0);
    expect(Object.keys(response.body[0]).sort()).toEqual(["Id_catatan", "NIM", "NIP", "balasan_baru", "balasan_dibaca_dosen_pada", "dibaca_mahasiswa_pada", "isi_catatan", "nama_dosen", "reply", "status", "tanggal_catat", "tanggal_reply"]);
    expect(response.body[0]).toMatchObject({ reply: "", tanggal_reply: null, status: "belum_dibalas", balasan_baru: false });
  });

  test("a student without notes gets an empty array; an unknown student a 404", async () => {
    expect(await lecturers.service.request("GET", "/api/dosen/catatan/N003", { token: lecturers.tokens.admin })).toMatchObject({ status: 200, body: [] });
    expect(await lecturers.service.request("GET", "/api/dosen/catatan/X404", { token: lecturers.tokens.dosen1 })).toMatchObject({
      status: 404,
      body: { error: texts.studentUnknown },
    });
  });
});
