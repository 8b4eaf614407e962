import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { catatanKonseling, diaryEntries, moodEntries, tindakLanjut } from "../../src/db/schema";
import { TestService, standardAccounts } from "../helpers";

// The interface's Auth column, the own-nim rule and the advisor scope of decisions §9 as
// one table: every route, every role, and for student resources the caller's own and
// another student's (a lecturer: an advisee's and another lecturer's advisee's).

type Auth = "none" | "any" | "mahasiswa+admin" | "mahasiswa only" | "dosen+admin" | "admin only" | "refresh";
type Caller = "no token" | "mahasiswa (own)" | "mahasiswa (other)" | "dosen (advisee)" | "dosen (other)" | "admin";

interface Row {
  method: string;
  /** `{nim}` and `{id}` are filled with the caller's own or another student's resource. */
  path: string;
  auth: Auth;
  ownNim?: boolean;
  /** A lecturer may name only their own advisees in `{nim}` (decisions §9). */
  advisee?: boolean;
  /** A lecturer may read the note behind `{id}` only when they wrote it (interface, note detail). */
  authorOnly?: boolean;
  /** The resource behind `{id}`: a student checks ownership (403 with `ownerText`). */
  resource?: "mood" | "diary" | "catatan" | "tindak_lanjut";
  ownerText?: string;
  deniedText?: string;
}

const studentOnly = "Hanya mahasiswa yang dapat mengakses.";
const denied = "Akses ditolak.";

