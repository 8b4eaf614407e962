import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { closeContext, createContext } from "../../src/context";
import { silentLogger } from "../../src/logger";
import { sessionIdHash } from "../../src/auth/sessions";
import { TestService, insertUserCopyingHash, standardAccounts, testEnvironment } from "../helpers";
import { base64url, decodeJwt, noThrottle, serviceSecret, signJwt, texts, userRow } from "./support";

// decisions.md §1 (transport, lifetimes, claims, logout, failure texts) and interface.md
// "Authentication".

let service: TestService;
beforeAll(async () => {
  service = new TestService(noThrottle);
  await service.importAccounts(standardAccounts);
});
afterAll(() => service.close());

const me = (token?: string, headers: Record<string, string> = {}) => service.request("GET", "/api/auth/me", { token, headers });
const refresh = (token?: string) => service.request("POST", "/api/auth/refresh", { token });
const logout = (token?: string) => service.request("POST", "/api/auth/logout", { token });

function expect401(response: { status: number; body: unknown }, error: string) {
  expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: { error } });
}

describe("missing or malformed Authorization header", () => {
  const protectedRoutes: [string, string][] = [
    ["GET", "/api/auth/me"],
    ["POST", "/api/auth/logout"],
    ["POST", "/api/auth/refresh"],
    ["POST", "/api/auth/password"],
  ];
  test.each(protectedRoutes)("%s %s without a header → Token akses diperlukan.", async (method, path) => {
    expect401(await service.request(method, path, { body: { old_password: "mhs-pass-1", new_password: "whatever-123" } }), texts.tokenMissing);
  });

  const garbage: [string, string][] = [
    ["a word", "Bearer garbage"],
    ["three dotted words", "Bearer a.b.c"],
    ["two parts", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0"],
    ["base64 of nothing", "Bearer ..."],
    ["the scheme only", "Bearer"],
    ["another scheme", "Basic bWhzMTptaHMtcGFzcy0x"],
  ];
  test.each(garbage)("%s → Token tidak valid.", async (_name, authorization) => {
    expect401(await me(undefined, { authorization }), texts.tokenInvalid);
  });

  test("a token without the Bearer scheme → Token tidak valid.", async () => {
    const { access } = await service.login("mhs1", "mhs-pass-1");
    expect401(await me(undefined, { authorization: access }), texts.tokenInvalid);
    // Control: the same token with the scheme works.
    expect((await me(undefined, { authorization: `Bearer ${access}` })).status).toBe(200);
  });
});

describe("forged tokens → Token tidak valid.", () => {
  let access: string;
  let payload: Record<string, any>;
  let secret: string;
  beforeAll(async () => {
    access = (await service.login("mhs1", "mhs-pass-1")).access;
    payload = decodeJwt(access).payload;
    secret = serviceSecret(service);
  });

  test("control: the same claims signed by hand with HS256 and the right secret are accepted", async () => {
    const response = await me(signJwt(payload, secret, "HS256"));
    expect(response.status).toBe(200);
    expect(response.body.username).toBe("mhs1");
  });

  test("a tampered payload with the original signature", async () => {
    const [header, , signature] = access.split(".");
    const forged = `${header}.${base64url(JSON.stringify({ ...payload, role: "admin" }))}.${signature}`;
    expect401(await me(forged), texts.tokenInvalid);
  });

  test("a tampered signature", async () => {
    const [header, body, signature] = access.split(".") as [string, string, string];
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
    expect401(await me(`${header}.${body}.${flipped}`), texts.tokenInvalid);
  });

  test("the signature removed", async () => {
    const [header, body] = access.split(".");
    expect401(await me(`${header}.${body}.`), texts.tokenInvalid);
  });

  test("signed with another secret", async () => {
    expect401(await me(signJwt(payload, "another-secret-that-is-long-enough-0123456789", "HS256")), texts.tokenInvalid);
  });

  test("alg none, unsigned", async () => {
    const token = signJwt(payload, "", "none");
    expect(decodeJwt(token).header.alg).toBe("none");
    expect401(await me(token), texts.tokenInvalid);
  });

  test("HS512 signed with the right secret", async () => {
    expect401(await me(signJwt(payload, secret, "HS512")), texts.tokenInvalid);
  });

  test("HS384 signed with the right secret", async () => {
    expect401(await me(signJwt(payload, secret, "HS384")), texts.tokenInvalid);
  });

  test("a refresh token forged with alg none at the refresh route", async () => {
    const { refresh: token } = await service.login("mhs1", "mhs-pass-1");
    expect401(await refresh(signJwt(decodeJwt(token).payload, "", "none")), texts.tokenInvalid);
  });
});

describe("token type", () => {
  test("a refresh token used as an access token → Jenis token tidak sesuai.", async () => {
    const tokens = await service.login("mhs1", "mhs-pass-1");
    expect401(await me(tokens.refresh), texts.tokenWrongType);
    expect401(await logout(tokens.refresh), texts.tokenWrongType);
    expect401(
      await service.request("POST", "/api/auth/password", { token: tokens.refresh, body: { old_password: "mhs-pass-1", new_password: "brand-new-pass" } }),
      texts.tokenWrongType,
    );
    // Nothing was changed by the refused password change.
    expect((await service.request("POST", "/api/auth/login", { body: { username: "mhs1", password: "mhs-pass-1" } })).status).toBe(200);
  });

  test("an access token at POST /api/auth/refresh → Jenis token tidak sesuai.", async () => {
    const tokens = await service.login("mhs1", "mhs-pass-1");
    expect401(await refresh(tokens.access), texts.tokenWrongType);
  });
});

describe("claims", () => {
  const lifetimes = { access: 8 * 3600, refresh: 30 * 24 * 3600 };

  /** exp - iat; both are whole seconds taken microseconds apart, so allow one second. */
  function expectLifetime(claims: Record<string, any>, seconds: number) {
    expect(Number.isInteger(claims.iat)).toBe(true);
    expect(Number.isInteger(claims.exp)).toBe(true);
    expect(claims.exp - claims.iat).toBeGreaterThanOrEqual(seconds - 1);
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(seconds);
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(60);
  }

  const cases: [string, string, string, Record<string, unknown>][] = [
    ["student", "mhs1", "mhs-pass-1", { role: "mahasiswa", NIM: "N001", nama: "Mahasiswa Satu" }],
    ["lecturer", "dosen1", "dosen-pass-1", { role: "dosen", NIP: "D001", nama: "Dosen Satu" }],
    ["admin", "admin", "admin-pass-1", { role: "admin" }],
  ];

  test.each(cases)("%s: login tokens and a refreshed access token", async (_name, username, password, extra) => {
    const id = String(userRow(service, username)!.Id_User);
    const tokens = await service.login(username, password);
    const access = decodeJwt(tokens.access);
    const refreshClaims = decodeJwt(tokens.refresh).payload;
    expect(access.header.alg).toBe("HS256");
    expect(decodeJwt(tokens.refresh).header.alg).toBe("HS256");

    expect(access.payload).toMatchObject({ sub: id, type: "access", ...extra });
    for (const key of ["NIM", "NIP", "nama"]) if (!(key in extra)) expect(access.payload).not.toHaveProperty(key);
    expect(access.payload.jti).toEqual(expect.any(String));
    expectLifetime(access.payload, lifetimes.access);

    expect(refreshClaims).toMatchObject({ sub: id, type: "refresh" });
    expect(refreshClaims.jti).toEqual(expect.any(String));
    for (const key of ["role", "NIM", "NIP", "nama"]) expect(refreshClaims).not.toHaveProperty(key);
    expectLifetime(refreshClaims, lifetimes.refresh);
    expect(refreshClaims.jti).not.toBe(access.payload.jti);

    const response = await refresh(tokens.refresh);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["access_token"]);
    const renewed = decodeJwt(response.body.access_token).payload;
    expect(renewed).toMatchObject({ sub: id, type: "access", ...extra });
    for (const key of ["NIM", "NIP", "nama"]) if (!(key in extra)) expect(renewed).not.toHaveProperty(key);
    expect(renewed.jti).toEqual(expect.any(String));
    expect(renewed.jti).not.toBe(access.payload.jti);
    expectLifetime(renewed, lifetimes.access);

    // The refreshed token is an access token that works, and the refresh token stays usable.
    const current = await me(response.body.access_token);
    expect(current.status).toBe(200);
    expect(current.body.username).toBe(username);
    expect((await refresh(tokens.refresh)).status).toBe(200);
  });

  test("refresh does not check activation", async () => {
    const tokens = await service.login("mhs2", "mhs-pass-2");
    service.context.db.$client.query("UPDATE users SET is_activated = 0 WHERE username = 'mhs2'").run();
    try {
      const response = await refresh(tokens.refresh);
      expect(response.status).toBe(200);
      expect(decodeJwt(response.body.access_token).payload).toMatchObject({ type: "access", role: "mahasiswa", NIM: "N002" });
      // Login, by contrast, does check it.
      const login = await service.request("POST", "/api/auth/login", { body: { username: "mhs2", password: "mhs-pass-2" } });
      expect(login.status).toBe(403);
      expect(login.body).toEqual({ error: texts.notActivated });
    } finally {
      service.context.db.$client.query("UPDATE users SET is_activated = 1 WHERE username = 'mhs2'").run();
    }
  });

  test("configured lifetimes are used", async () => {
    const other = new TestService({ ...noThrottle, SKRINING_ACCESS_TTL: "600", SKRINING_REFRESH_TTL: "7200" });
    try {
      await other.importAccounts(standardAccounts);
      const tokens = await other.login("admin", "admin-pass-1");
      expectLifetime(decodeJwt(tokens.access).payload, 600);
      expectLifetime(decodeJwt(tokens.refresh).payload, 7200);
    } finally {
      other.close();
    }
  });
});

