import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestService, insertUserCopyingHash, standardAccounts } from "../helpers";
import { noThrottle, texts, userRow } from "./support";

// interface.md "Activation rules, in order" and the account activation state table.

/** Not-activated accounts of every kind the fallbacks of rule 5 distinguish. */
const pendingAccounts = `role,username,password,nim,nip,nama,jurusan,angkatan,kelas,nip_doswal,activated
mahasiswa,full,full-pass-1,N101,,Siti Lengkap,Teknik Elektro,2024,TE-C,D001,false
mahasiswa,namaonly,nama-pass-1,N102,,Budi Saja,,,,,false
mahasiswa,nojurusan,noj-pass-1,N103,,Ani Tanpa,,2021,,D002,false
dosen,dosen3,dosen-pass-3,,D003,Dosen Tiga,,,,,false
admin,admin2,admin-pass-2,,,,,,,,false
`;

let service: TestService;
beforeAll(async () => {
  service = new TestService(noThrottle);
  await service.importAccounts(standardAccounts);
  await service.importAccounts(pendingAccounts);
  // A student account without any profile row, and one that stays unactivated throughout.
  insertUserCopyingHash(service, "bare", "mahasiswa", "mhs3", false);
});
afterAll(() => service.close());

const activate = (body: unknown) => service.request("POST", "/api/auth/activation", { body });
const activated = (username: string) => userRow(service, username)!.is_activated;

describe("activation rule 1: username or password empty → 400", () => {
  const cases: [string, unknown][] = [
    ["empty object", {}],
    ["username missing", { password: "mhs-pass-3" }],
    ["password missing", { username: "mhs3" }],
    ["username empty", { username: "", password: "mhs-pass-3" }],
    ["password empty", { username: "mhs3", password: "" }],
    ["username only spaces", { username: "   ", password: "mhs-pass-3" }],
    ["username a number", { username: 3, password: "mhs-pass-3" }],
    ["password null", { username: "mhs3", password: null }],
    // Rule 1 comes before rules 2 and 3.
    ["unknown user with empty password", { username: "nobody", password: "" }],
    ["activated user with empty password", { username: "mhs1", password: "" }],
  ];
  test.each(cases)("%s", async (_name, body) => {
    const response = await activate(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: texts.credentialsRequired });
    expect(activated("mhs3")).toBe(0);
  });

  test("a body that is not JSON counts as {}", async () => {
    const response = await service.request("POST", "/api/auth/activation", {
      rawBody: "username=mhs3&password=mhs-pass-3",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: texts.credentialsRequired });
    expect(activated("mhs3")).toBe(0);
  });
});

describe("activation rule 2: unknown username → 404", () => {
  test.each(["nobody", "N003", "MHS3"])("%s", async (username) => {
    const response = await activate({ username, password: "mhs-pass-3" });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: texts.unknownAccount });
  });
});

describe("activation rule 3: already activated → 400, checked before the password", () => {
  const cases: [string, string, string][] = [
    ["student, right password", "mhs1", "mhs-pass-1"],
    ["student, wrong password", "mhs1", "not-the-password"],
    ["lecturer, wrong password", "dosen1", "x"],
    ["admin, right password", "admin", "admin-pass-1"],
    ["username with spaces, wrong password", "  mhs2 ", "nope"],
  ];
  test.each(cases)("%s", async (_name, username, password) => {
    const before = userRow(service, username.trim())!;
    const response = await activate({ username, password });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: texts.alreadyActivated });
    expect(userRow(service, username.trim())).toEqual(before);
  });
});

describe("activation rule 4: wrong password → 401 and the account stays not activated", () => {
  const cases: [string, string, string][] = [
    ["student", "mhs3", "mhs-pass-1"],
    ["student, password with trailing space", "mhs3", "mhs-pass-3 "],
    ["lecturer", "dosen3", "dosen-pass-1"],
  ];
  test.each(cases)("%s", async (_name, username, password) => {
    const response = await activate({ username, password });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: texts.wrongActivationPassword });
    expect(activated(username)).toBe(0);
    // Login is still refused with the not-activated text.
    const login = await service.request("POST", "/api/auth/login", { body: { username, password: username === "mhs3" ? "mhs-pass-3" : "dosen-pass-3" } });
    expect(login.status).toBe(403);
    expect(login.body).toEqual({ error: texts.notActivated });
  });
});

