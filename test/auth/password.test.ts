import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestService, standardAccounts } from "../helpers";
import { noThrottle, texts, userRow } from "./support";

// decisions.md §1: POST /api/auth/password.

let service: TestService;
beforeAll(async () => {
  service = new TestService(noThrottle);
  await service.importAccounts(standardAccounts);
});
afterAll(() => service.close());

const change = (token: string, body: unknown) => service.request("POST", "/api/auth/password", { token, body });
const login = (username: string, password: string) => service.request("POST", "/api/auth/login", { body: { username, password } });

describe("refused changes leave the password as it was", () => {
  let token: string;
  let hashBefore: string;
  beforeAll(async () => {
    token = (await service.login("mhs2", "mhs-pass-2")).access;
    hashBefore = userRow(service, "mhs2")!.password_hash;
  });

  const cases: [string, unknown, number, string][] = [
    ["empty body", {}, 400, texts.passwordsRequired],
    ["old missing", { new_password: "brand-new-pass" }, 400, texts.passwordsRequired],
    ["new missing", { old_password: "mhs-pass-2" }, 400, texts.passwordsRequired],
    ["old empty", { old_password: "", new_password: "brand-new-pass" }, 400, texts.passwordsRequired],
    ["new empty", { old_password: "mhs-pass-2", new_password: "" }, 400, texts.passwordsRequired],
    ["old not a string", { old_password: 12345678, new_password: "brand-new-pass" }, 400, texts.passwordsRequired],
    ["new not a string", { old_password: "mhs-pass-2", new_password: ["brand-new-pass"] }, 400, texts.passwordsRequired],
    ["wrong old password", { old_password: "mhs-pass-1", new_password: "brand-new-pass" }, 401, texts.wrongOldPassword],
    ["old password with a trailing space", { old_password: "mhs-pass-2 ", new_password: "brand-new-pass" }, 401, texts.wrongOldPassword],
    ["new password of 7 characters", { old_password: "mhs-pass-2", new_password: "1234567" }, 400, texts.passwordRule],
    ["new password of 1 character", { old_password: "mhs-pass-2", new_password: "x" }, 400, texts.passwordRule],
    ["new password of 73 bytes", { old_password: "mhs-pass-2", new_password: "a".repeat(73) }, 400, texts.passwordRule],
    ["new password of 37 two-byte characters (74 bytes)", { old_password: "mhs-pass-2", new_password: "é".repeat(37) }, 400, texts.passwordRule],
    ["new password of 200 bytes", { old_password: "mhs-pass-2", new_password: "p".repeat(200) }, 400, texts.passwordRule],
    // Login refuses a blank password, so accepting one would lock the account out.
    ["new password of 8 spaces", { old_password: "mhs-pass-2", new_password: " ".repeat(8) }, 400, texts.passwordRule],
    ["new password of tabs and line breaks", { old_password: "mhs-pass-2", new_password: "\t\n\t\n\t\n\t\n\r\n" }, 400, texts.passwordRule],
    ["new password of 10 no-break spaces", { old_password: "mhs-pass-2", new_password: "\u00a0".repeat(10) }, 400, texts.passwordRule],
    // Decisions §21: a new password is a new one (a one-time password is not kept under the owner's name).
    ["new password the same as the old one", { old_password: "mhs-pass-2", new_password: "mhs-pass-2" }, 400, texts.sameAsOld],
  ];
  test.each(cases)("%s → %i", async (_name, body, status, error) => {
    const response = await change(token, body);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error });
    expect(userRow(service, "mhs2")!.password_hash).toBe(hashBefore);
    // The token that asked is still good.
    expect((await service.request("GET", "/api/auth/me", { token })).status).toBe(200);
  });

  test("a body that is not JSON counts as {}", async () => {
    const response = await service.request("POST", "/api/auth/password", {
      token,
      rawBody: "old_password=mhs-pass-2&new_password=brand-new-pass",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: texts.passwordsRequired });
    expect(userRow(service, "mhs2")!.password_hash).toBe(hashBefore);
  });
});

describe("a successful change", () => {
  test("answers 200 {message}, ends every older token and replaces the password", async () => {
    const first = await service.login("mhs1", "mhs-pass-1");
    const second = await service.login("mhs1", "mhs-pass-1");
    const other = await service.login("mhs2", "mhs-pass-2");
    const hashBefore = userRow(service, "mhs1")!.password_hash;

    const response = await change(first.access, { old_password: "mhs-pass-1", new_password: "ganti-pass-1" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect(response.body.message.trim()).not.toBe("");
    const hashAfter = userRow(service, "mhs1")!.password_hash;
    expect(hashAfter).not.toBe(hashBefore);
    expect(hashAfter).toMatch(/^\$2[aby]\$/);
    expect(hashAfter).not.toContain("ganti-pass-1");

    for (const tokens of [first, second]) {
      const current = await service.request("GET", "/api/auth/me", { token: tokens.access });
      expect({ status: current.status, body: current.body }).toEqual({ status: 401, body: { error: texts.tokenRevoked } });
      const renewed = await service.request("POST", "/api/auth/refresh", { token: tokens.refresh });
      expect({ status: renewed.status, body: renewed.body }).toEqual({ status: 401, body: { error: texts.tokenRevoked } });
    }
    // Another user's tokens are not affected.
    expect((await service.request("GET", "/api/auth/me", { token: other.access })).status).toBe(200);

    const old = await login("mhs1", "mhs-pass-1");
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ error: texts.badCredentials });

    const fresh = await login("mhs1", "ganti-pass-1");
    expect(fresh.status).toBe(200);
    const current = await service.request("GET", "/api/auth/me", { token: fresh.body.access_token });
    expect(current.status).toBe(200);
    expect(current.body).toEqual(fresh.body.user);
    expect((await service.request("POST", "/api/auth/refresh", { token: fresh.body.refresh_token })).status).toBe(200);
  });

  const bounds: [string, string][] = [
    ["exactly 8 characters", "abcdefgh"],
    ["exactly 72 bytes", "b".repeat(72)],
    ["36 two-byte characters (72 bytes)", "ü".repeat(36)],
    ["8 characters with spaces", "  sp  ce"],
  ];
  test.each(bounds)("a new password of %s is accepted", async (_name, password) => {
    const { access } = await service.login("dosen2", "dosen-pass-2");
    const response = await change(access, { old_password: "dosen-pass-2", new_password: password });
    expect(response.status).toBe(200);
    expect((await login("dosen2", password)).status).toBe(200);
    // Put the old password back for the next case.
    const { access: again } = await service.login("dosen2", password);
    expect((await change(again, { old_password: password, new_password: "dosen-pass-2" })).status).toBe(200);
  });
});
