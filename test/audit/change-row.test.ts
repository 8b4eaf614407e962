import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { currentChangeRow, withChangeRow } from "../../src/audit/change-row";
import { swallowedRow } from "../../src/audit/trail";
import { photoForm } from "../photos/fixtures";
import { flaggedAnswers } from "../tindak-lanjut/support";
import { TestService, fourthStudent, jawaban, signedInService } from "../helpers";

// Issue 28: a write's audit row goes into the job of the write queue that makes its change,
// so the change and its row are one commit. Seen from outside: when the trail refuses the
// row (a trigger someone planted swallows it), the change is not made either, and the
// answer says so; before, the change stayed and the answer said 503.

let service: TestService;
let tokens: Record<"admin" | "dosen1" | "mhs1" | "mhs4", string>;
let moodId: number;
let diaryId: number;
let noteId: number;
let caseId: number;

const sqlite = () => service.context.db.$client;
/** Every table but the trail's, as rows: what a refused change must leave as it was. */
function dataTables(): Record<string, unknown[]> {
  const tables = sqlite()
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('audit_log', 'audit_subjects', 'sqlite_sequence') AND name NOT LIKE '\\_\\_%' ESCAPE '\\' ORDER BY name")
    .all();
  return Object.fromEntries(tables.map(({ name }) => [name, sqlite().query(`SELECT * FROM "${name}"`).all()]));
}
const auditRows = () => (sqlite().query("SELECT count(*) AS rows FROM audit_log").get() as { rows: number }).rows;
// Rows of requests by accounts are swallowed; the commands' (none here) would pass.
const plantSwallowingTrigger = () => sqlite().run("CREATE TRIGGER swallow BEFORE INSERT ON audit_log WHEN NEW.actor_role <> 'cli' BEGIN SELECT RAISE(IGNORE); END");
const removeSwallowingTrigger = () => sqlite().run("DROP TRIGGER IF EXISTS swallow");

beforeAll(async () => {
  ({ service, tokens } = await signedInService(["admin", "dosen1", "mhs1", "mhs4"], { more: [fourthStudent] }));
  const submitted = await service.request("POST", "/api/mahasiswa/kuesioner", { token: tokens.mhs1, body: { jawaban: flaggedAnswers } });
  expect(submitted.status).toBe(201);
  caseId = (sqlite().query("SELECT Id_tindak_lanjut AS id FROM tindak_lanjut WHERE NIM = 'N001'").get() as { id: number }).id;
  moodId = (await service.request("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-01-05", mood_value: 4 } })).body.id;
  diaryId = (await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-01-05", content: "hari yang panjang" } })).body.id;
  noteId = (await service.request("POST", "/api/dosen/catatan", { token: tokens.dosen1, body: { NIM: "N001", isi_catatan: "Mari bertemu." } })).body.id;
  expect((await service.request("PUT", "/api/mahasiswa/profil/foto", { token: tokens.mhs1, rawBody: photoForm() })).status).toBe(200);
  await service.context.audit.flush();
});
afterAll(() => service.close());

describe("a write whose row the trail refuses is not made", () => {
  // Every write route that changes data through the write queue (the follow-up routes too);
  // MOOD, DIARY, NOTE and CASE stand for the ids made before.
  const writes: [method: string, path: string, who: keyof typeof tokens, body: () => { body?: unknown; rawBody?: RequestInit["body"] }][] = [
    ["POST", "/api/mahasiswa/kuesioner", "mhs4", () => ({ body: { jawaban: jawaban(3, 3) } })],
    ["POST", "/api/mahasiswa/kuesioner", "admin", () => ({ body: { NIM: "N002", jawaban: jawaban(3, 3) } })],
    ["POST", "/api/mahasiswa/mood", "mhs4", () => ({ body: { date: "2026-02-01", mood_value: 3 } })],
    ["POST", "/api/mahasiswa/mood", "mhs1", () => ({ body: { date: "2026-01-05", mood_value: 1 } })],
    ["PUT", "/api/mahasiswa/mood/MOOD", "mhs1", () => ({ body: { mood_value: 2 } })],
    ["DELETE", "/api/mahasiswa/mood/MOOD", "admin", () => ({})],
    ["POST", "/api/mahasiswa/diary", "mhs4", () => ({ body: { date: "2026-02-01", content: "isi" } })],
    ["PUT", "/api/mahasiswa/diary/DIARY", "mhs1", () => ({ body: { content: "isi baru" } })],
    ["DELETE", "/api/mahasiswa/diary/DIARY", "mhs1", () => ({})],
    ["POST", "/api/dosen/catatan", "dosen1", () => ({ body: { NIM: "N004", isi_catatan: "Bagaimana kabarmu?" } })],
    ["POST", "/api/mahasiswa/catatan/NOTE/reply", "mhs1", () => ({ body: { reply: "Baik." } })],
    ["PUT", "/api/mahasiswa/profil", "mhs4", () => ({ body: { usia: 21 } })],
    ["PUT", "/api/mahasiswa/profil/foto", "mhs4", () => ({ rawBody: photoForm() })],
    ["DELETE", "/api/mahasiswa/profil/foto/N001", "mhs1", () => ({})],
    ["POST", "/api/dosen/tindak-lanjut/CASE/status", "dosen1", () => ({ body: { status: "dihubungi", catatan: "Sudah ditelepon.", hasil_kontak: "berhasil" } })],
    ["PUT", "/api/dosen/tindak-lanjut/CASE/pemilik", "admin", () => ({ body: { NIP: "D002" } })],
    ["POST", "/api/mahasiswa/minta-kontak", "mhs4", () => ({ body: { pesan: "Tolong hubungi saya." } })],
    ["PUT", "/api/dosen/profil", "dosen1", () => ({ body: { telepon: "0812 3456 7890" } })],
  ];
  const concrete = (path: string) =>
    path.replace("MOOD", String(moodId)).replace("DIARY", String(diaryId)).replace("NOTE", String(noteId)).replace("CASE", String(caseId));

  test.each(writes)("%s %s by %s: 503 naming the trail, nothing of the change stored, no row", async (method, path, who, body) => {
    const before = dataTables();
    const rows = auditRows();
    plantSwallowingTrigger();
    try {
      const response = await service.request(method, concrete(path), { token: tokens[who], ...body() });
      expect({ status: response.status, body: response.body }).toEqual({ status: 503, body: { error: swallowedRow } });
      expect(dataTables()).toEqual(before);
      expect(auditRows()).toBe(rows);
    } finally {
      removeSwallowingTrigger();
    }
  });

  test("the same writes go through once the trigger is gone (the table above tested refusals, not broken routes)", async () => {
    const rows = auditRows();
    const response = await service.request("PUT", `/api/mahasiswa/mood/${moodId}`, { token: tokens.mhs1, body: { mood_value: 2 } });
    expect(response.status).toBe(200);
    expect(auditRows()).toBe(rows + 1);
  });
});

