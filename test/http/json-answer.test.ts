import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { t } from "elysia";
import { cachedJson, JsonAnswer } from "../../src/http/json-answer";
import { TestService, standardAccounts } from "../helpers";

// Issue 28: the answers of the cached hot reads are checked and serialized once per
// object, then sent as that text.

describe("cachedJson", () => {
  const schema = t.Object({ a: t.Number(), b: t.Optional(t.String()) }, { additionalProperties: false });

  test("the answer is the value's JSON with Elysia's JSON content type, and carries the value", async () => {
    const value = { a: 1, b: "dua" };
    const answer = cachedJson<typeof value>(schema)(value);
    expect(answer).toBeInstanceOf(JsonAnswer);
    expect(answer.value).toBe(value);
    expect(answer.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(await answer.json()).toEqual(value);
  });

  test("the text is made once per object: the same object answers the same text; another object is serialized afresh", async () => {
    const answerOf = cachedJson<{ a: number }>(schema);
    const value = { a: 1 };
    await answerOf(value).text();
    // A cached value is never changed in place; if it were, the text made first is what is sent.
    value.a = 2;
    expect(await answerOf(value).text()).toBe('{"a":1}');
    expect(await answerOf({ a: 3 }).text()).toBe('{"a":3}');
  });

  test("a value that breaks the schema is refused, naming where", () => {
    const answerOf = cachedJson<object>(schema);
    expect(() => answerOf({ a: "satu" })).toThrow("jawaban tidak sesuai skemanya: /a");
    expect(() => answerOf({ a: 1, rahasia: "x" })).toThrow("jawaban tidak sesuai skemanya");
  });
});

describe("the cached routes answer exactly what they did", () => {
  let service: TestService;
  beforeAll(async () => {
    service = new TestService();
    await service.importAccounts(standardAccounts);
  });
  afterAll(() => service.close());

  test.each([
    ["/api/dosen/mahasiswa", "dosen1"],
    ["/api/dosen/statistik", "dosen1"],
  ] as const)("%s: the same body, headers and status from the cache as the first time", async (path, who) => {
    const { [who]: token } = await service.accessTokens([who]);
    const first = await service.request("GET", path, { token });
    const again = await service.request("GET", path, { token });
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(first.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
