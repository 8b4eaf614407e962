import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import { TestService, jawaban, standardAccounts, type RequestOptions, type TestResponse } from "../helpers";
import { pngSized } from "../photos/fixtures";

// The OpenAPI document (/openapi/json) against the interface, and against what the service
// really answers: every body and every answer the interface names is described with a real
// schema, and the answers of a walk through every route are valid against the schema the
// document gives for their status, so that the document cannot drift from the code.

let service: TestService;
let document: any;

beforeAll(async () => {
  service = new TestService();
  document = (await service.request("GET", "/openapi/json")).body;
});
afterAll(() => service.close());

const methods = ["get", "put", "post", "delete", "patch"];

/** Every operation of the document as "METHOD /path", with the operation. */
function operations(): [string, any][] {
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    methods.filter((method) => item[method]).map((method) => [`${method.toUpperCase()} ${path}`, item[method]] as [string, any]),
  );
}
const apiOperations = () => operations().filter(([name]) => name.split(" ")[1]!.startsWith("/api/"));
const operation = (name: string) => {
  const [method, path] = name.split(" ");
  const found = document.paths[path!]?.[method!.toLowerCase()];
  if (!found) throw new Error(`${name} is not in the document`);
  return found;
};

type JsonType = "string" | "integer" | "number" | "object" | "boolean";

/** The interface's Request column: each body's fields, their JSON type, and whether they are required. */
const bodies: Record<string, { media: string; fields: Record<string, [JsonType, boolean]> }> = {
  "POST /api/auth/login": { media: "application/json", fields: { username: ["string", true], password: ["string", true] } },
  "POST /api/auth/activation": { media: "application/json", fields: { username: ["string", true], password: ["string", true], password_baru: ["string", false] } },
  "POST /api/auth/password": { media: "application/json", fields: { old_password: ["string", true], new_password: ["string", true] } },
  // durasi_detik and jawaban_keselamatan: additions of decisions §20.
  "POST /api/mahasiswa/kuesioner": {
    media: "application/json",
    fields: { jawaban: ["object", true], NIM: ["string", false], durasi_detik: ["number", false], jawaban_keselamatan: ["integer", false] },
  },
  "PUT /api/mahasiswa/profil": {
    media: "application/json",
    fields: {
      angkatan: ["string", false],
      gender: ["string", false],
      usia: ["integer", false],
      freq_olahraga: ["string", false],
      durasi_tidur: ["string", false],
      IPK: ["number", false],
    },
  },
  "POST /api/mahasiswa/mood": { media: "application/json", fields: { date: ["string", true], mood_value: ["integer", true], nim: ["string", false] } },
  "PUT /api/mahasiswa/mood/{id}": { media: "application/json", fields: { date: ["string", false], mood_value: ["integer", false] } },
  "POST /api/mahasiswa/diary": {
    media: "application/json",
    fields: { date: ["string", true], content: ["string", true], title: ["string", false], nim: ["string", false], dibagikan: ["boolean", false] },
  },
  "PUT /api/mahasiswa/diary/{id}": {
    media: "application/json",
    fields: { date: ["string", false], content: ["string", false], title: ["string", false], dibagikan: ["boolean", false] },
  },
  "PUT /api/mahasiswa/profil/foto": { media: "multipart/form-data", fields: { foto: ["string", true] } },
  "POST /api/mahasiswa/catatan/{id_catatan}/reply": { media: "application/json", fields: { reply: ["string", true] } },
  "PUT /api/mahasiswa/catatan/{id_catatan}/reply": { media: "application/json", fields: { reply: ["string", true] } },
  "POST /api/dosen/catatan": { media: "application/json", fields: { NIM: ["string", true], isi_catatan: ["string", true], NIP: ["string", false] } },
  "POST /api/privasi/pemberitahuan/setuju": { media: "application/json", fields: { version: ["string", true] } },
  "POST /api/dosen/tindak-lanjut/{id}/status": {
    media: "application/json",
    fields: { status: ["string", true], catatan: ["string", true], hasil_kontak: ["string", false], alasan_selesai: ["string", false], perlu_dukungan: ["string", false] },
  },
  "PUT /api/dosen/tindak-lanjut/{id}/pemilik": { media: "application/json", fields: { NIP: ["string", true] } },
  // Decisions §19.
  "POST /api/mahasiswa/minta-kontak": { media: "application/json", fields: { pesan: ["string", false] } },
  "PUT /api/dosen/profil": { media: "application/json", fields: { telepon: ["string", true] } },
};

/** The keys of a follow-up case (the issue 18 contract, /work/notes shared with the web interface). */
const followUpCaseKeys = ["id", "NIM", "nama_mahasiswa", "NIP", "nama_dosen", "alasan", "status", "dibuka_pada", "pertama_dihubungi_pada", "ditutup_pada", "diperbarui_pada", "hari_terbuka"];

/**
 * The interface's answers of each route: the statuses it names (success, and the errors of
 * its rules and of its Auth column) and the keys of the success body (of its items, for a list).
 */
