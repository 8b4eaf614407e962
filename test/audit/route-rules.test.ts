import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestService } from "../helpers";
import { consoleRoutesWithRows, consoleRoutesWithoutRows } from "../admin/audit-rules";

// Every route of the app has its audit rule tested (the files named below and the tables of
// routes.test.ts) or a reason for none.

let service: TestService;
beforeAll(() => {
  service = new TestService();
});
afterAll(() => service.close());

describe("every route is covered", () => {
  // Every route of the app is either in a table of routes.test.ts (or the files named) or here, with why it leaves no row of its own.
  const withoutRows = new Map([
    ["POST /api/auth/refresh", "a new token for a session already logged in"],
    ["POST /api/auth/logout", "ends the caller's own session"],
    ["GET /api/mahasiswa/suggestions/detail", "generic texts for a pair of levels, nobody's data"],
    ["GET /api/kuesioner/questions", "the questionnaire's texts"],
    ["GET /api/kuesioner/keselamatan", "the safety question and its contact, nobody's data"],
    ["GET /api/konten/bantuan", "the faculty's help text"],
    ["GET /api/dosen/daftar", "lecturers and counts, no student"],
    ["GET /api/dosen/profil", "the lecturer's own profile"],
    ["GET /api/mahasiswa/minta-kontak", "only the student, reading their own request"],
    ["GET /api/mahasiswa/data-saya", "only the student, reading their own data"],
    ["GET /api/privasi/pemberitahuan", "the notice's text"],
    ["POST /api/privasi/pemberitahuan/setuju", "records its own privacy row (src/modules/privasi)"],
    ["GET /health", "no data"],
    ["GET /openapi", "the API's description"],
    ["GET /openapi/json", "the API's description"],
    ["GET /openapi/style.css", "the description page's style"],
    ...consoleRoutesWithoutRows,
  ]);
  const covered = new Set([
    ...consoleRoutesWithRows,
    // Issue 18: their rows are tested in test/tindak-lanjut/routes.test.ts.
    "GET /api/dosen/tindak-lanjut",
    "GET /api/dosen/tindak-lanjut/ringkasan",
    "GET /api/dosen/tindak-lanjut/:id",
    "POST /api/dosen/tindak-lanjut/:id/status",
    "PUT /api/dosen/tindak-lanjut/:id/pemilik",
    // Decisions §19: tested in test/tindak-lanjut/minta-kontak.test.ts, test/dosen/hari-ini.test.ts and test/dosen/profil.test.ts.
    "POST /api/mahasiswa/minta-kontak",
    "GET /api/dosen/hari-ini",
    "PUT /api/dosen/profil",
    "POST /api/auth/login",
    "POST /api/auth/activation",
    "POST /api/auth/password",
    "GET /api/auth/me",
    "GET /api/mahasiswa/can_submit/:nim",
    "POST /api/mahasiswa/kuesioner",
    "GET /api/mahasiswa/hasil/:nim",
    "GET /api/mahasiswa/history",
    "PUT /api/mahasiswa/profil",
    "GET /api/mahasiswa/profil/status",
    "GET /api/mahasiswa/profil/data/:nim",
    "PUT /api/mahasiswa/profil/foto",
    "GET /api/mahasiswa/profil/foto/:nim",
    "DELETE /api/mahasiswa/profil/foto/:nim",
    "POST /api/mahasiswa/mood",
    "GET /api/mahasiswa/mood/:nim",
    "PUT /api/mahasiswa/mood/:id",
    "DELETE /api/mahasiswa/mood/:id",
    "POST /api/mahasiswa/diary",
    "GET /api/mahasiswa/diary/:nim",
    "PUT /api/mahasiswa/diary/:id",
    "DELETE /api/mahasiswa/diary/:id",
    "GET /api/mahasiswa/catatan",
    "GET /api/mahasiswa/catatan/detail/:id_catatan",
    "POST /api/mahasiswa/catatan/:id_catatan/reply",
    "PUT /api/mahasiswa/catatan/:id_catatan/reply",
    "POST /api/dosen/catatan",
    "GET /api/dosen/catatan/:nim",
    "GET /api/dosen/mahasiswa",
    "GET /api/dosen/mahasiswa/:nim",
    "GET /api/dosen/statistik",
  ]);

  test("each route of the app has its audit rule tested or its reason for none", () => {
    const routes = service.app.routes.map((route) => `${route.method} ${route.path}`).filter((route) => !route.startsWith("HEAD ") && !route.startsWith("OPTIONS "));
    expect(routes.filter((route) => !covered.has(route) && !withoutRows.has(route))).toEqual([]);
  });
});
