import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { StorageHealth } from "../../src/db/storage";
import { errorHandler } from "../../src/http/handler";
import { invalid } from "../../src/errors";

// The one place where errors become answers, on a small app of its own: what the client
// did wrong is a 400, what the server did wrong a logged 500 that shows nothing of itself.

function appWith(logged: string[]) {
  const logger = { info: () => {}, error: (line: string) => void logged.push(line) };
  return new Elysia()
    .use(errorHandler(logger, new StorageHealth(logger), () => []))
    .post("/body", ({ body }) => body, { body: t.Object({ n: t.Number() }) })
    .get("/answer", () => ({ n: "bukan angka" }) as unknown as { n: number }, { response: { 200: t.Object({ n: t.Number() }) } })
    .get("/refused", () => {
      throw invalid("Alasan dalam bahasa Indonesia.");
    })
    .get("/fault", () => {
      throw new Error("rahasia internal di /var/lib/skrining");
    });
}

describe("errors become answers", () => {
  test.each([
    ["a body that breaks its schema: the client's mistake", new Request("http://localhost/body", { method: "POST", headers: { "content-type": "application/json" }, body: '{"n":"x"}' }), 400, "Permintaan tidak valid.", false],
    ["an answer that breaks its own schema: the server's fault, logged", new Request("http://localhost/answer"), 500, "Terjadi kesalahan pada server.", true],
    ["a ServiceError: its status and its text", new Request("http://localhost/refused"), 400, "Alasan dalam bahasa Indonesia.", false],
    ["anything else: a logged 500 without the details", new Request("http://localhost/fault"), 500, "Terjadi kesalahan pada server.", true],
  ])("%s", async (_name, request, status, error, logs) => {
    const logged: string[] = [];
    const response = await appWith(logged).handle(request);
    expect(response.status).toBe(status);
    const body = await response.json();
    expect(body).toEqual({ error });
    expect(JSON.stringify(body)).not.toContain("rahasia");
    expect(logged.length > 0).toBe(logs);
  });
});
