import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { auditRow, populatedService, textsOf, type Populated } from "./support";

let populated: Populated;
let service: Populated["service"];

const userIdOf = (username: string) => service.context.db.$client.query<{ id: number }, [string]>("SELECT Id_User AS id FROM users WHERE username = ?").get(username)!.id;

beforeAll(async () => {
  populated = await populatedService();
  service = populated.service;
  // Accesses as the trail records them: the advisor's view, the student's own read (not
  // someone else's), an admin's change and a command's export; all but the student's own name N001.
  const base = { address: "203.0.113.9" } as const;
  auditRow(service, { ...base, userId: userIdOf("dosen1"), username: "dosen1", role: "dosen", action: "view", nim: "N001", target: "GET /api/dosen/mahasiswa/:nim" });
  auditRow(service, { ...base, userId: userIdOf("mhs1"), username: "mhs1", role: "mahasiswa", action: "view", nim: "N001", target: "GET /api/mahasiswa/mood/:nim" });
  auditRow(service, { ...base, userId: userIdOf("admin"), username: "admin", role: "admin", action: "update", nim: "N001", target: "PUT /api/mahasiswa/mood/:id" });
  auditRow(service, { ...base, userId: userIdOf("dosen2"), username: "dosen2", role: "dosen", action: "view", nim: "N002", target: "GET /api/dosen/mahasiswa/:nim" });
  auditRow(service, { userId: null, username: "root", role: "cli", address: null, action: "export", nim: "N001", target: "skrining privacy export" });
});

afterAll(() => service.close());

const read = (token?: string) => service.request("GET", "/api/mahasiswa/data-saya", { token });

describe("GET /api/mahasiswa/data-saya", () => {
  test("a student with data of every kind gets all of it, with exactly the document's keys", async () => {
    const response = await read(populated.tokens.mhs1);
    expect(response.status).toBe(200);
    const document = response.body;
    const texts = textsOf("N001");
    expect(Object.keys(document).sort()).toEqual(
      ["catatan", "dibatasi_sejak", "dibuat_pada", "dilihat_oleh", "foto_url", "jurnal", "mood", "pemberitahuan_privasi", "permintaan_kontak", "profil", "skrining"].sort(),
    );
    expect(Date.parse(document.dibuat_pada)).not.toBeNaN();
    // The profile as GET /api/mahasiswa/profil/data/:nim gives it.
    expect(document.profil).toEqual((await service.request("GET", "/api/mahasiswa/profil/data/N001", { token: populated.tokens.mhs1 })).body);
    expect(document.profil.foto_profil).toMatch(/^photos\/N001_/);
    expect(document.foto_url).toBe("/api/mahasiswa/profil/foto/N001");

    expect(document.skrining).toHaveLength(1);
    expect(document.skrining[0]).toMatchObject({ NIM: "N001", tingkat_stres: expect.any(String), saran: expect.any(String) });
    expect(document.skrining[0].input_jawaban).toMatchObject({ S1: 3, M1: 2, catatan_bebas: texts.answerExtra });

    // Moods and diary as their own routes list them.
    expect(document.mood).toEqual((await service.request("GET", "/api/mahasiswa/mood/N001", { token: populated.tokens.mhs1 })).body);
    expect(document.mood.map((entry: { mood_value: number }) => entry.mood_value)).toEqual([4, 2]);
    expect(document.jurnal).toEqual((await service.request("GET", "/api/mahasiswa/diary/N001", { token: populated.tokens.mhs1 })).body);
    expect(document.jurnal.map((entry: { content: string }) => entry.content)).toEqual([texts.diarySecond, texts.diaryEdited]);

    expect(document.catatan).toHaveLength(1);
    expect(document.catatan[0]).toMatchObject({ NIM: "N001", NIP: "D001", isi_catatan: texts.note, reply: texts.reply, status: "sudah_dibalas" });
    expect(document.pemberitahuan_privasi).toEqual([{ versi: "2026-01", disetujui_pada: "2026-02-01T03:00:00.000Z" }]);
    // Decisions §19: the student's own requests for contact are their data.
    expect(document.permintaan_kontak).toEqual([{ waktu: "2026-03-01T12:00:00.000Z", pesan: texts.contactRequest }]);
    expect(document.dibatasi_sejak).toBeNull();
  });

  test("dilihat_oleh: others' accesses to this student, newest first, with role, name, time, action and route; never the address", async () => {
    const document = (await read(populated.tokens.mhs1)).body;
    expect(document.dilihat_oleh.map(({ waktu, ...rest }: { waktu: string }) => (expect(Date.parse(waktu)).not.toBeNaN(), rest))).toEqual([
      { peran: "cli", nama: null, aksi: "export", rute: "skrining privacy export", kali: 1 },
      { peran: "admin", nama: null, aksi: "update", rute: "PUT /api/mahasiswa/mood/:id", kali: 1 },
      { peran: "dosen", nama: "Dosen Satu", aksi: "view", rute: "GET /api/dosen/mahasiswa/:nim", kali: 1 },
      // Left by the route when the advisor wrote the note (src/http/audit.ts).
      { peran: "dosen", nama: "Dosen Satu", aksi: "create", rute: "POST /api/dosen/catatan", kali: 1 },
    ]);
    expect(JSON.stringify(document)).not.toContain("203.0.113.9");
    expect(JSON.stringify(document)).not.toContain("root");
  });

  test("another student's data never appears", async () => {
    const text = JSON.stringify((await read(populated.tokens.mhs1)).body);
    for (const value of ["N002", "Mahasiswa Dua", "D002", "Dosen Dua", ...Object.values(textsOf("N002"))]) expect(text).not.toContain(value);
    const other = JSON.stringify((await read(populated.tokens.mhs2)).body);
    for (const value of ["N001", "Mahasiswa Satu", "Dosen Satu", ...Object.values(textsOf("N001"))]) expect(other).not.toContain(value);
  });

  test.each([
    ["a lecturer", "dosen1"],
    ["an admin", "admin"],
  ] as const)("%s is refused with the student-only text", async (_, who) => {
    const response = await read(populated.tokens[who]);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: "Hanya mahasiswa yang dapat mengakses." });
  });

  test("no token: 401", async () => {
    expect((await read()).status).toBe(401);
  });

  test("a student account without a profile: 404", async () => {
    await service.addStudentWithoutProfile();
    const token = (await service.login("tanpaprofil", "tanpa-pass-1")).access;
    const response = await read(token);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: "Mahasiswa tidak ditemukan." });
  });

  test("the OpenAPI document describes the answer with its real schema", async () => {
    const document = (await service.request("GET", "/openapi/json")).body;
    const operation = document.paths["/api/mahasiswa/data-saya"].get;
    const schema = operation.responses["200"].content["application/json"].schema;
    expect(Object.keys(schema.properties).sort()).toEqual(
      ["catatan", "dibatasi_sejak", "dibuat_pada", "dilihat_oleh", "foto_url", "jurnal", "mood", "pemberitahuan_privasi", "permintaan_kontak", "profil", "skrining"].sort(),
    );
    expect(Object.keys(schema.properties.dilihat_oleh.items.properties).sort()).toEqual(["aksi", "kali", "nama", "peran", "rute", "waktu"]);
    expect(Object.keys(operation.responses).sort()).toEqual(["200", "401", "403", "404", "429", "503"]);
  });
});
