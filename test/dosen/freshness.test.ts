import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { addScreening, lecturerService, type Lecturers } from "./support";

// The lecturer answers are kept between requests; a write of this process or a commit of
// another process (the CLI, a second server) must show in the very next answer.

let lecturers: Lecturers;
beforeAll(async () => {
  lecturers = await lecturerService();
});
afterAll(() => lecturers.service.close());

const read = async (path: string) => (await lecturers.service.request("GET", path, { token: lecturers.tokens.dosen1 })).body;

test("a screening written through the service shows in the next statistik and list", async () => {
  const before = await read("/api/dosen/statistik");
  expect(before.sudah_skrining).toBe(0);
  expect((await read("/api/dosen/mahasiswa")).data[0].last_skrining).toBeNull();

  addScreening(lecturers.service, "N001", new Date().toISOString(), "Tinggi", "Rendah");
  const after = await read("/api/dosen/statistik");
  expect(after).toMatchObject({ sudah_skrining: 1, stress_dist: { Tinggi: 1 }, motivasi_dist: { Rendah: 1 } });
  expect((await read("/api/dosen/mahasiswa")).data[0]).toMatchObject({ last_skrining: { tingkat_stres: "Tinggi" }, early_warning: true });
});

test("a commit by another connection shows in the next answer", async () => {
  const first = await read("/api/dosen/statistik");
  const other = new Database(join(lecturers.service.dataDir, "skrining.db"));
  try {
    other.run("UPDATE riwayat_skrining SET tingkat_stres = 'Rendah' WHERE NIM = 'N001'");
  } finally {
    other.close();
  }
  const second = await read("/api/dosen/statistik");
  expect(first.stress_dist.Tinggi).toBe(1);
  expect(second.stress_dist).toEqual({ Rendah: 1, Sedang: 0, Tinggi: 0 });
});
