import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { photoForm } from "../photos/fixtures";
import { actorNameSql } from "../../src/audit/names";
import type { AuditRow } from "../../src/audit/trail";
import { verifyAuditChain } from "../../src/audit/verify";
import { TestService, fourthStudent, jawaban, passwords, signedInService } from "../helpers";

// The audit rows every route leaves (decisions: Audit trail), through app.handle(): a
// lecturer's or admin's read of a student's data leaves one `view` row per student, any
// write leaves its row before the answer is sent, a student's read of their own data and
// every refused request leave none.

let service: TestService;
let tokens: Record<"admin" | "dosen1" | "dosen2" | "mhs1" | "mhs2" | "mhs4", string>;
let noteId: number;
let moodId: number;
let diaryId: number;

/** A row as audit list shows it: the actor's name looked up, the students from audit_subjects. */
type Row = Pick<AuditRow, "actor_user_id" | "actor_username" | "actor_role" | "actor_name" | "client_address" | "nim" | "target" | "detail"> & { action: string };

const lastId = () => (service.context.db.$client.query("SELECT coalesce(max(id), 0) AS id FROM audit_log").get() as { id: number }).id;
const rowsAfter = (id: number) =>
  service.context.db.$client
    // The actor's name as shown (looked up now) and the row's students as listed (space-separated), as audit list gives them.
    .query(
      `SELECT actor_user_id, actor_username, actor_role, ${actorNameSql} AS actor_name, client_address, action,
         (SELECT group_concat(nim, ' ') FROM (SELECT nim FROM audit_subjects WHERE audit_id = audit_log.id ORDER BY nim)) AS nim, target, detail
       FROM audit_log WHERE id > ? ORDER BY id`,
    )
    .all(id) as Row[];
/** The rows of reads are not waited for: they gather for a moment, and are written now. */
const settled = () => service.context.audit.flush();
const userId = (username: string) => (service.context.db.$client.query("SELECT Id_User FROM users WHERE username = ?").get(username) as { Id_User: number }).Id_User;

/** What a row says about who acted, short: `username (role)`; `anonim` for nobody known. */
const who = (row: Row) => (row.actor_username === null ? row.actor_role : `${row.actor_username} (${row.actor_role})`);
const summary = (rows: Row[]) => rows.map((row) => ({ who: who(row), action: row.action, nim: row.nim, target: row.target }));

async function rowsOf(method: string, path: string, options: { token?: string; body?: unknown; rawBody?: RequestInit["body"] } = {}) {
  const before = lastId();
  const response = await service.request(method, path, options);
  await settled();
  return { response, rows: rowsAfter(before) };
}

beforeAll(async () => {
  ({ service, tokens } = await signedInService(["admin", "dosen1", "dosen2", "mhs1", "mhs2", "mhs4"], { more: [fourthStudent] }));
  // mhs1 (N001, advisee of dosen1) has data of every kind.
  expect((await service.request("POST", "/api/mahasiswa/kuesioner", { token: tokens.mhs1, body: { jawaban: jawaban(2, 3) } })).status).toBe(201);
  moodId = (await service.request("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-01-05", mood_value: 4 } })).body.id;
  diaryId = (await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-01-05", content: "hari yang panjang" } })).body.id;
  noteId = (await service.request("POST", "/api/dosen/catatan", { token: tokens.dosen1, body: { NIM: "N001", isi_catatan: "Mari bertemu." } })).body.id;
  expect((await service.request("PUT", "/api/mahasiswa/profil/foto", { token: tokens.mhs1, rawBody: photoForm() })).status).toBe(200);
  await settled();
});
afterAll(() => service.close());