const answers: Record<string, { statuses: number[]; keys: string[] }> = {
  "POST /api/auth/login": { statuses: [200, 400, 401, 403], keys: ["access_token", "refresh_token", "user"] },
  "POST /api/auth/refresh": { statuses: [200, 401], keys: ["access_token"] },
  "POST /api/auth/logout": { statuses: [200, 401], keys: ["message"] },
  "GET /api/auth/me": { statuses: [200, 401], keys: ["Id_User", "username", "role", "is_activated"] },
  "POST /api/auth/activation": { statuses: [200, 400, 401, 404, 500], keys: ["message", "user"] },
  "POST /api/auth/password": { statuses: [200, 400, 401], keys: ["message"] },
  "GET /api/mahasiswa/can_submit/{nim}": { statuses: [200, 401, 403, 404], keys: ["can_submit", "message", "last_submission_date", "days_remaining"] },
  "POST /api/mahasiswa/kuesioner": {
    statuses: [201, 400, 401, 403, 404],
    keys: ["message", "Id_skrining", "tingkat_stres", "tingkat_motivasi", "score_stress", "score_sdi", "saran", "detailed_suggestions"],
  },
  "GET /api/mahasiswa/hasil/{nim}": {
    statuses: [200, 401, 403, 404],
    keys: ["Id_skrining", "NIM", "tanggal_skrining", "tingkat_stres", "tingkat_motivasi", "saran", "score_stress", "score_sdi"],
  },
  "GET /api/mahasiswa/history": { statuses: [200, 401, 403], keys: ["data", "total", "page", "total_pages"] },
  "GET /api/mahasiswa/catatan": { statuses: [200, 401, 403, 404], keys: ["Id_catatan", "NIM", "NIP", "isi_catatan", "reply", "tanggal_reply"] },
  "GET /api/mahasiswa/suggestions/detail": { statuses: [200, 400, 401], keys: ["suggestions"] },
  "PUT /api/mahasiswa/profil": { statuses: [200, 400, 401, 403], keys: ["message", "data"] },
  "GET /api/mahasiswa/profil/status": { statuses: [200, 401, 403], keys: ["is_complete", "missing_fields"] },
  "GET /api/mahasiswa/profil/data/{nim}": {
    statuses: [200, 401, 403, 404],
    keys: ["nim", "nama", "program", "angkatan", "kelas", "ipk", "foto_profil", "gender", "usia", "freq_olahraga", "durasi_tidur", "nip_doswal", "nama_dosen_wali", "telepon_dosen_wali"],
  },
  "POST /api/mahasiswa/mood": { statuses: [200, 201, 400, 401, 403, 404], keys: ["id", "nim", "date", "mood_value", "created_at", "updated_at"] },
  "GET /api/mahasiswa/mood/{nim}": { statuses: [200, 401, 403], keys: ["id", "nim", "date", "mood_value", "created_at", "updated_at"] },
  "PUT /api/mahasiswa/mood/{id}": { statuses: [200, 400, 401, 403, 404], keys: ["id", "nim", "date", "mood_value", "created_at", "updated_at"] },
  "DELETE /api/mahasiswa/mood/{id}": { statuses: [200, 401, 403, 404], keys: ["message"] },
  "POST /api/mahasiswa/diary": { statuses: [201, 400, 401, 403, 404], keys: ["id", "nim", "date", "title", "content", "created_at"] },
  "GET /api/mahasiswa/diary/{nim}": { statuses: [200, 401, 403], keys: ["id", "nim", "date", "title", "content", "created_at"] },
  "PUT /api/mahasiswa/diary/{id}": { statuses: [200, 401, 403, 404], keys: ["id", "nim", "date", "title", "content", "created_at"] },
  "DELETE /api/mahasiswa/diary/{id}": { statuses: [200, 401, 403, 404], keys: ["message"] },
  "PUT /api/mahasiswa/profil/foto": { statuses: [200, 400, 401, 403, 500], keys: ["message", "foto_profil"] },
  "GET /api/mahasiswa/profil/foto/{nim}": { statuses: [200, 404], keys: [] },
  "DELETE /api/mahasiswa/profil/foto/{nim}": { statuses: [200, 401, 403, 404], keys: ["message", "foto_profil"] },
  "POST /api/mahasiswa/catatan/{id_catatan}/reply": { statuses: [200, 400, 401, 403, 404], keys: ["message", "data"] },
  "PUT /api/mahasiswa/catatan/{id_catatan}/reply": { statuses: [200, 400, 401, 403, 404], keys: ["message", "data"] },
  "GET /api/mahasiswa/catatan/detail/{id_catatan}": { statuses: [200, 401, 403, 404], keys: ["Id_catatan", "NIM", "NIP", "isi_catatan", "reply", "tanggal_reply"] },
  "GET /api/dosen/mahasiswa": { statuses: [200, 401, 403], keys: ["data", "total", "page", "total_pages"] },
  "GET /api/dosen/mahasiswa/{nim}": { statuses: [200, 401, 403, 404], keys: ["mahasiswa", "riwayat", "catatan"] },
  "GET /api/dosen/statistik": { statuses: [200, 401, 403], keys: ["total_mahasiswa", "sudah_skrining", "stress_dist", "motivasi_dist"] },
  "POST /api/dosen/catatan": { statuses: [201, 400, 401, 403, 404], keys: ["message", "id"] },
  "GET /api/dosen/catatan/{nim}": { statuses: [200, 401, 403, 404], keys: ["Id_catatan", "NIM", "NIP", "isi_catatan", "reply", "tanggal_reply"] },
  "GET /api/dosen/daftar": { statuses: [200, 401, 403], keys: ["NIP", "nama_dosen", "total_mahasiswa"] },
  "GET /api/konten/bantuan": { statuses: [200], keys: ["title", "text"] },
  "GET /api/kuesioner/questions": { statuses: [200, 401], keys: ["key", "text", "scale", "group"] },
  "GET /api/kuesioner/keselamatan": { statuses: [200, 401], keys: ["aktif", "pertanyaan", "skala", "pilihan", "kontak"] },
  "GET /api/privasi/pemberitahuan": { statuses: [200, 401], keys: ["version", "title", "text", "acknowledged"] },
  "POST /api/privasi/pemberitahuan/setuju": { statuses: [200, 201, 400, 401, 403, 409, 429], keys: ["message", "version", "acknowledged_at"] },
  "GET /api/mahasiswa/data-saya": {
    statuses: [200, 401, 403, 404],
    keys: ["dibuat_pada", "profil", "foto_url", "skrining", "mood", "jurnal", "catatan", "pemberitahuan_privasi", "dibatasi_sejak", "dilihat_oleh"],
  },
  // Issue 18: follow-up cases (docs/decisions.md, Follow-up cases).
  "GET /api/dosen/tindak-lanjut": { statuses: [200, 400, 401, 403], keys: ["data", "pagination"] },
  "GET /api/dosen/tindak-lanjut/ringkasan": { statuses: [200, 401, 403], keys: ["per_dosen", "fakultas"] },
  "GET /api/dosen/tindak-lanjut/{id}": { statuses: [200, 401, 403, 404], keys: [...followUpCaseKeys, "riwayat", "tingkat_terakhir"] },
  "POST /api/dosen/tindak-lanjut/{id}/status": { statuses: [200, 400, 401, 403, 404, 409], keys: [...followUpCaseKeys, "riwayat", "tingkat_terakhir"] },
  "PUT /api/dosen/tindak-lanjut/{id}/pemilik": { statuses: [200, 400, 401, 403, 404], keys: [...followUpCaseKeys, "riwayat", "tingkat_terakhir"] },
  // Decisions §19.
  "GET /api/mahasiswa/minta-kontak": { statuses: [200, 401, 403, 404], keys: ["dosen_wali", "permintaan_terakhir", "boleh_minta_lagi_pada"] },
  "POST /api/mahasiswa/minta-kontak": { statuses: [201, 400, 401, 403, 404, 429], keys: ["message", "dosen_wali", "permintaan_terakhir", "boleh_minta_lagi_pada"] },
  "GET /api/dosen/hari-ini": { statuses: [200, 401, 403], keys: ["kasus", "baru_ditutup", "balasan", "berisiko", "jumlah"] },
  "GET /api/dosen/profil": { statuses: [200, 401, 403, 404], keys: ["NIP", "nama_dosen", "telepon"] },
  "PUT /api/dosen/profil": { statuses: [200, 400, 401, 403, 404], keys: ["message", "data"] },
};

