import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestService, itemKeys, standardAccounts, temporaryDir } from "../helpers";
import { cli } from "../cli/support";
import { defaultQuestions } from "../../src/skrining/questions";

let service: TestService;
let token: string;

/** A complete, valid replacement whose texts say which item they belong to. */
function replacement(mark: string) {
  return itemKeys.map((key) => ({
    key,
    text: `${mark} ${key}`,
    scale: { min: 1, max: key.startsWith("S") ? 5 : 7 },
    group: key.startsWith("S") ? "stress" : "motivasi",
  }));
}

function jsonFile(value: unknown): string {
  const path = join(temporaryDir("skrining-questions-"), "questions.json");
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

const questions = () => service.request("GET", "/api/kuesioner/questions", { token });

beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(standardAccounts);
  token = (await service.login("mhs1", "mhs-pass-1")).access;
});
afterAll(() => service.close());

describe("GET /api/kuesioner/questions", () => {
  test("needs a token", async () => {
    expect(await service.request("GET", "/api/kuesioner/questions")).toMatchObject({ status: 401, body: { error: "Token akses diperlukan." } });
  });

  test.each([
    ["mahasiswa", "mhs1", "mhs-pass-1"],
    ["dosen", "dosen1", "dosen-pass-1"],
    ["admin", "admin", "admin-pass-1"],
  ])("answers %s with the 68 default items in key order", async (_role, username, password) => {
    const { access } = await service.login(username, password);
    const response = await service.request("GET", "/api/kuesioner/questions", { token: access });
    expect(response.status).toBe(200);
    expect(response.body.map((item: { key: string }) => item.key)).toEqual(itemKeys);
    expect(response.body[0]).toEqual({ key: "S1", text: expect.any(String), scale: { min: 1, max: 5 }, group: "stress" });
    expect(response.body[40]).toEqual({ key: "M1", text: expect.any(String), scale: { min: 1, max: 7 }, group: "motivasi" });
    expect(response.body.every((item: { text: string }) => item.text.trim().length > 0)).toBe(true);
  });
});

describe("skrining questions import", () => {
  test("a valid file replaces the texts the running service serves", async () => {
    const before = (await questions()).body;
    const result = await cli(service.dataDir, ["questions", "import", jsonFile(replacement("Baru"))]);
    expect(result).toMatchObject({ exitCode: 0, stdout: "Teks 68 butir kuesioner diganti.\n" });
    const after = (await questions()).body;
    expect(after).not.toEqual(before);
    expect(after[6]).toEqual({ key: "S7", text: "Baru S7", scale: { min: 1, max: 5 }, group: "stress" });

    const exported = await cli(service.dataDir, ["questions", "export"]);
    expect(JSON.parse(exported.stdout)).toEqual(after);
  });

  test("items in any order are stored in key order", async () => {
    const result = await cli(service.dataDir, ["questions", "import", jsonFile(replacement("Acak").reverse())]);
    expect(result.exitCode).toBe(0);
    expect((await questions()).body.map((item: { key: string }) => item.key)).toEqual(itemKeys);
  });

  test.each([
    ["not JSON", "{oops", /tidak dapat membaca .* sebagai JSON/],
    ["an object instead of a list", { S1: "x" }, /Daftar pertanyaan harus berupa array\./],
    ["a missing item", replacement("X").filter((item) => item.key !== "M28"), /Butir M28 tidak ada\./],
    ["a wrong scale", replacement("X").map((item) => (item.key === "S3" ? { ...item, scale: { min: 1, max: 7 } } : item)), /\(S3\): "scale" harus \{"min": 1, "max": 5\}/],
    ["a wrong group", replacement("X").map((item) => (item.key === "M2" ? { ...item, group: "stress" } : item)), /\(M2\): "group" harus "motivasi"/],
    ["an empty text", replacement("X").map((item) => (item.key === "S9" ? { ...item, text: " " } : item)), /\(S9\): "text" harus berupa teks yang tidak kosong/],
    ["an unknown key", [...replacement("X"), { key: "S41", text: "t", scale: { min: 1, max: 5 }, group: "stress" }], /kunci "S41" tidak dikenal/],
    ["a duplicate key", [...replacement("X"), replacement("Y")[0]], /kunci S1 sudah dipakai oleh butir ke-1/],
  ])("%s is refused and changes nothing", async (_name, content, message) => {
    const before = (await questions()).body;
    const result = await cli(service.dataDir, ["questions", "import", jsonFile(content)]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(message);
    expect((await questions()).body).toEqual(before);
  });

  test("a stored file broken by hand falls back to the default wording", async () => {
    await cli(service.dataDir, ["questions", "import", jsonFile(replacement("Rusak"))]);
    const path = join(service.dataDir, "questions.json");
    writeFileSync(path, readFileSync(path, "utf8").slice(0, 100));
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    const response = await questions();
    expect(response.status).toBe(200);
    expect(response.body).toEqual(defaultQuestions);
  });
});