describe("a lecturer's and an admin's reads", () => {
  const reads: [who: "dosen1" | "admin", path: string, target: string, nims: (string | null)[]][] = [
    ["dosen1", "/api/dosen/mahasiswa", "GET /api/dosen/mahasiswa", ["N001", "N004"]],
    ["dosen1", "/api/dosen/mahasiswa/N001", "GET /api/dosen/mahasiswa/:nim", ["N001"]],
    ["dosen1", "/api/mahasiswa/hasil/N001", "GET /api/mahasiswa/hasil/:nim", ["N001"]],
    ["dosen1", "/api/mahasiswa/can_submit/N001", "GET /api/mahasiswa/can_submit/:nim", ["N001"]],
    ["dosen1", "/api/mahasiswa/profil/data/N001", "GET /api/mahasiswa/profil/data/:nim", ["N001"]],
    ["dosen1", "/api/mahasiswa/profil/foto/N001", "GET /api/mahasiswa/profil/foto/:nim", ["N001"]],
    ["dosen1", "/api/mahasiswa/mood/N001", "GET /api/mahasiswa/mood/:nim", ["N001"]],
    ["dosen1", "/api/mahasiswa/diary/N001", "GET /api/mahasiswa/diary/:nim", ["N001"]],
    ["dosen1", "/api/dosen/catatan/N001", "GET /api/dosen/catatan/:nim", ["N001"]],
    ["dosen1", "/api/mahasiswa/catatan/detail/NOTE", "GET /api/mahasiswa/catatan/detail/:id_catatan", ["N001"]],
    ["dosen1", "/api/dosen/statistik", "GET /api/dosen/statistik", [null]],
    ["admin", "/api/mahasiswa/history?nim=N001", "GET /api/mahasiswa/history", ["N001"]],
    ["admin", "/api/mahasiswa/catatan?nim=N001", "GET /api/mahasiswa/catatan", ["N001"]],
    ["admin", "/api/dosen/mahasiswa?NIP=D001&per_page=1", "GET /api/dosen/mahasiswa", ["N001"]],
  ];

  test.each(reads)("%s GET %s: one view row naming every student it showed, and the route's pattern", async (reader, path, target, nims) => {
    const { response, rows } = await rowsOf("GET", path.replace("NOTE", String(noteId)), { token: tokens[reader] });
    expect(response.status).toBe(200);
    expect(summary(rows)).toEqual([{ who: `${reader} (${reader === "admin" ? "admin" : "dosen"})`, action: "view", nim: nims[0] === null ? null : nims.join(" "), target }]);
    for (const row of rows) {
      expect(row.actor_user_id).toBe(userId(reader));
      expect(row.client_address).toBe(service.address);
    }
  });

  test("the row names the reader's name and, for statistics, whose advisees were counted", async () => {
    const { rows } = await rowsOf("GET", "/api/dosen/statistik", { token: tokens.dosen1 });
    expect(rows).toEqual([expect.objectContaining({ actor_name: "Dosen Satu", nim: null, detail: "NIP D001" })]);
    const admin = await rowsOf("GET", "/api/dosen/statistik?NIP=D002", { token: tokens.admin });
    expect(admin.rows).toEqual([expect.objectContaining({ actor_role: "admin", nim: null, detail: "NIP D002" })]);
  });

  test("an empty page of students leaves no row", async () => {
    const { response, rows } = await rowsOf("GET", "/api/dosen/mahasiswa?q=tidak-ada-yang-cocok", { token: tokens.dosen1 });
    expect(response.body.data).toEqual([]);
    expect(rows).toEqual([]);
  });

  test("the photo without a token (an <img>) is a view by anonim from the client's address, written when its minute ends", async () => {
    const before = lastId();
    const { response, rows } = await rowsOf("GET", "/api/mahasiswa/profil/foto/N001");
    expect(response.status).toBe(200);
    expect(rows).toEqual([]);
    await service.context.audit.flushAll();
    expect(rowsAfter(before)).toEqual([
      { actor_user_id: null, actor_username: null, actor_role: "anonim", actor_name: null, client_address: service.address, action: "view", nim: "N001", target: "GET /api/mahasiswa/profil/foto/:nim", detail: null },
    ]);
  });

  test("a photo answered 304 from the browser's copy sends nothing and leaves no row", async () => {
    const etag = (await service.app.handle(new Request("http://localhost/api/mahasiswa/profil/foto/N001"))).headers.get("etag")!;
    await settled();
    const before = lastId();
    const response = await service.app.handle(new Request("http://localhost/api/mahasiswa/profil/foto/N001", { headers: { "if-none-match": etag } }));
    await settled();
    expect(response.status).toBe(304);
    expect(rowsAfter(before)).toEqual([]);
  });
});

