import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestService, jawaban } from "../helpers";
import { answers, apiOperationsOf, bodies, documentedService, objectsOf, open, operationOf, operationsOf, optionalToken, queries, schemaNodes, writes } from "./openapi-interface";

// The OpenAPI document (/openapi/json) against the interface: every body and every answer the
// interface names is described with a real schema (the tables: openapi-interface.ts). What
// the service really answers is held to it in openapi-answers.test.ts.

let service: TestService;
let document: any;

beforeAll(async () => ({ service, document } = await documentedService()));
afterAll(() => service.close());

const operations = () => operationsOf(document);
const apiOperations = () => apiOperationsOf(document);
const operation = (name: string) => operationOf(document, name);

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
