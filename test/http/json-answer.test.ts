import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { t } from "elysia";
import { cachedJson, JsonAnswer } from "../../src/http/json-answer";
import { TestService, jawaban, standardAccounts } from "../helpers";

// Issue 28: the answers of the cached hot reads are checked and serialized once per
// object, then sent as that text.

describe("cachedJson", () => {
  const schema = t.Object({ a: t.Number(), b: t.Optional(t.String()) }, { additionalProperties: false });
  /** A handler's `set` with nothing in it yet. */
  const noHeaders = () => ({ headers: {} });

  test("the answer is the value's JSON with Elysia's JSON content type, and carries the value", async () => {
    const value = { a: 1, b: "dua" };
    const answer = cachedJson<typeof value>(schema)(value, noHeaders());
    expect(answer).toBeInstanceOf(JsonAnswer);
    expect(answer.value).toBe(value);
    expect(answer.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(await answer.json()).toEqual(value);
  });

  test("the headers set before the handler move into the answer, so that Elysia sends it as it is", () => {
    const set = { headers: { "access-control-allow-origin": "http://192.168.1.5", vary: "Origin", "content-type": "text/plain", "x-count": 3 } as Record<string, unknown> };
    const answer = cachedJson<{ a: number }>(schema)({ a: 1 }, set);
    expect(Object.fromEntries(answer.headers)).toEqual({
      "access-control-allow-origin": "http://192.168.1.5",
      vary: "Origin",
      "content-type": "application/json;charset=utf-8",
      "x-count": "3",
    });
    expect(set.headers).toEqual({});
  });

  test("the text is made once per object: the same object answers the same text; another object is serialized afresh", async () => {
    const answerOf = cachedJson<{ a: number }>(schema);
    const value = { a: 1 };
    await answerOf(value, noHeaders()).text();
    // A cached value is never changed in place; if it were, the text made first is what is sent.
    value.a = 2;
    expect(await answerOf(value, noHeaders()).text()).toBe('{"a":1}');
    expect(await answerOf({ a: 3 }, noHeaders()).text()).toBe('{"a":3}');
  });

  test("a value that breaks the schema is refused, naming where", () => {
    const answerOf = cachedJson<object>(schema);
    expect(() => answerOf({ a: "satu" }, noHeaders())).toThrow("jawaban tidak sesuai skemanya: /a");
    expect(() => answerOf({ a: 1, rahasia: "x" }, noHeaders())).toThrow("jawaban tidak sesuai skemanya");
  });
});

describe("the cached routes answer exactly what they did", () => {
  let service: TestService;
  beforeAll(async () => {
    service = new TestService();
    await service.importAccounts(standardAccounts);
    const { admin } = await service.accessTokens(["admin"]);
    expect((await service.request("POST", "/api/mahasiswa/kuesioner", { token: admin, body: { NIM: "N001", jawaban: jawaban(3, 4) } })).status).toBe(201);
  });
  afterAll(() => service.close());

  test.each([
    ["/api/dosen/mahasiswa", "dosen1"],
    ["/api/dosen/statistik", "dosen1"],
    ["/api/mahasiswa/hasil/N001", "dosen1"],
    ["/api/mahasiswa/hasil/N001", "mhs1"],
    ["/api/auth/me", "mhs1"],
    ["/api/auth/me", "dosen1"],
  ] as const)("%s (%s): the same body, headers and status from the cache as the first time", async (path, who) => {
    const { [who]: token } = await service.accessTokens([who]);
    const first = await service.request("GET", path, { token });
    const again = await service.request("GET", path, { token });
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(first.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("the caller's answer follows a change of the account", async () => {
    const { mhs2: token } = await service.accessTokens(["mhs2"]);
    expect((await service.request("GET", "/api/auth/me", { token })).body).toMatchObject({ username: "mhs2", NIM: "N002" });
    expect((await service.request("GET", "/api/auth/me", { token })).body.nama).not.toBe("Nama Baru");
    // As a command would change it: the caches see the database move and read the caller again.
    service.context.db.$client.run("UPDATE mahasiswa SET nama_mahasiswa = 'Nama Baru' WHERE NIM = 'N002'");
    expect((await service.request("GET", "/api/auth/me", { token })).body).toMatchObject({ username: "mhs2", NIM: "N002", nama: "Nama Baru" });
  });

  test("a browser on the LAN gets the CORS headers with a cached answer, and one elsewhere does not", async () => {
    const { dosen1: token } = await service.accessTokens(["dosen1"]);
    const lan = await service.request("GET", "/api/dosen/statistik", { token, headers: { origin: "http://192.168.1.20:8000" } });
    const again = await service.request("GET", "/api/dosen/statistik", { token, headers: { origin: "http://192.168.1.20:8000" } });
    const outside = await service.request("GET", "/api/dosen/statistik", { token, headers: { origin: "https://example.com" } });
    for (const answer of [lan, again]) {
      expect(answer.headers.get("access-control-allow-origin")).toBe("http://192.168.1.20:8000");
      expect(answer.headers.get("access-control-expose-headers")).toBe("Retry-After, ETag");
      expect(answer.headers.get("vary")).toBe("Origin");
    }
    expect(outside.status).toBe(200);
    expect(outside.headers.get("access-control-allow-origin")).toBeNull();
    expect(outside.body).toEqual(lan.body);
  });
});