describe("when the rows of reads are written", () => {
  test("a read's row carries the time of the read, not of the moment it is written", async () => {
    const before = lastId();
    try {
      setSystemTime(new Date("2026-04-01T03:00:00.000Z"));
      expect((await service.request("GET", "/api/mahasiswa/mood/N001", { token: tokens.dosen1 })).status).toBe(200);
      setSystemTime(new Date("2026-04-01T03:00:05.000Z"));
      await settled();
    } finally {
      setSystemTime();
    }
    const at = service.context.db.$client.query("SELECT at FROM audit_log WHERE id > ?").all(before) as { at: string }[];
    expect(at).toEqual([{ at: "2026-04-01T03:00:00.000Z" }]);
  });

  test("a write's row takes the waiting rows of reads with it, in their order, before its answer", async () => {
    const before = lastId();
    expect((await service.request("GET", "/api/mahasiswa/diary/N001", { token: tokens.dosen1 })).status).toBe(200);
    // No flush: the lecturer's note is answered only once its row, and so the waiting one, is on disk.
    expect((await service.request("POST", "/api/dosen/catatan", { token: tokens.dosen1, body: { NIM: "N001", isi_catatan: "Sampai jumpa." } })).status).toBe(201);
    expect(summary(rowsAfter(before)).map((row) => `${row.action} ${row.target}`)).toEqual(["view GET /api/mahasiswa/diary/:nim", "create POST /api/dosen/catatan"]);
  });

  const counted = (before: number) =>
    service.context.db.$client
      .query(
        `SELECT actor_username AS who, (SELECT group_concat(nim, ' ') FROM (SELECT nim FROM audit_subjects WHERE audit_id = audit_log.id ORDER BY nim)) AS nim, target, reads
         FROM audit_log WHERE id > ? ORDER BY id`,
      )
      .all(before) as {
      who: string;
      nim: string;
      target: string;
      reads: number;
    }[];

  /** A successful read by a lecturer or an admin. */
  const read = async (reader: "dosen1" | "admin", path: string) => expect((await service.request("GET", path, { token: tokens[reader] })).status).toBe(200);

  test("the same read repeated while its row waits is counted in that row; any difference is a row of its own", async () => {
    const before = lastId();
    await read("dosen1", "/api/mahasiswa/mood/N001");
    await read("dosen1", "/api/mahasiswa/hasil/N001");
    await read("dosen1", "/api/mahasiswa/mood/N001");
    await read("admin", "/api/mahasiswa/mood/N001");
    await read("dosen1", "/api/mahasiswa/mood/N004");
    await read("dosen1", "/api/mahasiswa/mood/N001");
    await settled();
    // In the order of each row's first read; every read is counted once.
    expect(counted(before)).toEqual([
      { who: "dosen1", nim: "N001", target: "GET /api/mahasiswa/mood/:nim", reads: 3 },
      { who: "dosen1", nim: "N001", target: "GET /api/mahasiswa/hasil/:nim", reads: 1 },
      { who: "admin", nim: "N001", target: "GET /api/mahasiswa/mood/:nim", reads: 1 },
      { who: "dosen1", nim: "N004", target: "GET /api/mahasiswa/mood/:nim", reads: 1 },
    ]);
  });

  test("a lecturer's list page is one row naming its students, counted when repeated; a write ends the waiting rows, so a later read is a new row", async () => {
    const before = lastId();
    for (let page = 0; page < 2; page++) await read("dosen1", "/api/dosen/mahasiswa");
    expect((await service.request("POST", "/api/dosen/catatan", { token: tokens.dosen1, body: { NIM: "N004", isi_catatan: "Apa kabar?" } })).status).toBe(201);
    await read("dosen1", "/api/dosen/mahasiswa");
    await settled();
    expect(counted(before)).toEqual([
      { who: "dosen1", nim: "N001 N004", target: "GET /api/dosen/mahasiswa", reads: 2 },
      { who: "dosen1", nim: "N004", target: "POST /api/dosen/catatan", reads: 1 },
      { who: "dosen1", nim: "N001 N004", target: "GET /api/dosen/mahasiswa", reads: 1 },
    ]);
  });

  test("pages of different students read in turn are a row each, each naming its own students and counted apart", async () => {
    const before = lastId();
    for (let round = 0; round < 3; round++) {
      await read("dosen1", "/api/dosen/mahasiswa?per_page=1&page=1");
      await read("dosen1", "/api/dosen/mahasiswa?per_page=1&page=2");
    }
    await read("dosen1", "/api/dosen/mahasiswa");
    await settled();
    expect(counted(before)).toEqual([
      { who: "dosen1", nim: "N001", target: "GET /api/dosen/mahasiswa", reads: 3 },
      { who: "dosen1", nim: "N004", target: "GET /api/dosen/mahasiswa", reads: 3 },
      { who: "dosen1", nim: "N001 N004", target: "GET /api/dosen/mahasiswa", reads: 1 },
    ]);
  });

  test("a read's students are keyed by what they are: a frozen list once sorted and deduplicated, a list changed in place by its new content", async () => {
    const before = lastId();
    const event = { actor: { userId: null, username: "dosen1", role: "dosen" }, clientAddress: "10.0.0.9", action: "view" as const, target: "GET /api/dosen/mahasiswa", detail: null };
    const page = Object.freeze(["N004", "N001", "N004"]);
    service.context.audit.note(event, page);
    service.context.audit.note(event, page);
    service.context.audit.note(event, ["N001", "N004"]);
    const changing = ["N001"];
    service.context.audit.note(event, changing);
    changing.push("N004");
    service.context.audit.note(event, changing);
    await settled();
    // Each student once: a duplicate would show twice in the row's students.
    expect(counted(before)).toEqual([
      { who: "dosen1", nim: "N001 N004", target: "GET /api/dosen/mahasiswa", reads: 4 },
      { who: "dosen1", nim: "N001", target: "GET /api/dosen/mahasiswa", reads: 1 },
    ]);
    expect(verifyAuditChain(service.context.db.$client).problems).toEqual([]);
  });

  test("the counted rows keep the chain whole, and the student's own data shows how many times", async () => {
    const before = lastId();
    for (let times = 0; times < 4; times++) await read("dosen1", "/api/mahasiswa/diary/N004");
    await settled();
    expect(counted(before)).toEqual([{ who: "dosen1", nim: "N004", target: "GET /api/mahasiswa/diary/:nim", reads: 4 }]);
    const own = await service.request("GET", "/api/mahasiswa/data-saya", { token: tokens.mhs4 });
    expect(own.body.dilihat_oleh[0]).toMatchObject({ peran: "dosen", aksi: "view", rute: "GET /api/mahasiswa/diary/:nim", kali: 4 });
    expect(verifyAuditChain(service.context.db.$client).problems).toEqual([]);
  });
});

