import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestService, standardAccounts } from "../helpers";
import { jpegWithExif } from "../photos/fixtures";

// decisions §9: every API response carries `X-Content-Type-Options: nosniff`, and JSON
// responses `Cache-Control: no-store`, so that no cache keeps a student's answers.

let service: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(standardAccounts);
  tokens.mhs1 = (await service.login("mhs1", "mhs-pass-1")).access;
  tokens.dosen1 = (await service.login("dosen1", "dosen-pass-1")).access;
  await service.request("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-05-01", content: "rahasia" } });
});
afterAll(() => service.close());

describe("JSON answers", () => {
  const cases: [string, string, string, string | undefined, number][] = [
    ["a diary", "GET", "/api/mahasiswa/diary/N001", "mhs1", 200],
    ["the latest result", "GET", "/api/mahasiswa/hasil/N001", "mhs1", 404],
    ["notes", "GET", "/api/mahasiswa/catatan", "mhs1", 200],
    ["an advisee list", "GET", "/api/dosen/mahasiswa", "dosen1", 200],
    ["who am I", "GET", "/api/auth/me", "mhs1", 200],
    ["a refused token", "GET", "/api/auth/me", undefined, 401],
    ["another student's data", "GET", "/api/mahasiswa/diary/N002", "mhs1", 403],
    ["an unknown route", "GET", "/api/nope", undefined, 404],
    ["a wrong method", "DELETE", "/api/auth/me", undefined, 405],
    ["a login", "POST", "/api/auth/login", undefined, 400],
  ];
  test.each(cases)("%s: no-store and nosniff", async (_name, method, path, who, status) => {
    const response = await service.request(method, path, { token: who ? tokens[who] : undefined });
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toStartWith("application/json");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

test("a photo keeps its own caching (private, revalidated) and nosniff", async () => {
  const form = new FormData();
  form.append("foto", new File([jpegWithExif()], "a.jpg"));
  expect((await service.request("PUT", "/api/mahasiswa/profil/foto", { token: tokens.mhs1, rawBody: form })).status).toBe(200);
  const response = await service.request("GET", "/api/mahasiswa/profil/foto/N001");
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("private, no-cache");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
});