/** The query parameters each route reads, and whether the interface requires them. */
const queries: Record<string, Record<string, boolean>> = {
  "GET /api/mahasiswa/history": { nim: false, page: false, per_page: false },
  "GET /api/mahasiswa/catatan": { nim: false },
  "GET /api/mahasiswa/suggestions/detail": { stress: true, motivation: true },
  "GET /api/dosen/mahasiswa": { q: false, page: false, per_page: false, sort: false, balasan: false, NIP: false },
  "GET /api/dosen/statistik": { NIP: false },
  "GET /api/dosen/tindak-lanjut": { status: false, min_hari: false, nip: false, page: false, per_page: false },
};

/** The routes that need no token (the interface's Auth `none`, and the faculty's help text). */
const open = ["POST /api/auth/login", "POST /api/auth/activation", "GET /api/mahasiswa/profil/foto/{nim}", "GET /api/konten/bantuan"];
/** The routes that need no token but read one when it is given (the privacy notice: whether a student acknowledged it). */
const optionalToken = ["GET /api/privasi/pemberitahuan"];

/** Writes answer 413 for a body over the limit, 503 and 507 for a storage that cannot store. */
const writes = (name: string) => !name.startsWith("GET ");

/** An object schema's properties, looking through a union (every member) or a list (its items). */
function objectsOf(schema: any): any[] {
  if (Array.isArray(schema?.anyOf)) return schema.anyOf.flatMap(objectsOf);
  if (schema?.type === "array") return objectsOf(schema.items);
  return [schema];
}

/** Every schema node of the document, each with where it is. */
function* schemaNodes(node: unknown, at: string): Generator<[string, any]> {
  if (Array.isArray(node)) for (const [index, child] of node.entries()) yield* schemaNodes(child, `${at}/${index}`);
  else if (node && typeof node === "object") {
    yield [at, node];
    for (const [key, child] of Object.entries(node)) yield* schemaNodes(child, `${at}/${key}`);
  }
}