describe("a student's own reads leave no row", () => {
  const ownReads = [
    "/api/mahasiswa/hasil/N001",
    "/api/mahasiswa/can_submit/N001",
    "/api/mahasiswa/profil/data/N001",
    "/api/mahasiswa/profil/foto/N001",
    "/api/mahasiswa/profil/status",
    "/api/mahasiswa/mood/N001",
    "/api/mahasiswa/diary/N001",
    "/api/mahasiswa/history",
    "/api/mahasiswa/catatan",
    "/api/mahasiswa/catatan/detail/NOTE",
    "/api/auth/me",
  ];
  test.each(ownReads)("GET %s", async (path) => {
    const { response, rows } = await rowsOf("GET", path.replace("NOTE", String(noteId)), { token: tokens.mhs1 });
    expect(response.status).toBe(200);
    expect(rows).toEqual([]);
  });
});

describe("writes", () => {
  // Each write's row is on disk when its answer arrives: no waiting for the queue here.
  const write = async (method: string, path: string, token: string, options: { body?: unknown; rawBody?: RequestInit["body"] } = {}) => {
    const before = lastId();
    const response = await service.request(method, path, { token, ...options });
    return { response, rows: summary(rowsAfter(before)) };
  };
  const row = (who: string, action: string, nim: string | null, target: string) => [{ who, action, nim, target }];

  test("a student's writes: create, update, delete, each with the student's NIM", async () => {
    const mood = await write("POST", "/api/mahasiswa/mood", tokens.mhs4, { body: { date: "2026-02-01", mood_value: 3 } });
    expect(mood.response.status).toBe(201);
    expect(mood.rows).toEqual(row("mhs4 (mahasiswa)", "create", "N004", "POST /api/mahasiswa/mood"));
    // The same date again replaces the entry: an update.
    const again = await write("POST", "/api/mahasiswa/mood", tokens.mhs4, { body: { date: "2026-02-01", mood_value: 5 } });
    expect(again.response.status).toBe(200);
    expect(again.rows).toEqual(row("mhs4 (mahasiswa)", "update", "N004", "POST /api/mahasiswa/mood"));
    const id = mood.response.body.id;
    expect((await write("PUT", `/api/mahasiswa/mood/${id}`, tokens.mhs4, { body: { mood_value: 2 } })).rows).toEqual(row("mhs4 (mahasiswa)", "update", "N004", "PUT /api/mahasiswa/mood/:id"));
    expect((await write("DELETE", `/api/mahasiswa/mood/${id}`, tokens.mhs4)).rows).toEqual(row("mhs4 (mahasiswa)", "delete", "N004", "DELETE /api/mahasiswa/mood/:id"));

    const diary = await write("POST", "/api/mahasiswa/diary", tokens.mhs4, { body: { date: "2026-02-01", content: "isi" } });
    expect(diary.rows).toEqual(row("mhs4 (mahasiswa)", "create", "N004", "POST /api/mahasiswa/diary"));
    const diaryPath = `/api/mahasiswa/diary/${diary.response.body.id}`;
    expect((await write("PUT", diaryPath, tokens.mhs4, { body: { content: "isi baru" } })).rows).toEqual(row("mhs4 (mahasiswa)", "update", "N004", "PUT /api/mahasiswa/diary/:id"));
    expect((await write("DELETE", diaryPath, tokens.mhs4)).rows).toEqual(row("mhs4 (mahasiswa)", "delete", "N004", "DELETE /api/mahasiswa/diary/:id"));

    expect((await write("POST", "/api/mahasiswa/kuesioner", tokens.mhs4, { body: { jawaban: jawaban(3, 3) } })).rows).toEqual(
      row("mhs4 (mahasiswa)", "create", "N004", "POST /api/mahasiswa/kuesioner"),
    );
    expect((await write("PUT", "/api/mahasiswa/profil", tokens.mhs4, { body: { usia: 21 } })).rows).toEqual(row("mhs4 (mahasiswa)", "update", "N004", "PUT /api/mahasiswa/profil"));
    expect((await write("PUT", "/api/mahasiswa/profil/foto", tokens.mhs4, { rawBody: photoForm() })).rows).toEqual(row("mhs4 (mahasiswa)", "update", "N004", "PUT /api/mahasiswa/profil/foto"));
    expect((await write("DELETE", "/api/mahasiswa/profil/foto/N004", tokens.mhs4)).rows).toEqual(row("mhs4 (mahasiswa)", "delete", "N004", "DELETE /api/mahasiswa/profil/foto/:nim"));
  });

  test("notes: the lecturer's note and the student's reply and its edit", async () => {
    const note = await write("POST", "/api/dosen/catatan", tokens.dosen1, { body: { NIM: "N004", isi_catatan: "Bagaimana kabarmu?" } });
    expect(note.rows).toEqual(row("dosen1 (dosen)", "create", "N004", "POST /api/dosen/catatan"));
    const replyPath = `/api/mahasiswa/catatan/${note.response.body.id}/reply`;
    expect((await write("POST", replyPath, tokens.mhs4, { body: { reply: "Baik." } })).rows).toEqual(row("mhs4 (mahasiswa)", "create", "N004", "POST /api/mahasiswa/catatan/:id_catatan/reply"));
    expect((await write("PUT", replyPath, tokens.mhs4, { body: { reply: "Baik sekali." } })).rows).toEqual(row("mhs4 (mahasiswa)", "update", "N004", "PUT /api/mahasiswa/catatan/:id_catatan/reply"));
  });

  test("an admin's writes name the student concerned: the body's NIM, or the entry's owner before it is deleted", async () => {
    expect((await write("POST", "/api/mahasiswa/kuesioner", tokens.admin, { body: { NIM: "N002", jawaban: jawaban(1, 4) } })).rows).toEqual(
      row("admin (admin)", "create", "N002", "POST /api/mahasiswa/kuesioner"),
    );
    expect((await write("DELETE", `/api/mahasiswa/mood/${moodId}`, tokens.admin)).rows).toEqual(row("admin (admin)", "delete", "N001", "DELETE /api/mahasiswa/mood/:id"));
    expect((await write("DELETE", `/api/mahasiswa/diary/${diaryId}`, tokens.admin)).rows).toEqual(row("admin (admin)", "delete", "N001", "DELETE /api/mahasiswa/diary/:id"));
  });
});

