import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { countRows, type Lecturers, lecturerService, texts } from "./support";

let lecturers: Lecturers;

beforeAll(async () => {
  lecturers = await lecturerService();
});
afterAll(() => lecturers.service.close());

const routes = [
  ["GET", "/api/dosen/mahasiswa", undefined],
  ["GET", "/api/dosen/mahasiswa/N001", undefined],
  ["GET", "/api/dosen/statistik", undefined],
  ["POST", "/api/dosen/catatan", { NIM: "N001", isi_catatan: "Catatan untuk N001" }],
  ["GET", "/api/dosen/catatan/N001", undefined],
] as const;

describe("every lecturer route is dosen+admin", () => {
  test.each(routes)("a student is refused, and nothing is written: %s %s", async (method, path, body) => {
    const before = countRows(lecturers.service, "catatan_konseling");
    const response = await lecturers.service.request(method, path, { token: lecturers.tokens.mhs1, body });
    expect(response).toMatchObject({ status: 403, body: { error: texts.denied } });
    expect(countRows(lecturers.service, "catatan_konseling")).toBe(before);
  });

  test.each(routes)("no token is a 401: %s %s", async (method, path, body) => {
    const response = await lecturers.service.request(method, path, { body });
    expect(response.status).toBe(401);
    expect(typeof response.body.error).toBe("string");
  });

  test.each(routes.flatMap(([method, path, body]) => (["dosen1", "admin"] as const).map((who) => [who, method, path, body] as const)))(
    "%s passes the role check: %s %s",
    async (who, method, path, body) => {
      const token = lecturers.tokens[who];
      const adminBody = who === "admin" && body ? { ...body, NIP: "D001" } : body;
      const response = await lecturers.service.request(method, path, { token, body: adminBody });
      expect(response.status).toBe(method === "POST" ? 201 : 200);
    },
  );
});