describe("the rows of reads waiting when a write's job fails", () => {
  test("wait again and are written with the next batch, in their order", async () => {
    const first = auditRows();
    expect((await service.request("GET", "/api/mahasiswa/hasil/N001", { token: tokens.dosen1 })).status).toBe(200);
    expect((await service.request("GET", "/api/mahasiswa/mood/N001", { token: tokens.dosen1 })).status).toBe(200);
    plantSwallowingTrigger();
    try {
      expect((await service.request("PUT", "/api/mahasiswa/profil", { token: tokens.mhs4, body: { usia: 22 } })).status).toBe(503);
    } finally {
      removeSwallowingTrigger();
    }
    await service.context.audit.flush();
    const targets = sqlite().query<{ target: string }, [number]>("SELECT target FROM audit_log WHERE id > ? ORDER BY id").all(first);
    expect(targets.map((row) => row.target)).toEqual(["GET /api/mahasiswa/hasil/:nim", "GET /api/mahasiswa/mood/:nim"]);
  });
});

describe("the rows of reads waiting when a write's job is queued", () => {
  // Seen under load: the batch's timer fired while a write's job waited in the queue; the
  // batch took the reads' rows into a job behind the write's, and the write's row came
  // first although the reads were answered before the write was asked for.
  test("come before the write's row even when their batch is sent off while the write's job waits", async () => {
    const first = auditRows();
    expect((await service.request("GET", "/api/mahasiswa/hasil/N001", { token: tokens.dosen1 })).status).toBe(200);
    await withChangeRow(
      service.context.audit,
      async () => {
        currentChangeRow()!.expect(() => ({ actor: { userId: null, username: null, role: "anonim" }, action: "update", target: "TEST", students: [] }));
        const change = service.context.writes.run(() => undefined);
        // The batch's timer, firing before the queue's turn.
        const batch = service.context.audit.flush();
        await Promise.all([change, batch]);
        return new Response("ok");
      },
      new Request("http://localhost/"),
    );
    const targets = sqlite().query<{ target: string }, [number]>("SELECT target FROM audit_log WHERE id > ? ORDER BY id").all(first);
    expect(targets.map((row) => row.target)).toEqual(["GET /api/mahasiswa/hasil/:nim", "TEST"]);
  });
});

describe("a write that changes nothing through the queue", () => {
  test("a profile update without a field still leaves its row, after the answer's handler", async () => {
    const first = auditRows();
    const response = await service.request("PUT", "/api/mahasiswa/profil", { token: tokens.mhs4, body: { nama: "" } });
    expect(response.status).toBe(200);
    const rows = sqlite().query<{ action: string; target: string }, [number]>("SELECT action, target FROM audit_log WHERE id > ? ORDER BY id").all(first);
    expect(rows).toEqual([{ action: "update", target: "PUT /api/mahasiswa/profil" }]);
  });
});

describe("a request's row is its own", () => {
  test("a job queued after the request answered (from a timer it left) takes no row", async () => {
    const first = auditRows();
    const { promise: later, resolve } = Promise.withResolvers<void>();
    const response = await withChangeRow(
      service.context.audit,
      async () => {
        currentChangeRow()!.expect(() => ({ actor: { userId: null, username: null, role: "anonim" }, action: "update", target: "TEST", students: [] }));
        setTimeout(() => void service.context.writes.run(() => undefined).then(() => resolve()), 20);
        return new Response("ok");
      },
      new Request("http://localhost/"),
    );
    expect(response.status).toBe(200);
    await later;
    expect(auditRows()).toBe(first);
  });

  test("a job of the request takes the row once; a second job of the same request takes none", async () => {
    const first = auditRows();
    await withChangeRow(
      service.context.audit,
      async () => {
        currentChangeRow()!.expect(() => ({ actor: { userId: null, username: null, role: "anonim" }, action: "update", target: "TEST", students: ["N001"] }));
        await service.context.writes.run(() => undefined);
        await service.context.writes.run(() => undefined);
        return new Response("ok");
      },
      new Request("http://localhost/"),
    );
    const rows = sqlite().query<{ target: string; students: string }, [number]>(
      "SELECT target, (SELECT group_concat(nim) FROM audit_subjects WHERE audit_id = audit_log.id) AS students FROM audit_log WHERE id > ?",
    ).all(first);
    expect(rows).toEqual([{ target: "TEST", students: "N001" }]);
  });
});
