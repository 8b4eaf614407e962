import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestService, insertUserCopyingHash, standardAccounts, type RequestOptions } from "../helpers";
import { isoUtc, noThrottle, texts, userRow } from "./support";

// interface.md "Authentication endpoints" login rules, in order, with decisions §2's
// user serialization.

let service: TestService;
beforeAll(async () => {
  service = new TestService(noThrottle);
  await service.importAccounts(standardAccounts);
});
afterAll(() => service.close());

const login = (options: RequestOptions) => service.request("POST", "/api/auth/login", options);

describe("login rule 1: username or password empty after trimming → 400", () => {
  const cases: [string, unknown][] = [
    ["empty object", {}],
    ["username missing", { password: "mhs-pass-1" }],
    ["password missing", { username: "mhs1" }],
    ["both empty strings", { username: "", password: "" }],
    ["username empty", { username: "", password: "mhs-pass-1" }],
    ["password empty", { username: "mhs1", password: "" }],
    ["username only spaces", { username: "   ", password: "mhs-pass-1" }],
    ["username tabs and newlines", { username: "\t\n ", password: "mhs-pass-1" }],
    ["password only spaces", { username: "mhs1", password: "   " }],
    ["username null", { username: null, password: "mhs-pass-1" }],
    ["password null", { username: "mhs1", password: null }],
    ["username a number", { username: 123, password: "mhs-pass-1" }],
    ["password a number", { username: "mhs1", password: 12345678 }],
    ["username an array", { username: ["mhs1"], password: "mhs-pass-1" }],
    ["password an object", { username: "mhs1", password: { value: "mhs-pass-1" } }],
    ["password a boolean", { username: "mhs1", password: true }],
    // An unknown user with an empty password is still rule 1, not rule 2.
    ["unknown user, empty password", { username: "nobody", password: "" }],
    // A not-activated account with an empty password is still rule 1, not rule 3.
    ["not activated, empty password", { username: "mhs3", password: " " }],
  ];
  test.each(cases)("%s", async (_name, body) => {
    const response = await login({ body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: texts.credentialsRequired });
  });
});

describe("bodies that are not a JSON object count as {} → 400", () => {
  const cases: [string, RequestOptions][] = [
    ["no body at all", {}],
    ["malformed JSON", { rawBody: '{"username": "mhs1", "password": ', headers: { "content-type": "application/json" } }],
    ["a JSON array", { rawBody: '["mhs1", "mhs-pass-1"]', headers: { "content-type": "application/json" } }],
    ["JSON null", { rawBody: "null", headers: { "content-type": "application/json" } }],
    ["a JSON string", { rawBody: '"mhs1"', headers: { "content-type": "application/json" } }],
    ["a JSON number", { rawBody: "42", headers: { "content-type": "application/json" } }],
    ["form-encoded", { rawBody: "username=mhs1&password=mhs-pass-1", headers: { "content-type": "application/x-www-form-urlencoded" } }],
    ["plain text", { rawBody: "username=mhs1 password=mhs-pass-1", headers: { "content-type": "text/plain" } }],
    ["JSON text labelled as plain text", { rawBody: '{"username": "mhs1"}', headers: { "content-type": "text/plain" } }],
    ["multipart form", { rawBody: formData({ username: "mhs1", password: "mhs-pass-1" }) }],
  ];
  test.each(cases)("%s", async (_name, options) => {
    const response = await login(options);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: texts.credentialsRequired });
  });
});

function formData(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}

describe("login rule 2: unknown username or wrong password → 401 with one text", () => {
  const cases: [string, unknown][] = [
    ["unknown username", { username: "nobody", password: "mhs-pass-1" }],
    ["wrong password", { username: "mhs1", password: "mhs-pass-2" }],
    ["password of another account", { username: "mhs1", password: "admin-pass-1" }],
    ["password differs only in case", { username: "mhs1", password: "MHS-PASS-1" }],
    ["password with a trailing space is not trimmed", { username: "mhs1", password: "mhs-pass-1 " }],
    ["password with a leading space is not trimmed", { username: "mhs1", password: " mhs-pass-1" }],
    ["username differs in case", { username: "MHS1", password: "mhs-pass-1" }],
    // Rule 2 comes before rule 3: a not-activated account with a wrong password is a 401.
    ["not activated and wrong password", { username: "mhs3", password: "wrong-pass" }],
    ["unknown username of a realistic shape", { username: "N001", password: "mhs-pass-1" }],
  ];
  test.each(cases)("%s", async (_name, body) => {
    const response = await login({ body });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: texts.badCredentials });
  });
});

