import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { TestService, standardAccounts } from "../helpers";
import { jpegWithExif } from "../photos/fixtures";

// Random and hostile requests to every route with every role: never a 5xx, every error
// body an object with an `error` string, and a rejected request writes nothing.

let service: TestService;
const tokens: Record<string, string | undefined> = { none: undefined };

const routes = () =>
  service.app.routes
    .filter((route) => route.path.startsWith("/api/"))
    .map((route) => ({ method: route.method, path: route.path }));

// Rows changed outside the audit trail: a refused login leaves its `login_failed` row there by design (decisions: Audit trail).
// The audit rows of successful requests (and their students) are no writes of a rejection.
const changes = () =>
  (service.context.db.$client.query("SELECT total_changes() - (SELECT count(*) FROM audit_log) - (SELECT count(*) FROM audit_subjects) AS n").get() as { n: number }).n;

const hostileText = fc.oneof(
  fc.constantFrom("N001", "N002", "N003", "X404", "1", "0", "-1", "1e3", "99999999999999999999", "1.5", "../../etc/passwd", "%00", "%2e%2e%2f", "null", "true", "[]", "{}", "' OR 1=1 --", "Rendah", "Tinggi", "2026-02-30", "2024-02-29", "ß", "🙂", " "),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.nat().map(String),
);

const fieldNames = [
  "username", "password", "old_password", "new_password", "jawaban", "NIM", "nim", "NIP", "date", "mood_value", "content", "title",
  "reply", "isi_catatan", "usia", "IPK", "angkatan", "gender", "freq_olahraga", "durasi_tidur", "foto", "__proto__", "constructor",
];

const anyJson = fc.jsonValue({ maxDepth: 3 });
const fieldValue = fc.oneof(anyJson, hostileText, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.dictionary(fc.constantFrom("S1", "M1", "S40", "freq_olahraga", "x"), anyJson));

const jsonBody = fc.oneof(
  fc.dictionary(fc.constantFrom(...fieldNames), fieldValue, { maxKeys: 6 }).map((value) => JSON.stringify(value)),
  anyJson.map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 60 }),
  fc.constant('{"a":'),
  fc.constant(""),
);

function multipartBody(kind: number, bytes: Uint8Array, name: string): FormData {
  const form = new FormData();
  if (kind === 0) form.append("foto", new File([bytes], name));
  else if (kind === 1) form.append("foto", name);
  else if (kind === 2) form.append("other", new File([bytes], name));
  else form.append("foto", new File([jpegWithExif(), bytes], name));
  return form;
}

const requestShape = fc.record({
  route: fc.nat(),
  role: fc.constantFrom("none", "garbage", "admin", "dosen1", "mhs1", "mhs2"),
  params: fc.array(hostileText, { minLength: 2, maxLength: 2 }),
  query: fc.dictionary(fc.constantFrom("page", "per_page", "nim", "q", "stress", "motivation", "NIP", "sort", "x"), hostileText, { maxKeys: 4 }),
  body: jsonBody,
  contentType: fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""),
  multipart: fc.option(fc.record({ kind: fc.nat(3), bytes: fc.uint8Array({ maxLength: 64 }), name: hostileText }), { nil: undefined }),
  ifNoneMatch: fc.option(hostileText, { nil: undefined }),
});

beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(standardAccounts);
  tokens.garbage = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.invalid";
  Object.assign(tokens, await service.accessTokens(["admin", "dosen1", "mhs1", "mhs2"]));
});
afterAll(() => service.close());

test("every route with every role: no 5xx, error bodies are {error}, rejections write nothing", async () => {
  const all = routes();
  expect(all.length).toBeGreaterThanOrEqual(30);
  await fc.assert(
    fc.asyncProperty(requestShape, async (shape) => {
      const route = all[shape.route % all.length]!;
      let paramIndex = 0;
      const path = route.path.replace(/:[a-z_]+/g, () => encodeURIComponent(shape.params[paramIndex++]!));
      const search = new URLSearchParams(shape.query).toString();
      const headers: Record<string, string> = {};
      if (shape.ifNoneMatch !== undefined) headers["if-none-match"] = shape.ifNoneMatch.replace(/[^\x20-\x7e]/g, "");
      let rawBody: RequestInit["body"];
      if (route.method !== "GET") {
        if (shape.multipart) rawBody = multipartBody(shape.multipart.kind, shape.multipart.bytes, shape.multipart.name);
        else {
          rawBody = shape.body;
          if (shape.contentType) headers["content-type"] = shape.contentType;
        }
      }
      // The logout route revokes the token it is given; keep the shared tokens usable.
      if (route.path === "/api/auth/logout") return;
      const before = changes();
      const response = await service.request(route.method, `${path}${search ? `?${search}` : ""}`, { token: tokens[shape.role], headers, rawBody });
      expect(response.status).toBeLessThan(500);
      if (response.status >= 400) {
        expect(typeof response.body === "object" && response.body !== null && !Array.isArray(response.body)).toBe(true);
        expect(typeof response.body.error).toBe("string");
        expect(changes()).toBe(before);
      }
    }),
    { numRuns: 4000 },
  );
}, 120_000);
