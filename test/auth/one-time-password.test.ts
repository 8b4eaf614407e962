import { afterAll, afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { oneTimePasswordHours } from "../../src/accounts/service";
import { TestService, passwords, standardAccounts } from "../helpers";
import { noThrottle, texts } from "./support";

// Decisions §21: a one-time password ends within 72 hours; the session it opens may only
// change the password, read /api/auth/me and sign out (403 elsewhere, after the token's
// own checks); the new password must differ from it. A roster's reset and the first
// admin's generated password must be replaced too (their sessions are held the same way).

let service: TestService;
beforeAll(async () => {
  service = new TestService(noThrottle);
  // Requests from the PC itself, where the admin console answers.
  service.address = "127.0.0.1";
  await service.importAccounts(standardAccounts);
});
afterAll(() => service.close());
afterEach(() => setSystemTime());

const cli = { actor: { userId: null, username: "root", role: "cli" }, target: "skrining accounts passwd --one-time" };
const reset = (username: string) => service.context.accounts.resetPassword(username, cli);
const login = (username: string, password: string) => service.request("POST", "/api/auth/login", { body: { username, password } });
const auditRows = (since: number) =>
  service.context.db.$client.query<{ action: string; actor_username: string; detail: string }, [number]>("SELECT action, actor_username, detail FROM audit_log WHERE id > ? ORDER BY id").all(since);
const lastAuditId = () => service.context.db.$client.query<{ id: number }, []>("SELECT coalesce(max(id), 0) AS id FROM audit_log").get()!.id;

/** Every route of the app, its parameters filled in: each that asks for a token (401 without one). */
async function routesAskingForAToken(): Promise<[string, string][]> {
  const routes: [string, string][] = [];
  for (const route of service.app.routes) {
    if (!["GET", "POST", "PUT", "DELETE"].includes(route.method) || !route.path.startsWith("/api/")) continue;
    const path = route.path.replace(":nim", "N001").replace(":username", "mhs2").replace(/:[a-z]+/g, "1");
    const answer = await service.request(route.method, path);
    if (answer.status === 401 && answer.body.error === texts.tokenMissing) routes.push([route.method, path]);
  }
  return routes;
}

/** What a session may still do: its own sign-in (and a refresh, which takes the refresh token, below). */
const ownSignIn = new Set(["GET /api/auth/me", "POST /api/auth/password", "POST /api/auth/logout", "POST /api/auth/refresh"]);

describe("the session of a password that must be replaced", () => {
  const cases: [string, () => Promise<{ username: string; password: string }>][] = [
    ["a student's one-time password", async () => ({ username: "mhs1", password: await reset("mhs1") })],
    ["a lecturer's one-time password", async () => ({ username: "dosen1", password: await reset("dosen1") })],
    ["an admin's one-time password", async () => ({ username: "admin", password: await reset("admin") })],
    [
      "a roster's reset (accounts import --reset-passwords)",
      async () => {
        await service.context.accounts.upsert([{ line: 2, role: "mahasiswa", username: "mhs2", password: "sandi-daftar-baru", nim: "N002" }], { resetPasswords: true });
        return { username: "mhs2", password: "sandi-daftar-baru" };
      },
    ],
  ];

  test.each(cases)("%s: every route that asks for a token answers 403 but its own sign-in; nothing is written", async (_case, make) => {
    const routes = await routesAskingForAToken();
    // The table is the whole interface: a route added later is in it too.
    expect(routes.length).toBeGreaterThan(60);
    const { username, password } = await make();
    const signedIn = await login(username, password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.must_change_password).toBe(true);
    const token = signedIn.body.access_token as string;
    const before = lastAuditId();
    for (const [method, path] of routes.filter(([method, path]) => !ownSignIn.has(`${method} ${path}`))) {
      const answer = await service.request(method, path, { token, body: {} });
      expect({ route: `${method} ${path}`, status: answer.status, body: answer.body }).toEqual({ route: `${method} ${path}`, status: 403, body: { error: texts.changeFirst } });
    }
    // A token given where none is needed opens nothing either.
    expect(await service.request("GET", "/api/privasi/pemberitahuan", { token })).toMatchObject({ status: 403, body: { error: texts.changeFirst } });
    expect(auditRows(before)).toEqual([]);
    // Its own sign-in: /me, a refresh (which mints an equally held token), the change, then logout of the new session.
    expect(await service.request("GET", "/api/auth/me", { token })).toMatchObject({ status: 200, body: { username, must_change_password: true } });
    const refreshed = await service.request("POST", "/api/auth/refresh", { token: signedIn.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(await service.request("GET", "/api/kuesioner/questions", { token: refreshed.body.access_token })).toMatchObject({ status: 403, body: { error: texts.changeFirst } });
    const own = `${username}-sandi-sendiri`;
    expect(await service.request("POST", "/api/auth/password", { token, body: { old_password: password, new_password: password } })).toMatchObject({ status: 400, body: { error: texts.sameAsOld } });
    expect((await service.request("POST", "/api/auth/password", { token, body: { old_password: password, new_password: own } })).status).toBe(200);
    const after = await login(username, own);
    expect(after.body.user).not.toHaveProperty("must_change_password");
    expect((await service.request("GET", "/api/kuesioner/questions", { token: after.body.access_token })).status).toBe(200);
    expect((await service.request("POST", "/api/auth/logout", { token: after.body.access_token })).status).toBe(200);
    // The fixture's own password back, for the next case.
    await service.context.accounts.changePassword(username, passwords[username as keyof typeof passwords] ?? "sandi-daftar-baru", cli);
  });

  test("the token's own checks answer first: a refresh token, an expired or a forged one are 401 with their texts", async () => {
    const password = await reset("mhs1");
    const { access_token: access, refresh_token: refresh } = (await login("mhs1", password)).body;
    const diary = (token: string) => service.request("GET", "/api/mahasiswa/diary/N001", { token });
    expect(await diary(refresh)).toMatchObject({ status: 401, body: { error: texts.tokenWrongType } });
    expect(await diary(`${access}x`)).toMatchObject({ status: 401, body: { error: texts.tokenInvalid } });
    setSystemTime(new Date(Date.now() + 9 * 3600_000));
    expect(await diary(access)).toMatchObject({ status: 401, body: { error: texts.tokenExpired } });
    setSystemTime();
    // And before the role's own 403: a student's held session at a lecturer's route hears that it must change its password.
    expect(await service.request("GET", "/api/dosen/mahasiswa", { token: access })).toMatchObject({ status: 403, body: { error: texts.changeFirst } });
    await service.context.accounts.changePassword("mhs1", passwords.mhs1, cli);
  });

  test("a photo read with such a token is a read without a token (counted by address, the restriction holds)", async () => {
    const password = await reset("mhs1");
    const token = (await login("mhs1", password)).body.access_token as string;
    service.context.db.$client.run("UPDATE mahasiswa SET dibatasi_sejak = '2026-01-01T00:00:00.000Z' WHERE NIM = 'N001'");
    try {
      // The student's own token would pass the restriction; the held one reads as nobody's.
      expect((await service.request("GET", "/api/mahasiswa/profil/foto/N001", { token })).status).toBe(403);
    } finally {
      service.context.db.$client.run("UPDATE mahasiswa SET dibatasi_sejak = NULL WHERE NIM = 'N001'");
      await service.context.accounts.changePassword("mhs1", passwords.mhs1, cli);
    }
  });
});

describe(`a one-time password ends after ${oneTimePasswordHours} hours`, () => {
  test("before its end it signs in; after, login answers 401 with its own text and a login_failed row, and its session cannot change the password with it", async () => {
    const password = await reset("mhs2");
    const start = Date.now();
    setSystemTime(new Date(start + (oneTimePasswordHours - 1) * 3600_000));
    const early = await login("mhs2", password);
    expect(early.status).toBe(200);
    setSystemTime(new Date(start + oneTimePasswordHours * 3600_000 + 1000));
    const before = lastAuditId();
    expect(await login("mhs2", password)).toMatchObject({ status: 401, body: { error: texts.oneTimePasswordEnded } });
    expect(auditRows(before)).toEqual([{ action: "login_failed", actor_username: "mhs2", detail: "password sekali pakai sudah tidak berlaku" }]);
    // A wrong password still hears the usual text: the end is told only to whoever knows the password.
    expect(await login("mhs2", "bukan-sandinya-1")).toMatchObject({ status: 401, body: { error: texts.badCredentials } });
    const refreshed = await service.request("POST", "/api/auth/refresh", { token: early.body.refresh_token });
    const change = await service.request("POST", "/api/auth/password", { token: refreshed.body.access_token, body: { old_password: password, new_password: "sandi-baru-sekali" } });
    expect(change).toMatchObject({ status: 401, body: { error: texts.oneTimePasswordEnded } });
    setSystemTime();
    await service.context.accounts.changePassword("mhs2", passwords.mhs2, cli);
    expect((await login("mhs2", passwords.mhs2)).status).toBe(200);
  });

  test("an account not activated yet cannot be activated with it after its end", async () => {
    const password = await reset("mhs3");
    setSystemTime(new Date(Date.now() + oneTimePasswordHours * 3600_000 + 1000));
    expect(await service.request("POST", "/api/auth/activation", { body: { username: "mhs3", password, password_baru: "sandi-mhs3-baru" } })).toMatchObject({
      status: 401,
      body: { error: texts.oneTimePasswordEnded },
    });
    setSystemTime();
    expect(service.context.db.$client.query("SELECT is_activated FROM users WHERE username = 'mhs3'").get()).toEqual({ is_activated: 0 });
  });

  test("a roster's reset has no end (the faculty hands those out), but must be replaced", async () => {
    await service.context.accounts.upsert([{ line: 2, role: "mahasiswa", username: "mhs2", password: "sandi-daftar-lama", nim: "N002" }], { resetPasswords: true });
    setSystemTime(new Date(Date.now() + 30 * 24 * 3600_000));
    const signedIn = await login("mhs2", "sandi-daftar-lama");
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.must_change_password).toBe(true);
    setSystemTime();
    await service.context.accounts.changePassword("mhs2", passwords.mhs2, cli);
  });
});
