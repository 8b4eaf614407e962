import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestService, standardAccounts } from "../helpers";

let service: TestService;
const tokens: Record<string, string> = {};

const profileRow = (nim: string) =>
  service.context.db.$client
    .query("SELECT angkatan, gender, usia, freq_olahraga, durasi_tidur, IPK FROM mahasiswa WHERE NIM = ?")
    .get(nim) as Record<string, unknown>;

const update = (body: unknown, token = tokens.mhs4) => service.request("PUT", "/api/mahasiswa/profil", { token, body });

beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(standardAccounts);
  // mhs4 starts with an empty profile, so the status and update tests see every field change.
  await service.importAccounts("role,username,password,nim,nama,activated\nmahasiswa,mhs4,mhs-pass-4,N004,Mahasiswa Empat,true\n");
  await service.addStudentWithoutProfile();
  Object.assign(tokens, await service.accessTokens(["admin", "dosen1", "mhs1", "mhs4", "tanpaprofil"]));
});
afterAll(() => service.close());

describe("student-only routes refuse other roles", () => {
  test.each([
    ["PUT", "/api/mahasiswa/profil"],
    ["GET", "/api/mahasiswa/profil/status"],
  ])("%s %s", async (method, path) => {
    for (const who of ["admin", "dosen1"]) {
      expect(await service.request(method, path, { token: tokens[who], body: {} })).toMatchObject({
        status: 403,
        body: { error: "Hanya mahasiswa yang dapat mengakses." },
      });
    }
    expect((await service.request(method, path, { body: {} })).status).toBe(401);
  });
});

describe("GET /api/mahasiswa/profil/status", () => {
  test("an empty profile misses all five fields, in order", async () => {
    const response = await service.request("GET", "/api/mahasiswa/profil/status", { token: tokens.mhs4 });
    expect(response).toMatchObject({
      status: 200,
      body: { is_complete: false, missing_fields: ["angkatan", "gender", "usia", "freq_olahraga", "durasi_tidur"] },
    });
  });

  test("a student without a profile gets 404", async () => {
    expect(await service.request("GET", "/api/mahasiswa/profil/status", { token: tokens.tanpaprofil })).toMatchObject({
      status: 404,
      body: { error: "Mahasiswa tidak ditemukan." },
    });
  });
});

describe("PUT /api/mahasiswa/profil", () => {
  // Each row: body → status and error; nothing may be written by a rejected update.
  test.each([
    ["usia as a word", { usia: "dua puluh" }, "Usia harus berupa angka."],
    ["usia as a fraction", { usia: 20.5 }, "Usia harus berupa angka."],
    ["usia as a boolean", { usia: true }, "Usia harus berupa angka."],
    ["usia as an object", { usia: { n: 20 } }, "Usia harus berupa angka."],
    ["usia below 10", { usia: 9 }, "Usia harus antara 10 dan 100."],
    ["usia above 100", { usia: "101" }, "Usia harus antara 10 dan 100."],
    ["IPK as a word", { IPK: "tiga" }, "IPK harus berupa angka."],
    ["IPK as a boolean", { IPK: false }, "IPK harus berupa angka."],
    ["IPK as NaN text", { IPK: "NaN" }, "IPK harus berupa angka."],
    ["IPK as Infinity text", { IPK: "Infinity" }, "IPK harus berupa angka."],
    ["IPK below 0", { IPK: -0.01 }, "IPK harus antara 0.00 dan 4.00"],
    ["IPK above 4", { IPK: "4.01" }, "IPK harus antara 0.00 dan 4.00"],
    ["usia is checked before IPK", { usia: "x", IPK: "y" }, "Usia harus berupa angka."],
    ["IPK is checked before the text fields", { IPK: 9, gender: 5 }, "IPK harus antara 0.00 dan 4.00"],
    ["a number as gender", { gender: 1 }, "gender harus berupa teks 1-50 karakter."],
    ["a long freq_olahraga", { freq_olahraga: "x".repeat(51) }, "freq_olahraga harus berupa teks 1-50 karakter."],
    ["spaces as durasi_tidur", { durasi_tidur: "   " }, "durasi_tidur harus berupa teks 1-50 karakter."],
    ["a valid field beside an invalid one", { gender: "Perempuan", usia: 5 }, "Usia harus antara 10 dan 100."],
  ])("%s → 400", async (_name, body, error) => {
    const before = profileRow("N004");
    expect(await update(body)).toMatchObject({ status: 400, body: { error } });
    expect(profileRow("N004")).toEqual(before);
  });

  test("valid values are stored and the updated profile is returned", async () => {
    const response = await update({
      angkatan: 2023,
      gender: "Perempuan",
      usia: "20",
      freq_olahraga: "1-3 kali",
      durasi_tidur: " 6-7 Jam ",
      IPK: "3.50",
      NIM: "X999",
      nama_mahasiswa: "Tidak boleh berubah",
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: expect.any(String),
      data: {
        NIM: "N004",
        nama_mahasiswa: "Mahasiswa Empat",
        kelas: null,
        id_jurusan: null,
        IPK: 3.5,
        NIP_doswal: null,
        Id_User: expect.any(Number),
        foto_profil: null,
        angkatan: "2023",
        gender: "Perempuan",
        usia: 20,
        freq_olahraga: "1-3 kali",
        durasi_tidur: "6-7 Jam",
      },
    });
    expect(profileRow("N004")).toEqual({ angkatan: "2023", gender: "Perempuan", usia: 20, freq_olahraga: "1-3 kali", durasi_tidur: "6-7 Jam", IPK: 3.5 });
    expect(await service.request("GET", "/api/mahasiswa/profil/status", { token: tokens.mhs4 })).toMatchObject({
      status: 200,
      body: { is_complete: true, missing_fields: [] },
    });
  });

  test.each([
    ["the IPK bounds", { IPK: 0, usia: 10 }, { IPK: 0, usia: 10 }],
    ["the upper bounds", { IPK: "4.00", usia: 100 }, { IPK: 4, usia: 100 }],
    ["a 50-character text", { gender: "g".repeat(50) }, { gender: "g".repeat(50) }],
  ])("%s are accepted", async (_name, body, stored) => {
    expect((await update(body)).status).toBe(200);
    expect(profileRow("N004")).toMatchObject(stored);
  });

  // One rule with the account import: a known spelling is stored as the models know it.
  test.each([
    ["L", "Laki-laki"],
    ["p", "Perempuan"],
    [" laki-laki ", "Laki-laki"],
    ["PEREMPUAN", "Perempuan"],
    ["Pria", "Pria"],
  ])("gender %j is accepted and stored as %j, as the import stores it", async (given, stored) => {
    const response = await update({ gender: given });
    expect(response.status).toBe(200);
    expect(response.body.data.gender).toBe(stored);
    expect(profileRow("N004")).toMatchObject({ gender: stored });
    if (stored !== "Pria") {
      await service.importAccounts(`role,username,password,nim,gender\nmahasiswa,mhs4,mhs-pass-4,N004,${given.trim()}\n`);
      expect(profileRow("N004")).toMatchObject({ gender: stored });
    }
  });

  test("absent, null and empty fields leave the stored values alone", async () => {
    await update({ gender: "Laki-laki", usia: 22, IPK: 3 });
    const before = profileRow("N004");
    expect((await update({ gender: "", usia: null, IPK: "" })).status).toBe(200);
    expect((await update({})).status).toBe(200);
    expect(profileRow("N004")).toEqual(before);
  });

  test("a non-JSON body is an empty update", async () => {
    const before = profileRow("N004");
    const response = await service.request("PUT", "/api/mahasiswa/profil", { token: tokens.mhs4, rawBody: "not json", headers: { "content-type": "application/json" } });
    expect(response.status).toBe(200);
    expect(profileRow("N004")).toEqual(before);
  });

  test("a student without a profile gets 404", async () => {
    expect(await update({ usia: 20 }, tokens.tanpaprofil)).toMatchObject({ status: 404, body: { error: "Mahasiswa tidak ditemukan." } });
  });
});