describe("the document against the interface", () => {
  test("lists every route of the interface and no other under /api", () => {
    expect(apiOperations().map(([name]) => name).sort()).toEqual(Object.keys(answers).sort());
  });

  test("every route that takes a body documents it, with the interface's fields, types and required ones", () => {
    for (const [name, op] of apiOperations()) {
      const expected = bodies[name];
      if (!expected) {
        expect({ name, requestBody: op.requestBody }).toEqual({ name, requestBody: undefined });
        continue;
      }
      expect({ name, media: Object.keys(op.requestBody?.content ?? {}) }).toEqual({ name, media: [expected.media] });
      const schema = op.requestBody.content[expected.media].schema;
      expect({ name, type: schema.type }).toEqual({ name, type: "object" });
      const fields = Object.fromEntries(Object.keys(schema.properties).map((field) => [field, [schema.properties[field].type, (schema.required ?? []).includes(field)]]));
      expect({ name, fields }).toEqual({ name, fields: expected.fields });
      expect({ name, required: op.requestBody.required }).toEqual({ name, required: Object.values(expected.fields).some(([, required]) => required) });
    }
  });

  test("the questionnaire's body names all 68 items, each required on its own scale", () => {
    const jawabanSchema = operation("POST /api/mahasiswa/kuesioner").requestBody.content["application/json"].schema.properties.jawaban;
    const items = Object.keys(jawaban(1, 1));
    expect(jawabanSchema.required.sort()).toEqual([...items].sort());
    expect([jawabanSchema.properties.S1.minimum, jawabanSchema.properties.S1.maximum]).toEqual([1, 5]);
    expect([jawabanSchema.properties.M28.minimum, jawabanSchema.properties.M28.maximum]).toEqual([1, 7]);
    expect(Object.keys(jawabanSchema.properties)).toEqual(expect.arrayContaining(["freq_olahraga", "durasi_tidur"]));
  });

  test("every response has a real schema: an object with properties, a picture, or no body for 304", () => {
    for (const [name, op] of operations()) {
      const responses = Object.entries(op.responses ?? {}) as [string, any][];
      expect({ name, documented: responses.length > 0 }).toEqual({ name, documented: true });
      for (const [status, response] of responses) {
        const where = `${name} ${status}`;
        expect({ where, description: typeof response.description === "string" && response.description !== "" }).toEqual({ where, description: true });
        if (status === "304") {
          expect({ where, content: response.content }).toEqual({ where, content: undefined });
          continue;
        }
        const media = Object.keys(response.content ?? {});
        expect({ where, media: media.length > 0 }).toEqual({ where, media: true });
        for (const type of media) {
          const schema = response.content[type].schema;
          if (type.startsWith("image/")) {
            expect({ where, schema }).toEqual({ where, schema: { format: "binary", type: "string" } });
            continue;
          }
          expect({ where, type }).toEqual({ where, type: "application/json" });
          for (const object of objectsOf(schema)) {
            expect({ where, properties: Object.keys(object.properties ?? {}).length > 0 }).toEqual({ where, properties: true });
          }
        }
      }
    }
  });

  test("the statuses the interface names are documented, and the success body has its keys, all required", () => {
    for (const [name, { statuses, keys }] of Object.entries(answers)) {
      const op = operation(name);
      const documented = Object.keys(op.responses).map(Number);
      expect({ name, missing: statuses.filter((status) => !documented.includes(status)) }).toEqual({ name, missing: [] });
      const success = statuses.find((status) => status < 300)!;
      const json = op.responses[success].content["application/json"];
      if (!json) continue;
      for (const object of objectsOf(json.schema)) {
        expect({ name, missing: keys.filter((key) => !(object.required ?? []).includes(key)) }).toEqual({ name, missing: [] });
      }
    }
  });

  test("routes with a token document 401, writes 413 (with a body), 503 and 507, student writes 429", () => {
    for (const [name, op] of apiOperations()) {
      const documented = Object.keys(op.responses).map(Number);
      const expected = [
        ...(open.includes(name) ? [] : [401]),
        ...(bodies[name] ? [413] : []),
        ...(name === "GET /api/konten/bantuan" ? [] : [503]),
        ...(writes(name) && !name.startsWith("POST /api/auth/refresh") ? [507] : []),
      ];
      expect({ name, missing: expected.filter((status) => !documented.includes(status)) }).toEqual({ name, missing: [] });
    }
    for (const name of ["POST /api/mahasiswa/kuesioner", "POST /api/mahasiswa/mood", "PUT /api/mahasiswa/profil", "PUT /api/mahasiswa/profil/foto", "DELETE /api/mahasiswa/diary/{id}"]) {
      expect(Object.keys(operation(name).responses)).toContain("429");
    }
  });

  test("the weekly limit's 403 documents its own keys beside the plain error", () => {
    const forbidden = operation("POST /api/mahasiswa/kuesioner").responses[403].content["application/json"].schema;
    const shapes = objectsOf(forbidden).map((object) => Object.keys(object.properties).sort());
    expect(shapes).toContainEqual(["days_remaining", "error", "last_submission_date", "message"]);
    expect(shapes).toContainEqual(["error"]);
  });

  test("a bearer token is required exactly where the interface's Auth column asks for one", () => {
    for (const [name, op] of apiOperations()) {
      const security = open.includes(name) ? [] : optionalToken.includes(name) ? [{}, { bearer: [] }] : [{ bearer: [] }];
      expect({ name, security: op.security ?? [] }).toEqual({ name, security });
    }
  });

  test("query parameters are documented with the interface's required ones", () => {
    for (const [name, op] of apiOperations()) {
      const documented = Object.fromEntries((op.parameters ?? []).filter((parameter: any) => parameter.in === "query").map((parameter: any) => [parameter.name, parameter.required]));
      expect({ name, query: documented }).toEqual({ name, query: queries[name] ?? {} });
    }
  });

  test("an integer is an integer: no field is documented as a string of digits", () => {
    const leaks = [...schemaNodes(document.paths, "#/paths")].filter(([, node]) => node.format === "integer" || node.format === "numeric").map(([at]) => at);
    expect(leaks).toEqual([]);
  });

  test("GET /health is documented without a token, with its body for 200 and 503", () => {
    const health = operation("GET /health");
    expect(health.security).toBeUndefined();
    for (const status of ["200", "503"]) {
      const schema = health.responses[status].content["application/json"].schema;
      expect(schema.required.sort()).toEqual(["bcrypt", "build_date", "commit", "database", "status", "version"]);
    }
  });
});

