import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Lecturers, lecturerService, texts } from "./support";

// GET /api/dosen/daftar (an addition for the web interface): the lecturers an admin can
// act as, with how many students each advises.

let lecturers: Lecturers;
beforeAll(async () => {
  lecturers = await lecturerService();
});
afterAll(() => lecturers.service.close());

test("an admin gets every lecturer by NIP with the number of advisees, lecturers without advisees too", async () => {
  const response = await lecturers.service.request("GET", "/api/dosen/daftar", { token: lecturers.tokens.admin });
  expect(response.status).toBe(200);
  expect(response.body).toEqual([
    { NIP: "D001", nama_dosen: "Dosen Satu", total_mahasiswa: 1 },
    { NIP: "D002", nama_dosen: "Dosen Dua", total_mahasiswa: 1 },
    { NIP: "D003", nama_dosen: "Dosen Tiga", total_mahasiswa: 0 },
  ]);
});

test.each(["dosen1", "mhs1", "tanpaProfil"] as const)("%s is refused: 403", async (who) => {
  expect(await lecturers.service.request("GET", "/api/dosen/daftar", { token: lecturers.tokens[who] })).toMatchObject({ status: 403, body: { error: texts.denied } });
});

test("without a token: 401", async () => {
  expect((await lecturers.service.request("GET", "/api/dosen/daftar")).status).toBe(401);
});