describe("expiry", () => {
  test("an expired access token → Token sudah kedaluwarsa.; an expired refresh token too", async () => {
    const short = new TestService({ ...noThrottle, SKRINING_ACCESS_TTL: "1", SKRINING_REFRESH_TTL: "1" });
    try {
      await short.importAccounts(standardAccounts);
      // The clock stands just after a second boundary, so the one-second token is surely
      // still valid for the control request; then it is moved past the expiry instead of
      // waiting for it.
      setSystemTime(Math.ceil(Date.now() / 1000) * 1000 + 20);
      const tokens = await short.login("mhs1", "mhs-pass-1");
      expect((await short.request("GET", "/api/auth/me", { token: tokens.access })).status).toBe(200);

      const exp = Math.max(decodeJwt(tokens.access).payload.exp, decodeJwt(tokens.refresh).payload.exp);
      setSystemTime(Math.max(Date.now(), exp * 1000) + 50);

      expect401(await short.request("GET", "/api/auth/me", { token: tokens.access }), texts.tokenExpired);
      expect401(await short.request("POST", "/api/auth/logout", { token: tokens.access }), texts.tokenExpired);
      expect401(await short.request("POST", "/api/auth/refresh", { token: tokens.refresh }), texts.tokenExpired);
      // An expired token with a bad signature is still just invalid.
      const [header, body] = tokens.access.split(".");
      expect401(await short.request("GET", "/api/auth/me", { token: `${header}.${body}.AAAA` }), texts.tokenInvalid);
    } finally {
      setSystemTime();
      short.close();
    }
  });
});