describe("the answers of the service against the document", () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const validators = new Map<string, ValidateFunction>();
  /** The operations a walk met, each with the statuses it saw. */
  const seen = new Map<string, Set<number>>();
  const tokens: Record<string, string> = {};

  /** The document's path template of a request path (the most specific one that fits). */
  function templateOf(method: string, path: string): string {
    const bare = path.split("?")[0]!;
    const fitting = Object.keys(document.paths).filter(
      (template) => document.paths[template][method.toLowerCase()] && new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(bare),
    );
    if (fitting.length === 0) throw new Error(`${method} ${path} fits no documented operation`);
    return fitting.sort((a, b) => b.replace(/\{[^}]+\}/g, "").length - a.replace(/\{[^}]+\}/g, "").length)[0]!;
  }

  /** Sends a request and checks its answer: a documented status, a body valid against that status's schema. */
  async function call(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const answer = await service.request(method, path, options);
    const name = `${method} ${templateOf(method, path)}`;
    seen.set(name, (seen.get(name) ?? new Set()).add(answer.status));
    const response = operation(name).responses?.[answer.status];
    expect({ name, status: answer.status, documented: response !== undefined }).toEqual({ name, status: answer.status, documented: true });
    const mediaType = (answer.headers.get("content-type") ?? "").split(";")[0]!;
    if (answer.status === 304) return answer;
    expect({ name, status: answer.status, mediaType, documented: Object.keys(response.content ?? {}).includes(mediaType) }).toEqual({
      name,
      status: answer.status,
      mediaType,
      documented: true,
    });
    if (mediaType === "application/json") {
      const key = `${name} ${answer.status}`;
      if (!validators.has(key)) validators.set(key, ajv.compile(response.content[mediaType].schema));
      const validate = validators.get(key)!;
      const valid = validate(answer.body);
      expect({ key, body: answer.body, errors: valid ? null : validate.errors }).toEqual({ key, body: answer.body, errors: null });
    }
    return answer;
  }

  beforeAll(async () => {
    await service.importAccounts(standardAccounts);
  });

  test("the authentication routes", async () => {
    const login = await call("POST", "/api/auth/login", { body: { username: "mhs1", password: "mhs-pass-1" } });
    expect(login.status).toBe(200);
    tokens.mhs1 = login.body.access_token;
    expect((await call("POST", "/api/auth/refresh", { token: login.body.refresh_token })).status).toBe(200);
    expect((await call("GET", "/api/auth/me", { token: tokens.mhs1 })).status).toBe(200);
    Object.assign(tokens, await service.accessTokens(["admin", "dosen1", "dosen2", "mhs2"]));
    for (const token of [tokens.admin, tokens.dosen1]) expect((await call("GET", "/api/auth/me", { token })).status).toBe(200);
    expect((await call("POST", "/api/auth/activation", { body: { username: "mhs3", password: "mhs-pass-3" } })).status).toBe(200);
    expect((await call("POST", "/api/auth/activation", { body: { username: "mhs3", password: "mhs-pass-3" } })).status).toBe(400);
    expect((await call("POST", "/api/auth/activation", { body: { username: "tidak-ada", password: "x" } })).status).toBe(404);
    expect((await call("POST", "/api/auth/login", { body: { username: "mhs1", password: "salah" } })).status).toBe(401);
    expect((await call("POST", "/api/auth/login", { body: {} })).status).toBe(400);
    const mhs3 = await service.login("mhs3", "mhs-pass-3");
    expect((await call("POST", "/api/auth/password", { token: mhs3.access, body: { old_password: "mhs-pass-3", new_password: "sandi-baru-3" } })).status).toBe(200);
    expect((await call("POST", "/api/auth/password", { token: mhs3.access, body: {} })).status).toBe(401);
    expect((await call("GET", "/api/auth/me")).status).toBe(401);
  });

  test("the questionnaire, its result, history and suggestions", async () => {
    expect((await call("GET", "/api/kuesioner/questions", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("GET", "/api/kuesioner/keselamatan", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("GET", "/api/kuesioner/keselamatan")).status).toBe(401);
    expect((await call("GET", "/api/konten/bantuan")).status).toBe(200);
    expect((await call("GET", "/api/mahasiswa/can_submit/N001", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("GET", "/api/mahasiswa/hasil/N001", { token: tokens.mhs1 })).status).toBe(404);
    expect((await call("POST", "/api/mahasiswa/kuesioner", { token: tokens.mhs1, body: { jawaban: jawaban(3, 4, { freq_olahraga: "1-3 kali" }) } })).status).toBe(201);
    const limited = await call("POST", "/api/mahasiswa/kuesioner", { token: tokens.mhs1, body: { jawaban: jawaban(3, 4) } });
    expect([limited.status, limited.body.error]).toEqual([403, "Batasan Mingguan"]);
    expect((await call("POST", "/api/mahasiswa/kuesioner", { token: tokens.admin, body: { jawaban: jawaban(3, 4) } })).status).toBe(400);
    expect((await call("POST", "/api/mahasiswa/kuesioner", { token: tokens.dosen1, body: { jawaban: jawaban(3, 4) } })).status).toBe(403);
    expect((await call("GET", "/api/mahasiswa/can_submit/N001", { token: tokens.mhs1 })).body.can_submit).toBe(false);
    expect((await call("GET", "/api/mahasiswa/can_submit/N001", { token: tokens.mhs2 })).status).toBe(403);
    expect((await call("GET", "/api/mahasiswa/can_submit/N999", { token: tokens.admin })).status).toBe(404);
    expect((await call("GET", "/api/mahasiswa/hasil/N001", { token: tokens.dosen1 })).body.input_jawaban).toBeDefined();
    expect((await call("GET", "/api/mahasiswa/history", { token: tokens.mhs1 })).body.total).toBe(1);
    expect((await call("GET", "/api/mahasiswa/history?nim=N001&page=1&per_page=5", { token: tokens.admin })).status).toBe(200);
    expect((await call("GET", "/api/mahasiswa/history", { token: tokens.admin })).status).toBe(400);
    expect((await call("GET", "/api/mahasiswa/suggestions/detail?stress=Tinggi&motivation=Rendah", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("GET", "/api/mahasiswa/suggestions/detail", { token: tokens.mhs1 })).status).toBe(400);
  });

  test("the profile and its photo", async () => {
    expect((await call("GET", "/api/mahasiswa/profil/status", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("PUT", "/api/mahasiswa/profil", { token: tokens.mhs1, body: { usia: "20", IPK: 3.5, gender: "Perempuan", angkatan: 2023 } })).status).toBe(200);
    expect((await call("PUT", "/api/mahasiswa/profil", { token: tokens.mhs1, body: { IPK: 5 } })).status).toBe(400);
    expect((await call("PUT", "/api/mahasiswa/profil", { token: tokens.dosen1, body: {} })).status).toBe(403);
    expect((await call("GET", "/api/mahasiswa/profil/data/N001", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("GET", "/api/mahasiswa/profil/data/N999", { token: tokens.admin })).status).toBe(404);
    expect((await call("GET", "/api/mahasiswa/profil/foto/N001")).status).toBe(404);
    const form = new FormData();
    form.append("foto", new File([pngSized(4, 4)], "foto.png"));
    expect((await call("PUT", "/api/mahasiswa/profil/foto", { token: tokens.mhs1, rawBody: form })).status).toBe(200);
    expect((await call("PUT", "/api/mahasiswa/profil/foto", { token: tokens.mhs1, rawBody: new FormData() })).status).toBe(400);
    const photo = await call("GET", "/api/mahasiswa/profil/foto/N001");
    expect(photo.status).toBe(200);
    expect((await call("GET", "/api/mahasiswa/profil/foto/N001", { headers: { "if-none-match": photo.headers.get("etag")! } })).status).toBe(304);
    expect((await call("DELETE", "/api/mahasiswa/profil/foto/N002", { token: tokens.mhs1 })).status).toBe(403);
    expect((await call("DELETE", "/api/mahasiswa/profil/foto/N001", { token: tokens.mhs1 })).status).toBe(200);
  });

  test("mood and diary entries", async () => {
    const created = await call("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-03-01", mood_value: 4 } });
    expect(created.status).toBe(201);
    expect((await call("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-03-01", mood_value: "5" } })).status).toBe(200);
    const other = await call("POST", "/api/mahasiswa/mood", { token: tokens.admin, body: { nim: "N001", date: "2026-03-02", mood_value: 2 } });
    expect(other.status).toBe(201);
    expect((await call("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: {} })).status).toBe(400);
    expect((await call("POST", "/api/mahasiswa/mood", { token: tokens.admin, body: { nim: "N999", date: "2026-03-02", mood_value: 2 } })).status).toBe(404);
    expect((await call("GET", "/api/mahasiswa/mood/N001", { token: tokens.dosen1 })).body).toHaveLength(2);
    expect((await call("GET", "/api/mahasiswa/mood/N001", { token: tokens.dosen2 })).status).toBe(403);
    expect((await call("PUT", `/api/mahasiswa/mood/${created.body.id}`, { token: tokens.mhs1, body: { mood_value: 3 } })).status).toBe(200);
    expect((await call("PUT", `/api/mahasiswa/mood/${created.body.id}`, { token: tokens.mhs1, body: { date: "2026-03-02" } })).status).toBe(409);
    expect((await call("PUT", `/api/mahasiswa/mood/${created.body.id}`, { token: tokens.mhs2, body: { mood_value: 3 } })).status).toBe(403);
    expect((await call("DELETE", "/api/mahasiswa/mood/99999", { token: tokens.mhs1 })).status).toBe(404);
    expect((await call("DELETE", `/api/mahasiswa/mood/${created.body.id}`, { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, rawBody: `{"date":"${"x".repeat(1024 * 1024)}"}`, headers: { "content-type": "application/json" } })).status).toBe(413);

    const diary = await call("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-03-01", content: "Hari yang baik." } });
    expect(diary.status).toBe(201);
    expect((await call("POST", "/api/mahasiswa/diary", { token: tokens.mhs1, body: { date: "2026-03-01" } })).status).toBe(400);
    expect((await call("GET", "/api/mahasiswa/diary/N001", { token: tokens.mhs1 })).body).toHaveLength(1);
    expect((await call("PUT", `/api/mahasiswa/diary/${diary.body.id}`, { token: tokens.mhs1, body: { title: "Senin" } })).status).toBe(200);
    expect((await call("PUT", "/api/mahasiswa/diary/99999", { token: tokens.mhs1, body: { title: "Senin" } })).status).toBe(404);
    expect((await call("DELETE", `/api/mahasiswa/diary/${diary.body.id}`, { token: tokens.mhs1 })).status).toBe(200);
  });

  test("counselling notes from both sides", async () => {
    const note = await call("POST", "/api/dosen/catatan", { token: tokens.dosen1, body: { NIM: "N001", isi_catatan: "Mari bertemu hari Senin." } });
    expect(note.status).toBe(201);
    expect((await call("POST", "/api/dosen/catatan", { token: tokens.dosen2, body: { NIM: "N001", isi_catatan: "Halo" } })).status).toBe(403);
    expect((await call("POST", "/api/dosen/catatan", { token: tokens.dosen1, body: { NIM: "N001" } })).status).toBe(400);
    expect((await call("GET", "/api/dosen/catatan/N001", { token: tokens.dosen1 })).body).toHaveLength(1);
    expect((await call("GET", "/api/dosen/catatan/N999", { token: tokens.admin })).status).toBe(404);
    expect((await call("GET", "/api/mahasiswa/catatan", { token: tokens.mhs1 })).body).toHaveLength(1);
    expect((await call("GET", `/api/mahasiswa/catatan/detail/${note.body.id}`, { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("GET", `/api/mahasiswa/catatan/detail/${note.body.id}`, { token: tokens.mhs2 })).status).toBe(403);
    expect((await call("PUT", `/api/mahasiswa/catatan/${note.body.id}/reply`, { token: tokens.mhs1, body: { reply: "Baik." } })).status).toBe(400);
    expect((await call("POST", `/api/mahasiswa/catatan/${note.body.id}/reply`, { token: tokens.mhs1, body: { reply: "Baik, Bu." } })).body.data.status).toBe("sudah_dibalas");
    expect((await call("PUT", `/api/mahasiswa/catatan/${note.body.id}/reply`, { token: tokens.mhs1, body: { reply: "Baik, Pak." } })).status).toBe(200);
    expect((await call("POST", "/api/mahasiswa/catatan/99999/reply", { token: tokens.mhs1, body: { reply: "Halo" } })).status).toBe(404);
  });

  test("the lecturer's views and the admin's list of lecturers", async () => {
    const students = await call("GET", "/api/dosen/mahasiswa?sort=risk", { token: tokens.dosen1 });
    expect(students.body.data[0].last_skrining).not.toBeNull();
    expect((await call("GET", "/api/dosen/mahasiswa/N001", { token: tokens.dosen1 })).status).toBe(200);
    expect((await call("GET", "/api/dosen/mahasiswa/N001", { token: tokens.dosen2 })).status).toBe(403);
    expect((await call("GET", "/api/dosen/mahasiswa", { token: tokens.mhs1 })).status).toBe(403);
    expect((await call("GET", "/api/dosen/statistik", { token: tokens.dosen1 })).body.belum_skrining).toBeDefined();
    expect((await call("GET", "/api/dosen/statistik?NIP=D999", { token: tokens.admin })).body).toEqual({ total_mahasiswa: 0, sudah_skrining: 0, stress_dist: {}, motivasi_dist: {} });
    expect((await call("GET", "/api/dosen/daftar", { token: tokens.admin })).status).toBe(200);
    expect((await call("GET", "/api/dosen/daftar", { token: tokens.dosen1 })).status).toBe(403);
  });

  test("follow-up cases", async () => {
    // mhs2 (N002, advisee of dosen2) had no screening yet: this one raises an early warning and opens a case.
    const flagged = jawaban(5, 1, { M25: 7, M26: 7, M27: 7, M28: 7 });
    expect((await call("POST", "/api/mahasiswa/kuesioner", { token: tokens.mhs2, body: { jawaban: flagged } })).status).toBe(201);
    const list = await call("GET", "/api/dosen/tindak-lanjut?status=baru&min_hari=0", { token: tokens.dosen2 });
    const id = list.body.data[0].id;
    expect((await call("GET", "/api/dosen/tindak-lanjut?status=tutup", { token: tokens.dosen2 })).status).toBe(400);
    expect((await call("GET", "/api/dosen/tindak-lanjut", { token: tokens.mhs1 })).status).toBe(403);
    expect((await call("GET", `/api/dosen/tindak-lanjut/${id}`, { token: tokens.dosen2 })).body.riwayat).toHaveLength(1);
    expect((await call("GET", `/api/dosen/tindak-lanjut/${id}`, { token: tokens.dosen1 })).status).toBe(403);
    expect((await call("GET", "/api/dosen/tindak-lanjut/99999", { token: tokens.admin })).status).toBe(404);
    expect((await call("POST", `/api/dosen/tindak-lanjut/${id}/status`, { token: tokens.dosen2, body: { status: "dihubungi", catatan: "Ditelepon.", hasil_kontak: "berhasil" } })).status).toBe(200);
    expect((await call("POST", `/api/dosen/tindak-lanjut/${id}/status`, { token: tokens.dosen2, body: { status: "baru", catatan: "x" } })).status).toBe(409);
    expect((await call("POST", `/api/dosen/tindak-lanjut/${id}/status`, { token: tokens.dosen2, body: {} })).status).toBe(400);
    expect((await call("PUT", `/api/dosen/tindak-lanjut/${id}/pemilik`, { token: tokens.admin, body: { NIP: "D001" } })).body.NIP).toBe("D001");
    expect((await call("PUT", `/api/dosen/tindak-lanjut/${id}/pemilik`, { token: tokens.admin, body: { NIP: "D999" } })).status).toBe(404);
    expect((await call("PUT", `/api/dosen/tindak-lanjut/${id}/pemilik`, { token: tokens.admin, body: {} })).status).toBe(400);
    expect((await call("PUT", `/api/dosen/tindak-lanjut/${id}/pemilik`, { token: tokens.dosen1, body: { NIP: "D001" } })).status).toBe(403);
    expect((await call("GET", "/api/dosen/tindak-lanjut/ringkasan", { token: tokens.admin })).body.fakultas.terbuka).toBe(1);
    expect((await call("GET", "/api/dosen/mahasiswa/N002", { token: tokens.admin })).body.tindak_lanjut.id).toBe(id);
    // Decisions §19: another attempt, then a closing with its reason and judgement.
    expect((await call("POST", `/api/dosen/tindak-lanjut/${id}/status`, { token: tokens.admin, body: { status: "dihubungi", catatan: "Lagi.", hasil_kontak: "dijadwalkan" } })).status).toBe(200);
    const closed = await call("POST", `/api/dosen/tindak-lanjut/${id}/status`, { token: tokens.admin, body: { status: "selesai", catatan: "Selesai.", alasan_selesai: "teratasi", perlu_dukungan: "tidak" } });
    expect(closed.body).toMatchObject({ alasan_selesai: "teratasi", perlu_dukungan: "tidak" });
  });

  test("after the first contact: a student's request, the lecturer's first page and profile, the former advisor's refusal", async () => {
    expect((await call("GET", "/api/mahasiswa/minta-kontak", { token: tokens.mhs1 })).body.permintaan_terakhir).toBeNull();
    expect((await call("POST", "/api/mahasiswa/minta-kontak", { token: tokens.mhs1, body: { pesan: "Boleh bertemu?" } })).status).toBe(201);
    expect((await call("POST", "/api/mahasiswa/minta-kontak", { token: tokens.mhs1, body: {} })).status).toBe(429);
    expect((await call("POST", "/api/mahasiswa/minta-kontak", { token: tokens.mhs2, body: { pesan: 5 } })).status).toBe(400);
    expect((await call("POST", "/api/mahasiswa/minta-kontak", { token: tokens.dosen1, body: {} })).status).toBe(403);
    const today = await call("GET", "/api/dosen/hari-ini", { token: tokens.dosen1 });
    expect(today.body.jumlah.kasus).toBeGreaterThan(0);
    expect((await call("GET", "/api/dosen/hari-ini", { token: tokens.admin })).status).toBe(403);
    expect((await call("PUT", "/api/dosen/profil", { token: tokens.dosen1, body: { telepon: "0812 3456 7890" } })).status).toBe(200);
    expect((await call("PUT", "/api/dosen/profil", { token: tokens.dosen1, body: { telepon: "bukan" } })).status).toBe(400);
    expect((await call("GET", "/api/dosen/profil", { token: tokens.dosen1 })).body.telepon).toBe("0812 3456 7890");
    expect((await call("GET", "/api/dosen/profil", { token: tokens.admin })).status).toBe(403);
    // N002 moves from D002 to D001: D002's refusal says so.
    await service.importAccounts("role,username,password,nim,nip_doswal\nmahasiswa,mhs2,,N002,D001\n");
    const moved = await call("GET", "/api/dosen/mahasiswa/N002", { token: tokens.dosen2 });
    expect(moved.body.pindah_dosen_wali.nama_dosen_wali_baru).toBe("Dosen Satu");
    expect((await call("GET", "/api/auth/me", { token: tokens.mhs2 })).body.pergantian_dosen_wali).toMatchObject({ nama_baru: "Dosen Satu" });
  });

  test("the privacy notice and a student's acknowledgement", async () => {
    expect((await call("GET", "/api/privasi/pemberitahuan")).body.acknowledged).toBeNull();
    const notice = await call("GET", "/api/privasi/pemberitahuan", { token: tokens.mhs2 });
    expect(notice.body.acknowledged).toBe(false);
    expect((await call("GET", "/api/privasi/pemberitahuan", { token: "bukan-token" })).status).toBe(401);
    expect((await call("POST", "/api/privasi/pemberitahuan/setuju", { token: tokens.mhs2, body: {} })).status).toBe(400);
    expect((await call("POST", "/api/privasi/pemberitahuan/setuju", { token: tokens.mhs2, body: { version: "lama" } })).status).toBe(409);
    expect((await call("POST", "/api/privasi/pemberitahuan/setuju", { token: tokens.dosen1, body: { version: notice.body.version } })).status).toBe(403);
    expect((await call("POST", "/api/privasi/pemberitahuan/setuju", { token: tokens.mhs2, body: { version: notice.body.version } })).status).toBe(201);
    expect((await call("POST", "/api/privasi/pemberitahuan/setuju", { token: tokens.mhs2, body: { version: notice.body.version } })).status).toBe(200);
  });

  test("a student's own data document", async () => {
    expect((await call("GET", "/api/mahasiswa/data-saya", { token: tokens.mhs1 })).body.profil.nim).toBe("N001");
    expect((await call("GET", "/api/mahasiswa/data-saya", { token: tokens.dosen1 })).status).toBe(403);
    expect((await call("GET", "/api/mahasiswa/data-saya")).status).toBe(401);
  });

  test("a storage that refuses writes answers the documented 503, and the health check says so", async () => {
    service.context.db.$client.run("PRAGMA query_only = ON");
    try {
      expect((await call("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-03-05", mood_value: 3 } })).status).toBe(503);
      expect((await call("GET", "/health")).body.status).toBe("degraded");
    } finally {
      service.context.db.$client.run("PRAGMA query_only = OFF");
    }
    expect((await call("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-03-05", mood_value: 3 } })).status).toBe(201);
    expect((await call("GET", "/health")).status).toBe(200);
  });

  test("logout, last", async () => {
    expect((await call("POST", "/api/auth/logout", { token: tokens.mhs1 })).status).toBe(200);
    expect((await call("POST", "/api/auth/logout", { token: tokens.mhs1 })).status).toBe(401);
  });

  test("the walk met every operation of the document with a success", () => {
    const unmet = operations()
      .map(([name]) => name)
      .filter((name) => ![...(seen.get(name) ?? [])].some((status) => status >= 200 && status < 300));
    expect(unmet).toEqual([]);
  });
});
