import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { TestService, standardAccounts } from "../helpers";
import { noThrottle, userRow } from "./support";

// Decisions §14: activation may set the owner's own password in the same step
// (`password_baru`); a bad new password activates nothing.

const passwordRule = "Password harus minimal 8 karakter, maksimal 72 byte, dan tidak boleh hanya berisi spasi.";
const pending = "role,username,password,nim,nama,activated\nmahasiswa,baru1,awal-pass-1,N201,Mahasiswa Baru,false\n";

let service: TestService;
beforeEach(async () => {
  service = new TestService(noThrottle);
  await service.importAccounts(standardAccounts);
  await service.importAccounts(pending);
});
afterEach(() => service.close());

const activate = (body: unknown) => service.request("POST", "/api/auth/activation", { body });
const login = (password: string) => service.request("POST", "/api/auth/login", { body: { username: "baru1", password } });
const auditActions = () =>
  service.context.db.$client.query<{ action: string }, []>("SELECT action FROM audit_log WHERE actor_username = 'baru1' ORDER BY id").all().map((row) => row.action);

describe("POST /api/auth/activation with password_baru", () => {
  test("activates and sets the new password in one step: the initial password no longer signs in", async () => {
    const hashBefore = userRow(service, "baru1")!.password_hash;
    const response = await activate({ username: "baru1", password: "awal-pass-1", password_baru: "rahasia-saya-9" });
    expect(response).toMatchObject({ status: 200, body: { message: "Aktivasi berhasil. Silakan login.", user: { username: "baru1", NIM: "N201" } } });
    expect(userRow(service, "baru1")).toMatchObject({ is_activated: 1 });
    expect(userRow(service, "baru1")!.password_hash).not.toBe(hashBefore);
    expect((await login("awal-pass-1")).status).toBe(401);
    expect((await login("rahasia-saya-9")).status).toBe(200);
    expect(auditActions()).toEqual(["activate", "password", "login_failed", "login"]);
  });

  test.each<[string, unknown, string]>([
    ["too short", "pendek", passwordRule],
    ["only spaces", "          ", passwordRule],
    ["over 72 bytes", "é".repeat(37), passwordRule],
    ["not text", 12345678, passwordRule],
    ["the initial password again", "awal-pass-1", "Password baru harus berbeda dari password awal."],
  ])("%s → 400, nothing activated, the initial password unchanged", async (_, passwordBaru, error) => {
    const hashBefore = userRow(service, "baru1")!.password_hash;
    const response = await activate({ username: "baru1", password: "awal-pass-1", password_baru: passwordBaru });
    expect(response).toEqual({ status: 400, body: { error }, headers: expect.anything() });
    expect(userRow(service, "baru1")).toMatchObject({ is_activated: 0, password_hash: hashBefore });
    expect(auditActions()).toEqual([]);
  });

  test("a wrong initial password is refused first (401), whatever password_baru says", async () => {
    const response = await activate({ username: "baru1", password: "salah-pass", password_baru: "x" });
    expect(response.status).toBe(401);
    expect(userRow(service, "baru1")).toMatchObject({ is_activated: 0 });
  });

  test("without password_baru the interface's activation is unchanged: the initial password stays", async () => {
    expect((await activate({ username: "baru1", password: "awal-pass-1" })).status).toBe(200);
    expect((await login("awal-pass-1")).status).toBe(200);
  });
});
