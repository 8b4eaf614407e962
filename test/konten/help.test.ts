import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { dialled } from "../../src/konten/help-phone";
import { runCli, temporaryDir, TestService } from "../helpers";

// The help contact with its numbers to call (decisions §13: a Tinggi stress result shows
// them first, as tel: links).

let service: TestService;
beforeEach(() => {
  service = new TestService();
});
afterEach(() => service.close());

const importHelp = (value: unknown) => {
  const file = join(temporaryDir("skrining-help-"), "help.json");
  writeFileSync(file, JSON.stringify(value));
  return runCli(["--data", service.dataDir, "contact", "import", file]);
};
const phoneProblem = '"telepon" harus daftar berisi paling banyak 5 objek {"label": ..., "nomor": ..., "keterangan": ...} (nomor berisi angka, boleh dengan +, spasi, tanda kurung dan -).';

describe("GET /api/konten/bantuan", () => {
  test("the built-in text carries the national line 119 to call", async () => {
    const response = await service.request("GET", "/api/konten/bantuan");
    expect(response.status).toBe(200);
    expect(response.body.telepon).toEqual([{ label: "SEJIWA, layanan kesehatan jiwa", nomor: "119", keterangan: "lalu pilih ekstensi 8" }]);
  });

  test("a faculty's own numbers, imported, are served at once; an older file without numbers has none", async () => {
    const own = { title: "Butuh teman bicara?", text: "Hubungi konselor fakultas.", telepon: [{ label: "Konselor fakultas", nomor: "(021) 500-454" }] };
    expect((await importHelp(own)).exitCode).toBe(0);
    expect((await service.request("GET", "/api/konten/bantuan")).body.telepon).toEqual([{ label: "Konselor fakultas", nomor: "(021) 500-454", keterangan: "" }]);
    expect((await importHelp({ title: "Bantuan", text: "Datangi ruang B.104." })).exitCode).toBe(0);
    expect((await service.request("GET", "/api/konten/bantuan")).body.telepon).toEqual([]);
  });
});

describe("skrining contact import refuses bad numbers, changes nothing", () => {
  test.each<[string, unknown]>([
    ["not a list", "119"],
    ["letters in the number", [{ label: "SEJIWA", nomor: "satu satu sembilan" }]],
    ["no label", [{ nomor: "119" }]],
    ["an unknown key", [{ label: "SEJIWA", nomor: "119", email: "x@y" }]],
    ["six numbers", Array.from({ length: 6 }, () => ({ label: "A", nomor: "119" }))],
  ])("%s", async (_, telepon) => {
    const result = await importHelp({ title: "Bantuan", text: "Teks.", telepon });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`${phoneProblem}\nskrining: 1 masalah ditemukan; teks tempat mencari bantuan tidak diganti.\n`);
    expect((await service.request("GET", "/api/konten/bantuan")).body.telepon).toHaveLength(1);
  });
});

test.each([
  ["119", "119"],
  ["(021) 500-454", "021500454"],
  ["+62 812-3456-7890", "+6281234567890"],
])("a tel: link dials %s as %s", (nomor, digits) => {
  expect(dialled(nomor)).toBe(digits);
});