describe("activation rule 5: success", () => {
  const cases: [string, string, string, Record<string, unknown>][] = [
    [
      "a student with a full profile",
      "full",
      "full-pass-1",
      { username: "full", NIM: "N101", nama: "Siti Lengkap", jurusan: "Teknik Elektro", angkatan: "2024", kelas: "TE-C", nip_doswal: "D001" },
    ],
    [
      "a student with a name only",
      "namaonly",
      "nama-pass-1",
      { username: "namaonly", NIM: "N102", nama: "Budi Saja", jurusan: "", angkatan: "", kelas: "", nip_doswal: "" },
    ],
    [
      "a student without jurusan or kelas",
      "nojurusan",
      "noj-pass-1",
      { username: "nojurusan", NIM: "N103", nama: "Ani Tanpa", jurusan: "", angkatan: "2021", kelas: "", nip_doswal: "D002" },
    ],
    [
      "a student without a name: nama falls back to the username",
      "mhs3",
      "mhs-pass-3",
      { username: "mhs3", NIM: "N003", nama: "mhs3", jurusan: "", angkatan: "", kelas: "", nip_doswal: "" },
    ],
    [
      "a student without a profile",
      "bare",
      "mhs-pass-3",
      { username: "bare", NIM: null, nama: "bare", jurusan: "", angkatan: "", kelas: "", nip_doswal: "" },
    ],
    [
      "a lecturer: NIM null, nama the username (not the lecturer's name)",
      "dosen3",
      "dosen-pass-3",
      { username: "dosen3", NIM: null, nama: "dosen3", jurusan: "", angkatan: "", kelas: "", nip_doswal: "" },
    ],
    [
      "an admin",
      "admin2",
      "admin-pass-2",
      { username: "admin2", NIM: null, nama: "admin2", jurusan: "", angkatan: "", kelas: "", nip_doswal: "" },
    ],
  ];

  test.each(cases)("%s", async (_name, username, password, user) => {
    expect(activated(username)).toBe(0);
    const response = await activate({ username, password });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: expect.any(String), user });
    expect(response.body.message.trim()).not.toBe("");
    expect(activated(username)).toBe(1);

    // Login now works, and a second activation is refused with rule 3.
    const login = await service.request("POST", "/api/auth/login", { body: { username, password } });
    expect(login.status).toBe(200);
    expect(login.body.user.is_activated).toBe(true);
    const again = await activate({ username, password });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: texts.alreadyActivated });
  });

  test("activation trims the username", async () => {
    insertUserCopyingHash(service, "spaced", "admin", "mhs3", false);
    const response = await activate({ username: "  spaced\t", password: "mhs-pass-3" });
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual({ username: "spaced", NIM: null, nama: "spaced", jurusan: "", angkatan: "", kelas: "", nip_doswal: "" });
    expect(activated("spaced")).toBe(1);
  });

  test("activation changes nothing but is_activated", async () => {
    insertUserCopyingHash(service, "quiet", "admin", "mhs3", false);
    const before = userRow(service, "quiet")!;
    expect((await activate({ username: "quiet", password: "mhs-pass-3" })).status).toBe(200);
    expect(userRow(service, "quiet")).toEqual({ ...before, is_activated: 1 });
  });
});

describe("activation rule 6: an unexpected failure → 500 Terjadi kesalahan: ..., nothing changed", () => {
  test("a database failure while activating", async () => {
    insertUserCopyingHash(service, "doomed", "admin", "mhs3", false);
    const client = service.context.db.$client;
    client.run(
      "CREATE TRIGGER block_doomed BEFORE UPDATE ON users WHEN NEW.username = 'doomed' BEGIN SELECT RAISE(ABORT, 'aktivasi diblokir'); END",
    );
    try {
      const before = userRow(service, "doomed")!;
      const response = await activate({ username: "doomed", password: "mhs-pass-3" });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ error: "Terjadi kesalahan: aktivasi diblokir" });
      expect(userRow(service, "doomed")).toEqual(before);
    } finally {
      client.run("DROP TRIGGER block_doomed");
    }
    // Once the failure is gone the account activates normally.
    const response = await activate({ username: "doomed", password: "mhs-pass-3" });
    expect(response.status).toBe(200);
    expect(activated("doomed")).toBe(1);
  });
});
