import { afterAll, afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { confirmationMessages, confirmationSeconds } from "../../src/modules/admin/confirmation";
import { passwords } from "../helpers";
import { consoleService } from "./support";

// Acts of the console that can give access ask for the admin's password again: a
// confirmation of one act on one target (decisions §21), used up by it, that belongs to one
// session, lapses after a few minutes, and is never a second login. Which acts need one:
// test/admin/reauthentication.test.ts.

let opened: Awaited<ReturnType<typeof consoleService>>;
beforeAll(async () => {
  opened = await consoleService();
  // A second admin, for confirmations that are someone else's.
  await opened.service.importAccounts("role,username,password,activated\nadmin,admin2,admin-pass-2,true\n");
});
afterAll(() => opened.service.close());
afterEach(() => setSystemTime());

const resetAct = "POST /api/admin/akun/mhs2/reset-password";
const reset = (headers: Record<string, string> = {}, token = opened.admin) => opened.service.request("POST", "/api/admin/akun/mhs2/reset-password", { token, headers });
const needed = { error: confirmationMessages.needed, konfirmasi_diperlukan: true };

describe("the confirmation", () => {
  test("without one, with a made-up one, or with an empty header, a destructive act is refused with 403 (never 401) and nothing changes", async () => {
    const before = opened.lastAuditId();
    for (const headers of [{}, { "x-konfirmasi": "" }, { "x-konfirmasi": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }] as Record<string, string>[]) {
      expect(await reset(headers)).toMatchObject({ status: 403, body: needed });
    }
    expect(opened.auditAfter(before)).toEqual([]);
    expect((await opened.service.login("mhs2", passwords.mhs2)).access).toBeString();
  });

  test("the password again gives one for the act it names, for a few minutes; with it the act goes through once", async () => {
    const answer = await opened.call("POST", "/api/admin/konfirmasi", { body: { password: passwords.admin, tindakan: resetAct } });
    expect(answer.status).toBe(200);
    expect(answer.body.konfirmasi).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const lasts = Date.parse(answer.body.berlaku_sampai) - Date.now();
    expect(lasts).toBeGreaterThan((confirmationSeconds - 5) * 1000);
    expect(lasts).toBeLessThanOrEqual(confirmationSeconds * 1000);
    const headers = { "x-konfirmasi": answer.body.konfirmasi };
    expect((await reset(headers)).status).toBe(200);
    // Used up (decisions §21): the same act again asks again.
    expect(await reset(headers)).toMatchObject({ status: 403, body: needed });
  });

  test("it lapses: after its minutes the same confirmation is refused", async () => {
    const headers = await opened.confirmed(resetAct);
    setSystemTime(new Date(Date.now() + (confirmationSeconds + 1) * 1000));
    expect(await reset(headers)).toMatchObject({ status: 403, body: needed });
  });

  test("it belongs to its session: another session of the same admin, or another admin, cannot use it", async () => {
    const headers = await opened.confirmed(resetAct);
    const otherSession = (await opened.service.login("admin", passwords.admin)).access;
    expect(await reset(headers, otherSession)).toMatchObject({ status: 403, body: needed });
    const otherAdmin = (await opened.service.login("admin2", "admin-pass-2")).access;
    expect(await reset(headers, otherAdmin)).toMatchObject({ status: 403, body: needed });
    expect((await reset(headers)).status).toBe(200);
  });

  test("a wrong password is 401 `Password salah.` with a login_failed row; an empty one 400; neither confirms anything", async () => {
    const before = opened.lastAuditId();
    expect(await opened.call("POST", "/api/admin/konfirmasi", { body: { password: "salah-sekali-1", tindakan: resetAct } })).toMatchObject({ status: 401, body: { error: "Password salah." } });
    expect(await opened.call("POST", "/api/admin/konfirmasi", { body: { tindakan: resetAct } })).toMatchObject({ status: 400, body: { error: "Ketik password Anda untuk mengonfirmasi." } });
    expect(opened.auditAfter(before)).toEqual([
      expect.objectContaining({ actor_role: "admin", actor_username: "admin", action: "login_failed", target: "POST /api/admin/konfirmasi", detail: "konfirmasi konsol admin: password salah" }),
    ]);
    // The session goes on: a wrong confirmation is no failed login that ends it.
    expect((await opened.call("GET", "/api/admin/akun")).status).toBe(200);
  });

  test("wrong passwords are throttled like logins (429), even the right one then", async () => {
    const { service } = await consoleService({ SKRINING_THROTTLE_USERNAME: "3" });
    try {
      const token = (await service.login("admin", passwords.admin)).access;
      for (let attempt = 0; attempt < 3; attempt++) expect((await service.request("POST", "/api/admin/konfirmasi", { token, body: { password: "salah-sekali-1", tindakan: resetAct } })).status).toBe(401);
      const throttled = await service.request("POST", "/api/admin/konfirmasi", { token, body: { password: passwords.admin, tindakan: resetAct } });
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      service.close();
    }
  });

  test("a lecturer cannot get one", async () => {
    const token = (await opened.service.login("dosen1", passwords.dosen1)).access;
    expect((await opened.service.request("POST", "/api/admin/konfirmasi", { token, body: { password: passwords.dosen1, tindakan: resetAct } })).status).toBe(403);
  });

  const unnamed: [string, Record<string, unknown>][] = [
    ["no act", {}],
    ["an act that is no string", { tindakan: ["POST", "/api/admin/akun/mhs2/reset-password"] }],
    ["a reading method", { tindakan: "GET /api/admin/akun" }],
    ["a path outside the console", { tindakan: "POST /api/auth/password" }],
    ["no path", { tindakan: "POST" }],
  ];
  test.each(unnamed)("%s: 400 saying what to name, the password not even checked (no row, no count)", async (_case, extra) => {
    const before = opened.lastAuditId();
    expect(await opened.call("POST", "/api/admin/konfirmasi", { body: { password: "salah-sekali-1", ...extra } })).toMatchObject({
      status: 400,
      body: { error: confirmationMessages.actRequired },
    });
    expect(opened.auditAfter(before)).toEqual([]);
  });

  test("the act is the path as sent: a username written with %-escapes is the same act", async () => {
    await opened.service.importAccounts("role,username,password,nim,activated\nmahasiswa,mhs.titik,awal-titik-1,N077,true\n");
    const headers = await opened.confirmed("POST /api/admin/akun/mhs%2Etitik/reset-password");
    expect((await opened.call("POST", "/api/admin/akun/mhs.titik/reset-password", { headers })).status).toBe(200);
  });
});