describe("a refused request leaves no row", () => {
  // Every case gives a body (null for none): a test function with more parameters than its case has would wait for `done`.
  const refused: [status: number, method: string, path: string, token: () => string | undefined, body: unknown][] = [
    [401, "GET", "/api/mahasiswa/hasil/N001", () => undefined, null],
    [401, "GET", "/api/dosen/mahasiswa", () => "bukan.token", null],
    [403, "GET", "/api/mahasiswa/hasil/N001", () => tokens.dosen2, null],
    [403, "GET", "/api/mahasiswa/mood/N001", () => tokens.mhs2, null],
    [403, "GET", "/api/dosen/mahasiswa/N001", () => tokens.mhs1, null],
    [403, "DELETE", "/api/mahasiswa/profil/foto/N001", () => tokens.mhs2, null],
    [404, "GET", "/api/mahasiswa/profil/data/N999", () => tokens.admin, null],
    [404, "GET", "/api/mahasiswa/catatan/detail/999999", () => tokens.dosen1, null],
    [404, "GET", "/api/mahasiswa/profil/foto/N002", () => undefined, null],
    [404, "DELETE", "/api/mahasiswa/mood/999999", () => tokens.admin, null],
    [400, "POST", "/api/mahasiswa/mood", () => tokens.mhs2, { date: "2026-02-01", mood_value: 9 }],
    [400, "POST", "/api/mahasiswa/kuesioner", () => tokens.admin, { jawaban: jawaban(2, 2) }],
    [403, "POST", "/api/mahasiswa/kuesioner", () => tokens.mhs1, { jawaban: jawaban(2, 2) }],
    [403, "POST", "/api/dosen/catatan", () => tokens.dosen2, { NIM: "N001", isi_catatan: "bukan bimbingan" }],
  ];
  test.each(refused)("%d %s %s", async (status, method, path, token, body) => {
    const { response, rows } = await rowsOf(method, path, { token: token(), body: body ?? undefined });
    expect(response.status).toBe(status);
    expect(rows).toEqual([]);
  });

  test("a conflict (409) on a write leaves no row", async () => {
    const second = (await service.request("POST", "/api/mahasiswa/mood", { token: tokens.mhs2, body: { date: "2026-03-02", mood_value: 2 } })).body.id;
    await service.request("POST", "/api/mahasiswa/mood", { token: tokens.mhs2, body: { date: "2026-03-03", mood_value: 2 } });
    const { response, rows } = await rowsOf("PUT", `/api/mahasiswa/mood/${second}`, { token: tokens.mhs2, body: { date: "2026-03-03" } });
    expect(response.status).toBe(409);
    expect(rows).toEqual([]);
  });
});