describe("login rule 3: correct credentials but not activated → 403, no tokens", () => {
  test("a not-activated student", async () => {
    const before = userRow(service, "mhs3")!;
    const response = await login({ body: { username: "mhs3", password: "mhs-pass-3" } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: texts.notActivated });
    // The account stays not activated and its hash is untouched.
    const after = userRow(service, "mhs3")!;
    expect(after.is_activated).toBe(0);
    expect(after.password_hash).toBe(before.password_hash);
  });

  test("with the username surrounded by spaces", async () => {
    const response = await login({ body: { username: "  mhs3 ", password: "mhs-pass-3" } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: texts.notActivated });
  });
});

describe("successful login", () => {
  function baseUser(username: string, role: string) {
    const row = userRow(service, username)!;
    expect(row.created_at).toMatch(isoUtc);
    return { Id_User: row.Id_User, username, role, created_at: row.created_at, is_activated: true };
  }

  const cases: [string, string, string, Record<string, unknown>][] = [
    ["a student with a profile", "mhs1", "mhs-pass-1", { NIM: "N001", nama: "Mahasiswa Satu" }],
    ["another student", "mhs2", "mhs-pass-2", { NIM: "N002", nama: "Mahasiswa Dua" }],
    ["a lecturer with a profile", "dosen1", "dosen-pass-1", { NIP: "D001", nama: "Dosen Satu" }],
    ["an admin", "admin", "admin-pass-1", {}],
  ];

  test.each(cases)("%s gets {access_token, refresh_token, user}", async (_name, username, password, extra) => {
    const response = await login({ body: { username, password } });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["access_token", "refresh_token", "user"]);
    expect(response.body.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(response.body.refresh_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(response.body.access_token).not.toBe(response.body.refresh_token);
    const role = username.startsWith("mhs") ? "mahasiswa" : username.startsWith("dosen") ? "dosen" : "admin";
    expect(response.body.user).toEqual({ ...baseUser(username, role), ...extra });
    expect(JSON.stringify(response.body)).not.toMatch(/password/i);
    // GET /me answers the same serialized user.
    const me = await service.request("GET", "/api/auth/me", { token: response.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(response.body.user);
  });

  test("the username is trimmed", async () => {
    const response = await login({ body: { username: " \t mhs1  \n", password: "mhs-pass-1" } });
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual({ ...baseUser("mhs1", "mahasiswa"), NIM: "N001", nama: "Mahasiswa Satu" });
  });

  test("a JSON content type with a charset is read", async () => {
    const response = await login({
      rawBody: JSON.stringify({ username: "admin", password: "admin-pass-1" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual(baseUser("admin", "admin"));
  });

  test("extra body keys are ignored", async () => {
    const response = await login({ body: { username: "admin", password: "admin-pass-1", role: "mahasiswa", remember: true } });
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual(baseUser("admin", "admin"));
  });

  test("a student without a profile gets no NIM or nama key", async () => {
    insertUserCopyingHash(service, "mhs-noprofile", "mahasiswa", "mhs1");
    const response = await login({ body: { username: "mhs-noprofile", password: "mhs-pass-1" } });
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual(baseUser("mhs-noprofile", "mahasiswa"));
  });

  test("a lecturer without a profile gets no NIP or nama key", async () => {
    insertUserCopyingHash(service, "dosen-noprofile", "dosen", "dosen1");
    const response = await login({ body: { username: "dosen-noprofile", password: "dosen-pass-1" } });
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual(baseUser("dosen-noprofile", "dosen"));
  });

  test("a student with a profile but no name: NIM and nama (null) keys", async () => {
    // mhs3 has a profile without a name; activate it in the database and log in.
    service.context.db.$client.query("UPDATE users SET is_activated = 1 WHERE username = 'mhs3'").run();
    try {
      const response = await login({ body: { username: "mhs3", password: "mhs-pass-3" } });
      expect(response.status).toBe(200);
      expect(response.body.user).toEqual({ ...baseUser("mhs3", "mahasiswa"), NIM: "N003", nama: null });
    } finally {
      service.context.db.$client.query("UPDATE users SET is_activated = 0 WHERE username = 'mhs3'").run();
    }
  });

  test("two logins issue different tokens", async () => {
    const first = await service.login("mhs2", "mhs-pass-2");
    const second = await service.login("mhs2", "mhs-pass-2");
    expect(second.access).not.toBe(first.access);
    expect(second.refresh).not.toBe(first.refresh);
  });

  test("a successful login with a bcrypt hash does not rewrite the stored hash", async () => {
    const before = userRow(service, "dosen2")!.password_hash;
    expect(before).toMatch(/^\$2[aby]\$/);
    expect((await login({ body: { username: "dosen2", password: "dosen-pass-2" } })).status).toBe(200);
    expect(userRow(service, "dosen2")!.password_hash).toBe(before);
  });
});
