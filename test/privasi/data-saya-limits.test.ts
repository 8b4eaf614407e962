import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestService, signedInService } from "../helpers";

// Issue 26: Data saya is the largest answer the service gives. It is limited per account
// (6 a minute by default → 429, decisions §10's text) and written out in pieces, so that
// other requests are answered while a large one is sent.

let service: TestService;
let tokens: Record<"mhs1" | "mhs2", string>;
const limit = 3;

beforeAll(async () => {
  ({ service, tokens } = await signedInService(["mhs1", "mhs2"], { environment: { SKRINING_DATA_SAYA_PER_MINUTE: String(limit) } }));
  // A diary near the quota: 150 entries of about 20,000 characters (3 MB of text).
  const insert = service.context.db.$client.prepare(
    "INSERT INTO diary_entries (nim, date, title, content, created_at, updated_at) VALUES ('N001', ?, ?, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
  );
  const content = "Hari ini saya merasa lelah dan \"cemas\" — ujian\\tminggu depan. ".repeat(300);
  service.context.db.$client.transaction(() => {
    for (let entry = 0; entry < 150; entry++) insert.run(`2026-01-${String(1 + (entry % 28)).padStart(2, "0")}`, `Catatan ${entry}`, content);
  })();
});
afterAll(() => service.close());

const dataSaya = (token: string) => service.app.handle(new Request("http://localhost/api/mahasiswa/data-saya", { headers: { authorization: `Bearer ${token}` } }));

describe("GET /api/mahasiswa/data-saya, a large document", () => {
  test("the text is the document's JSON, given out in several pieces; a request made between two pieces is answered before the last", async () => {
    // The same document as the service builds it (its private part, read for the comparison).
    const expected = JSON.stringify(service.features.documents.of("N001"));
    const response = await dataSaya(tokens.mhs1);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    let text = decoder.decode(first.value, { stream: true });
    // The stream is not done: another request is answered meanwhile.
    const health = await service.app.handle(new Request("http://localhost/health"));
    expect(health.status).toBe(200);
    let pieces = 1;
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      text += decoder.decode(next.value, { stream: true });
      pieces += 1;
    }
    expect(pieces).toBeGreaterThan(10);
    const answered = JSON.parse(text);
    expect(answered.jurnal).toHaveLength(150);
    // Byte for byte what one JSON.stringify of the same document gives, but its creation time.
    expect(text.replace(/"dibuat_pada":"[^"]+"/, "")).toBe(expected.replace(/"dibuat_pada":"[^"]+"/, ""));
  });
});

describe("the limit per account", () => {
  test(`${limit} a minute pass; the next answers 429 with the seconds to wait; another student is not held`, async () => {
    // The test above took one of mhs1's.
    for (let attempt = 1; attempt < limit; attempt++) expect((await dataSaya(tokens.mhs1)).status).toBe(200);
    const refused = await dataSaya(tokens.mhs1);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: string };
    expect(body.error).toMatch(/^Terlalu banyak permintaan\. Coba lagi dalam \d+ detik\.$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await dataSaya(tokens.mhs2)).status).toBe(200);
  });
});