describe("logins, activation and password changes", () => {
  const login = (username: string, password: string) => rowsOf("POST", "/api/auth/login", { body: { username, password } });

  test("a login: one row for the account, with the student's NIM", async () => {
    const { response, rows } = await login("mhs1", passwords.mhs1);
    expect(response.status).toBe(200);
    expect(rows).toEqual([
      { actor_user_id: userId("mhs1"), actor_username: "mhs1", actor_role: "mahasiswa", actor_name: "Mahasiswa Satu", client_address: service.address, action: "login", nim: "N001", target: "POST /api/auth/login", detail: null },
    ]);
  });

  test("a wrong password: login_failed for the account", async () => {
    const { response, rows } = await login("dosen1", "salah-sekali");
    expect(response.status).toBe(401);
    expect(rows).toEqual([expect.objectContaining({ actor_username: "dosen1", actor_role: "dosen", action: "login_failed", nim: null, detail: "password salah", client_address: service.address })]);
  });

  test("an unknown username: login_failed by anonim, and the name typed is written nowhere", async () => {
    const { response, rows } = await login("mungkin-sebuah-password", "apa saja");
    expect(response.status).toBe(401);
    expect(rows).toEqual([
      { actor_user_id: null, actor_username: null, actor_role: "anonim", actor_name: null, client_address: service.address, action: "login_failed", nim: null, target: "POST /api/auth/login", detail: "username tidak dikenal" },
    ]);
    expect(JSON.stringify(rows)).not.toContain("mungkin-sebuah-password");
  });

  test("an account not activated yet: login_failed saying so", async () => {
    const { response, rows } = await login("mhs3", passwords.mhs3);
    expect(response.status).toBe(403);
    expect(rows).toEqual([expect.objectContaining({ actor_username: "mhs3", action: "login_failed", nim: "N003", detail: "akun belum diaktivasi" })]);
  });

  test("activation: a wrong password is a failed login, the activation itself an activate row", async () => {
    const wrong = await rowsOf("POST", "/api/auth/activation", { body: { username: "mhs3", password: "bukan-ini" } });
    expect(wrong.response.status).toBe(401);
    expect(wrong.rows).toEqual([expect.objectContaining({ actor_username: "mhs3", action: "login_failed", detail: "aktivasi: password salah", target: "POST /api/auth/activation" })]);
    const unknown = await rowsOf("POST", "/api/auth/activation", { body: { username: "tidak.ada", password: "apa saja" } });
    expect(unknown.response.status).toBe(404);
    expect(unknown.rows).toEqual([expect.objectContaining({ actor_role: "anonim", actor_username: null, action: "login_failed", detail: "aktivasi: username tidak dikenal" })]);
    const done = await rowsOf("POST", "/api/auth/activation", { body: { username: "mhs3", password: passwords.mhs3 } });
    expect(done.response.status).toBe(200);
    expect(done.rows).toEqual([expect.objectContaining({ actor_username: "mhs3", actor_role: "mahasiswa", action: "activate", nim: "N003", target: "POST /api/auth/activation" })]);
  });

  test("a password change: password row; a wrong old password: login_failed", async () => {
    const token = (await service.login("mhs2", passwords.mhs2)).access;
    const wrong = await rowsOf("POST", "/api/auth/password", { token, body: { old_password: "keliru-sekali", new_password: "sandi-baru-123" } });
    expect(wrong.response.status).toBe(401);
    expect(wrong.rows).toEqual([expect.objectContaining({ actor_username: "mhs2", action: "login_failed", detail: "ganti password: password lama salah" })]);
    const changed = await rowsOf("POST", "/api/auth/password", { token, body: { old_password: passwords.mhs2, new_password: "sandi-baru-123" } });
    expect(changed.response.status).toBe(200);
    expect(changed.rows).toEqual([expect.objectContaining({ actor_username: "mhs2", action: "password", nim: "N002", target: "POST /api/auth/password" })]);
  });
});