describe("logout", () => {
  test("logout ends the session: its access and refresh tokens are refused, other sessions live on", async () => {
    const first = await service.login("dosen1", "dosen-pass-1");
    const second = await service.login("dosen1", "dosen-pass-1");
    const response = await logout(first.access);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect(response.body.message.trim()).not.toBe("");

    expect401(await me(first.access), texts.tokenRevoked);
    expect401(await logout(first.access), texts.tokenRevoked);
    expect401(
      await service.request("POST", "/api/auth/password", { token: first.access, body: { old_password: "dosen-pass-1", new_password: "new-pass-123" } }),
      texts.tokenRevoked,
    );
    // decisions §9: the session's refresh token can no longer mint access tokens.
    expect401(await refresh(first.refresh), texts.tokenRevoked);
    // Another session of the same user still works, its refresh token too.
    expect((await me(second.access)).status).toBe(200);
    const minted = await refresh(second.refresh);
    expect(minted.status).toBe(200);
    expect((await me(minted.body.access_token)).status).toBe(200);
  });

  test("an access token minted by refresh belongs to the session, and dies with it", async () => {
    const tokens = await service.login("mhs2", "mhs-pass-2");
    const minted = (await refresh(tokens.refresh)).body.access_token as string;
    expect(decodeJwt(minted).payload.sid).toBe(decodeJwt(tokens.access).payload.sid);
    expect((await logout(minted)).status).toBe(200);
    expect401(await me(tokens.access), texts.tokenRevoked);
    expect401(await me(minted), texts.tokenRevoked);
    expect401(await refresh(tokens.refresh), texts.tokenRevoked);
  });

  test("the session's end is written to the database", async () => {
    const tokens = await service.login("mhs2", "mhs-pass-2");
    const { sid } = decodeJwt(tokens.access).payload;
    const client = service.context.db.$client;
    const row = () => client.query("SELECT Id_User AS user, ended_at AS endedAt FROM sessions WHERE id_hash = ?").get(sessionIdHash(sid as string)) as { user: number; endedAt: string | null };
    expect(row()).toEqual({ user: userRow(service, "mhs2")!.Id_User, endedAt: null });
    expect((await logout(tokens.access)).status).toBe(200);
    expect(row().endedAt).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
  });

  test("a logged-out token stays rejected after a restart on the same data folder", async () => {
    const revoked = await service.login("mhs1", "mhs-pass-1");
    const kept = await service.login("mhs1", "mhs-pass-1");
    expect((await logout(revoked.access)).status).toBe(200);

    const context = createContext(loadConfig(service.dataDir, { ...testEnvironment, ...noThrottle }), silentLogger);
    try {
      const app = createApp(context, () => "203.0.113.9");
      const ask = async (token: string) => {
        const response = await app.handle(new Request("http://localhost/api/auth/me", { headers: { authorization: `Bearer ${token}` } }));
        return { status: response.status, body: await response.json() };
      };
      expect401(await ask(revoked.access), texts.tokenRevoked);
      // Control: a token that was not logged out still works on the restarted service.
      const alive = await ask(kept.access);
      expect(alive.status).toBe(200);
      expect((alive.body as any).username).toBe("mhs1");
    } finally {
      closeContext(context);
    }
  });
});