describe("GET /api/mahasiswa/profil/data/<nim>", () => {
  test("a full profile with jurusan and advisor", async () => {
    const response = await service.request("GET", "/api/mahasiswa/profil/data/N001", { token: tokens.mhs1 });
    expect(response).toMatchObject({ status: 200 });
    expect(response.body).toEqual({
      nim: "N001",
      nama: "Mahasiswa Satu",
      program: "Informatika",
      angkatan: "2023",
      kelas: "TI-A",
      ipk: null,
      foto_profil: null,
      gender: "",
      usia: null,
      freq_olahraga: "",
      durasi_tidur: "",
      nip_doswal: "D001",
      nama_dosen_wali: "Dosen Satu",
      telepon_dosen_wali: "",
    });
  });

  test("empty-string fallbacks for a student without jurusan, class or advisor", async () => {
    const response = await service.request("GET", "/api/mahasiswa/profil/data/N003", { token: tokens.admin });
    expect(response.body).toEqual({
      nim: "N003",
      nama: "",
      program: "",
      angkatan: "",
      kelas: "",
      ipk: null,
      foto_profil: null,
      gender: "",
      usia: null,
      freq_olahraga: "",
      durasi_tidur: "",
      nip_doswal: "",
      nama_dosen_wali: "",
      telepon_dosen_wali: "",
    });
  });

  test.each([
    ["own NIM", "mhs1", "N001", 200, undefined],
    ["another student's NIM", "mhs1", "N002", 403, "Akses ditolak."],
    ["a student without a profile", "tanpaprofil", "N001", 403, "Akses ditolak."],
    ["a lecturer, an own advisee", "dosen1", "N001", 200, undefined],
    // decisions §9: the advisor scope, after the route's 404 for an unknown student.
    ["a lecturer, another lecturer's advisee", "dosen1", "N002", 403, "Mahasiswa bukan bimbingan Anda."],
    ["a lecturer, a student without advisor", "dosen1", "N003", 403, "Mahasiswa bukan bimbingan Anda."],
    ["a lecturer, unknown NIM", "dosen1", "X404", 404, "Mahasiswa tidak ditemukan."],
    ["an admin, unknown NIM", "admin", "X404", 404, "Mahasiswa tidak ditemukan."],
    ["a student, unknown NIM (the own-nim rule first)", "mhs1", "X404", 403, "Akses ditolak."],
  ])("%s", async (_name, who, nim, status, error) => {
    const response = await service.request("GET", `/api/mahasiswa/profil/data/${nim}`, { token: tokens[who] });
    expect(response.status).toBe(status);
    if (error) expect(response.body).toEqual({ error });
  });
});