const table: Row[] = [
  { method: "POST", path: "/api/auth/login", auth: "none" },
  { method: "POST", path: "/api/auth/activation", auth: "none" },
  { method: "POST", path: "/api/auth/refresh", auth: "refresh" },
  { method: "GET", path: "/api/auth/me", auth: "any" },
  { method: "POST", path: "/api/auth/password", auth: "any" },
  { method: "GET", path: "/api/kuesioner/questions", auth: "any" },
  { method: "GET", path: "/api/mahasiswa/can_submit/{nim}", auth: "any", ownNim: true, advisee: true },
  { method: "POST", path: "/api/mahasiswa/kuesioner", auth: "mahasiswa+admin" },
  { method: "GET", path: "/api/mahasiswa/hasil/{nim}", auth: "any", ownNim: true, advisee: true },
  { method: "GET", path: "/api/mahasiswa/history", auth: "mahasiswa+admin" },
  { method: "GET", path: "/api/mahasiswa/catatan", auth: "mahasiswa+admin" },
  { method: "GET", path: "/api/mahasiswa/suggestions/detail", auth: "any" },
  { method: "PUT", path: "/api/mahasiswa/profil", auth: "mahasiswa only", deniedText: studentOnly },
  { method: "GET", path: "/api/mahasiswa/profil/status", auth: "mahasiswa only", deniedText: studentOnly },
  { method: "GET", path: "/api/mahasiswa/profil/data/{nim}", auth: "any", ownNim: true, advisee: true },
  { method: "POST", path: "/api/mahasiswa/mood", auth: "mahasiswa+admin" },
  { method: "GET", path: "/api/mahasiswa/mood/{nim}", auth: "any", ownNim: true, advisee: true },
  { method: "PUT", path: "/api/mahasiswa/mood/{id}", auth: "mahasiswa+admin", resource: "mood", ownerText: denied },
  { method: "DELETE", path: "/api/mahasiswa/mood/{id}", auth: "mahasiswa+admin", resource: "mood", ownerText: denied },
  { method: "POST", path: "/api/mahasiswa/diary", auth: "mahasiswa+admin" },
  { method: "GET", path: "/api/mahasiswa/diary/{nim}", auth: "any", ownNim: true, advisee: true },
  { method: "PUT", path: "/api/mahasiswa/diary/{id}", auth: "mahasiswa+admin", resource: "diary", ownerText: denied },
  { method: "DELETE", path: "/api/mahasiswa/diary/{id}", auth: "mahasiswa+admin", resource: "diary", ownerText: denied },
  { method: "PUT", path: "/api/mahasiswa/profil/foto", auth: "mahasiswa only", deniedText: studentOnly },
  { method: "GET", path: "/api/mahasiswa/profil/foto/{nim}", auth: "none" },
  // decisions §9 tightens the interface's role-only check: a student deletes only their own photo.
  { method: "DELETE", path: "/api/mahasiswa/profil/foto/{nim}", auth: "mahasiswa only", deniedText: studentOnly, ownNim: true },
  { method: "POST", path: "/api/mahasiswa/catatan/{id}/reply", auth: "mahasiswa only", deniedText: "Hanya mahasiswa yang dapat membalas catatan.", resource: "catatan", ownerText: "Anda tidak dapat membalas catatan ini." },
  { method: "PUT", path: "/api/mahasiswa/catatan/{id}/reply", auth: "mahasiswa only", deniedText: "Hanya mahasiswa yang dapat mengedit balasan.", resource: "catatan", ownerText: "Anda tidak dapat membalas catatan ini." },
  { method: "GET", path: "/api/mahasiswa/catatan/detail/{id}", auth: "any", resource: "catatan", ownerText: denied, authorOnly: true },
  { method: "GET", path: "/api/dosen/mahasiswa", auth: "dosen+admin" },
  { method: "GET", path: "/api/dosen/mahasiswa/{nim}", auth: "dosen+admin", advisee: true },
  { method: "GET", path: "/api/dosen/statistik", auth: "dosen+admin" },
  // Additions of the web interface: the lecturers an admin acts as, and where to get help.
  { method: "GET", path: "/api/dosen/daftar", auth: "admin only" },
  { method: "GET", path: "/api/konten/bantuan", auth: "none" },
  { method: "POST", path: "/api/dosen/catatan", auth: "dosen+admin" },
  { method: "GET", path: "/api/dosen/catatan/{nim}", auth: "dosen+admin", advisee: true },
  // Issue 17: the privacy notice is readable without a token (the activation page shows it); only a student acknowledges it.
  { method: "GET", path: "/api/privasi/pemberitahuan", auth: "none" },
  { method: "POST", path: "/api/privasi/pemberitahuan/setuju", auth: "mahasiswa only", deniedText: "Hanya mahasiswa yang menyetujui pemberitahuan privasi." },
  // Issue 18: follow-up cases. A lecturer acts only on the cases they own, with the advisor scope's text.
  { method: "GET", path: "/api/dosen/tindak-lanjut", auth: "dosen+admin" },
  { method: "GET", path: "/api/dosen/tindak-lanjut/ringkasan", auth: "dosen+admin" },
  { method: "GET", path: "/api/dosen/tindak-lanjut/{id}", auth: "dosen+admin", resource: "tindak_lanjut", advisee: true },
  { method: "POST", path: "/api/dosen/tindak-lanjut/{id}/status", auth: "dosen+admin", resource: "tindak_lanjut", advisee: true },
  { method: "PUT", path: "/api/dosen/tindak-lanjut/{id}/pemilik", auth: "admin only", resource: "tindak_lanjut" },
];

let service: TestService;
const tokens: Record<string, string> = {};

/** The token a caller sends; a student's "own" resources are mhs1's (N001). */
const tokenOf = (caller: Caller, auth: Auth): string | undefined => {
  if (caller === "no token") return undefined;
  const user = { "mahasiswa (own)": "mhs1", "mahasiswa (other)": "mhs1", "dosen (advisee)": "dosen1", "dosen (other)": "dosen1", admin: "admin" }[caller];
  return auth === "refresh" ? tokens[`${user}:refresh`] : tokens[user];
};

let moodDays = 0;

/** A fresh resource of N001 (own) or N002 (other) for each request, so deletes do not interfere. */
function resourceId(kind: NonNullable<Row["resource"]>, nim: string): number {
  const db = service.context.db;
  const now = new Date().toISOString();
  if (kind === "tindak_lanjut") {
    // A closed case owned by the student's advisor: any number of them may exist.
    const values = { nim, nip: nim === "N001" ? "D001" : "D002", earlyWarning: true, suddenChange: false, status: "selesai" as const, dibukaPada: now, ditutupPada: now, diperbaruiPada: now };
    return db.insert(tindakLanjut).values(values).returning().get().id;
  }
  if (kind === "mood") {
    const date = new Date(Date.UTC(2000, 0, ++moodDays)).toISOString().slice(0, 10);
    return db.insert(moodEntries).values({ nim, date, moodValue: 3, createdAt: now, updatedAt: now }).returning().get().id;
  }
  if (kind === "diary") return db.insert(diaryEntries).values({ nim, date: "2020-01-01", content: "isi", createdAt: now, updatedAt: now }).returning().get().id;
  return db.insert(catatanKonseling).values({ nim, nip: nim === "N001" ? "D001" : "D002", isi: "catatan", tanggalCatat: now }).returning().get().id;
}

beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(standardAccounts);
  for (const [username, password] of [
    ["admin", "admin-pass-1"],
    ["dosen1", "dosen-pass-1"],
    ["mhs1", "mhs-pass-1"],
  ] as const) {
    const { access, refresh } = await service.login(username, password);
    tokens[username] = access;
    tokens[`${username}:refresh`] = refresh;
  }
});
afterAll(() => service.close());

/** What the table says a caller gets: a status and text, or "allowed" (anything but 401/403). */
function expected(row: Row, caller: Caller): { status: 401 | 403; error?: string } | "allowed" {
  if (row.auth === "none") return "allowed";
  if (caller === "no token") return { status: 401 };
  const role = caller.startsWith("mahasiswa") ? "mahasiswa" : caller.startsWith("dosen") ? "dosen" : caller;
  const fits =
    row.auth === "any" || row.auth === "refresh" ||
    (row.auth === "mahasiswa+admin" && role !== "dosen") ||
    (row.auth === "mahasiswa only" && role === "mahasiswa") ||
    (row.auth === "dosen+admin" && role !== "mahasiswa") ||
    (row.auth === "admin only" && role === "admin");
  if (!fits) return { status: 403, error: row.deniedText ?? denied };
  if (caller === "mahasiswa (other)" && row.ownNim) return { status: 403, error: denied };
  if (caller === "mahasiswa (other)" && row.resource) return { status: 403, error: row.ownerText };
  if (caller === "dosen (other)" && row.advisee) return { status: 403, error: "Mahasiswa bukan bimbingan Anda." };
  if (caller === "dosen (other)" && row.authorOnly) return { status: 403, error: denied };
  return "allowed";
}

const callers: Caller[] = ["no token", "mahasiswa (other)", "dosen (advisee)", "dosen (other)", "admin", "mahasiswa (own)"];

describe.each(table.map((row) => [`${row.method} ${row.path}`, row] as const))("%s", (_name, row) => {
  test.each(callers)("%s", async (caller) => {
    // N001 is mhs1's and dosen1's advisee; N002 is another student, advised by dosen2.
    const nim = caller === "mahasiswa (other)" || caller === "dosen (other)" ? "N002" : "N001";
    const path = row.path.replace("{nim}", nim).replace("{id}", () => String(resourceId(row.resource!, nim)));
    const response = await service.request(row.method, path, { token: tokenOf(caller, row.auth), body: {} });
    const rule = expected(row, caller);
    if (rule === "allowed") {
      expect([401, 403, 405]).not.toContain(response.status);
      expect(response.status).toBeLessThan(500);
    } else {
      expect(response.status).toBe(rule.status);
      if (rule.error) expect(response.body).toEqual({ error: rule.error });
    }
  });
});

test("a lecturer reads a note detail only when they wrote it", async () => {
  const own = resourceId("catatan", "N001");
  const others = resourceId("catatan", "N002");
  expect((await service.request("GET", `/api/mahasiswa/catatan/detail/${own}`, { token: tokens.dosen1 })).status).toBe(200);
  expect(await service.request("GET", `/api/mahasiswa/catatan/detail/${others}`, { token: tokens.dosen1 })).toMatchObject({ status: 403, body: { error: denied } });
});

test("a lecturer reads only their own advisees' details", async () => {
  expect((await service.request("GET", "/api/dosen/mahasiswa/N001", { token: tokens.dosen1 })).status).toBe(200);
  expect(await service.request("GET", "/api/dosen/mahasiswa/N002", { token: tokens.dosen1 })).toMatchObject({
    status: 403,
    body: { error: "Mahasiswa bukan bimbingan Anda." },
  });
});