describe("the user of a token no longer exists → Pengguna tidak ditemukan.", () => {
  test("access and refresh tokens of a deleted user", async () => {
    insertUserCopyingHash(service, "temp-admin", "admin", "admin");
    const tokens = await service.login("temp-admin", "admin-pass-1");
    expect((await me(tokens.access)).status).toBe(200);
    service.context.db.$client.query("DELETE FROM users WHERE username = 'temp-admin'").run();
    expect401(await me(tokens.access), texts.tokenUnknownUser);
    expect401(await refresh(tokens.refresh), texts.tokenUnknownUser);
  });

  test("a correctly signed token whose subject never existed", async () => {
    const { access } = await service.login("admin", "admin-pass-1");
    const payload = { ...decodeJwt(access).payload, sub: "999999" };
    expect401(await me(signJwt(payload, serviceSecret(service))), texts.tokenUnknownUser);
  });
});

describe("decisions §21: what the database holds of a session names none", () => {
  test("a token signed with the secret and naming a stored session (what a backup holds) is refused, access and refresh alike", async () => {
    const tokens = await service.login("admin", "admin-pass-1");
    const { sid, sub } = decodeJwt(tokens.access).payload;
    const stored = service.context.db.$client.query<{ id_hash: string }, [string]>("SELECT id_hash FROM sessions WHERE Id_User = ? AND ended_at IS NULL").all(sub);
    expect(stored.length).toBeGreaterThan(0);
    // The rows hold no session id a token carries, only its hash.
    expect(stored.map((row) => row.id_hash)).toContain(sessionIdHash(sid));
    expect(stored.map((row) => row.id_hash)).not.toContain(sid);
    const now = Math.floor(Date.now() / 1000);
    for (const { id_hash } of stored) {
      const forged = (type: "access" | "refresh") => signJwt({ sub, sid: id_hash, type, role: "admin", jti: crypto.randomUUID(), iat: now, exp: now + 3600 }, serviceSecret(service));
      expect401(await me(forged("access")), texts.tokenRevoked);
      expect401(await refresh(forged("refresh")), texts.tokenRevoked);
    }
    // Control: the login's own tokens, signed the same way, are the session's.
    expect((await me(tokens.access)).status).toBe(200);
    expect((await refresh(tokens.refresh)).status).toBe(200);
  });
});
