import { actorNameSql } from "../../src/audit/names";
import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { defaultPrivacyNotice } from "../../src/konten/privacy-notice";
import { TestService, passwords, standardAccounts } from "../helpers";

// The privacy notice (GET /api/privasi/pemberitahuan) and a student's acknowledgement of
// its version (POST .../setuju): what each caller is answered, what is written (the
// acknowledgement and its audit row) and what is not.

let service: TestService;
const tokens: Record<string, string> = {};

const sqlite = () => service.context.db.$client;
const acknowledgements = () =>
  sqlite().query("SELECT u.username, a.notice_version, a.acknowledged_at FROM privacy_acknowledgements a JOIN users u ON u.Id_User = a.Id_User ORDER BY a.rowid").all();
const privacyAuditRows = () =>
  sqlite()
    // The actor's name as shown (looked up by account id, decisions §16) and the row's students.
    .query(
      `SELECT actor_user_id, actor_username, actor_role, ${actorNameSql} AS actor_name, client_address, action,
         (SELECT group_concat(nim, ' ') FROM audit_subjects WHERE audit_id = audit_log.id) AS nim, target, detail
       FROM audit_log WHERE action = 'privacy' ORDER BY id`,
    )
    .all();
const userId = (username: string) => (sqlite().query("SELECT Id_User AS id FROM users WHERE username = ?").get(username) as { id: number }).id;

const notice = (token?: string) => service.request("GET", "/api/privasi/pemberitahuan", { token });
const acknowledge = (token: string | undefined, body: unknown) => service.request("POST", "/api/privasi/pemberitahuan/setuju", { token, body });

// A fixed clock from the start, so that tokens, the fair-use limit and the recorded times agree.
const start = new Date("2026-11-20T03:04:05.000Z");

beforeAll(async () => {
  setSystemTime(start);
  service = new TestService();
  await service.importAccounts(standardAccounts);
  await service.addStudentWithoutProfile();
  Object.assign(tokens, await service.accessTokens(["admin", "dosen1", "mhs1", "mhs2", "tanpaprofil"]));
});
afterAll(() => {
  service.close();
  setSystemTime();
});

describe("GET /api/privasi/pemberitahuan", () => {
  test("without a token: the project's notice, acknowledged null (the activation page shows it before any sign-in)", async () => {
    const answer = await notice();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...defaultPrivacyNotice, acknowledged: null });
    expect(answer.body.text).toContain("UU PDP");
  });

  test.each([
    ["a student who has not acknowledged it", false, "mhs2"],
    ["a lecturer, who is not asked", null, "dosen1"],
    ["an admin, who is not asked", null, "admin"],
  ] as const)("for %s: acknowledged %p", async (_who, acknowledged, username) => {
    const answer = await notice(tokens[username]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...defaultPrivacyNotice, acknowledged });
  });

  test("a token that is given must be valid: 401, not the anonymous answer", async () => {
    const answer = await notice("bukan.token.sah");
    expect(answer.status).toBe(401);
    expect(answer.body.error).toEqual(expect.any(String));
  });

  test("a read by a student leaves no audit row", async () => {
    const before = sqlite().query("SELECT count(*) AS n FROM audit_log").get();
    await notice(tokens.mhs2);
    expect(sqlite().query("SELECT count(*) AS n FROM audit_log").get()).toEqual(before);
  });
});

describe("POST /api/privasi/pemberitahuan/setuju: refusals write nothing", () => {
  const current = defaultPrivacyNotice.version;
  test.each([
    ["no token", undefined, { version: current }, 401, expect.any(String)],
    ["a lecturer", "dosen1", { version: current }, 403, "Hanya mahasiswa yang menyetujui pemberitahuan privasi."],
    ["an admin", "admin", { version: current }, 403, "Hanya mahasiswa yang menyetujui pemberitahuan privasi."],
    ["no version", "mhs1", {}, 400, "version wajib diisi: versi pemberitahuan privasi yang Anda baca."],
    ["a blank version", "mhs1", { version: "  " }, 400, "version wajib diisi: versi pemberitahuan privasi yang Anda baca."],
    ["a version that is not a string", "mhs1", { version: 1 }, 400, "version wajib diisi: versi pemberitahuan privasi yang Anda baca."],
  ])("%s is refused", async (_case, username, body, status, error) => {
    const answer = await acknowledge(username && tokens[username], body);
    expect({ status: answer.status, error: answer.body.error }).toEqual({ status, error });
    expect(acknowledgements()).toEqual([]);
    expect(privacyAuditRows()).toEqual([]);
  });

  test("a version other than the one in force: 409 naming the current version", async () => {
    const answer = await acknowledge(tokens.mhs1, { version: "2019-lama" });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      error: `Pemberitahuan privasi sudah diperbarui ke versi ${current}. Baca versi terbaru, lalu setujui lagi.`,
      current_version: current,
    });
    expect(acknowledgements()).toEqual([]);
    expect(privacyAuditRows()).toEqual([]);
  });
});

describe("POST /api/privasi/pemberitahuan/setuju: the acknowledgement", () => {
  const current = defaultPrivacyNotice.version;

  test("records the student, the version and the time, with one audit row; GET then says acknowledged", async () => {
    const answer = await acknowledge(tokens.mhs1, { version: ` ${current} ` });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ message: `Pemberitahuan privasi versi ${current} disetujui.`, version: current, acknowledged_at: "2026-11-20T03:04:05.000Z" });
    expect(acknowledgements()).toEqual([{ username: "mhs1", notice_version: current, acknowledged_at: "2026-11-20T03:04:05.000Z" }]);
    expect(privacyAuditRows()).toEqual([
      {
        actor_user_id: userId("mhs1"),
        actor_username: "mhs1",
        actor_role: "mahasiswa",
        actor_name: "Mahasiswa Satu",
        client_address: service.address,
        action: "privacy",
        nim: "N001",
        target: "POST /api/privasi/pemberitahuan/setuju",
        detail: `pemberitahuan privasi versi ${current} disetujui`,
      },
    ]);
    expect((await notice(tokens.mhs1)).body.acknowledged).toBe(true);
    // Another student's answer is their own.
    expect((await notice(tokens.mhs2)).body.acknowledged).toBe(false);
  });

  test("repeating it is idempotent: 200 with the first time, no second row, no second audit row", async () => {
    setSystemTime(new Date(start.getTime() + 3600_000));
    const answer = await acknowledge(tokens.mhs1, { version: current });
    expect(answer.status).toBe(200);
    expect(answer.body.acknowledged_at).toBe("2026-11-20T03:04:05.000Z");
    expect(acknowledgements()).toHaveLength(1);
    expect(privacyAuditRows()).toHaveLength(1);
  });

  test("a student account without a profile acknowledges too; its audit row names no NIM", async () => {
    const answer = await acknowledge(tokens.tanpaprofil, { version: current });
    expect(answer.status).toBe(201);
    expect(privacyAuditRows().at(-1)).toMatchObject({ actor_username: "tanpaprofil", nim: null });
  });

  test("a new version asks again: the old acknowledgement no longer counts, the old version is refused, both rows are kept", async () => {
    const replaced = service.features.content.privacyNotice.replace({ version: "2027-1", title: "Pemberitahuan baru", text: "Isi baru." });
    expect(replaced.errors).toEqual([]);
    expect((await notice(tokens.mhs1)).body).toEqual({ version: "2027-1", title: "Pemberitahuan baru", text: "Isi baru.", acknowledged: false });
    expect((await acknowledge(tokens.mhs1, { version: current })).status).toBe(409);
    expect((await acknowledge(tokens.mhs1, { version: "2027-1" })).status).toBe(201);
    expect((await notice(tokens.mhs1)).body.acknowledged).toBe(true);
    expect(acknowledgements().filter((row: any) => row.username === "mhs1").map((row: any) => row.notice_version)).toEqual([current, "2027-1"]);
  });

  test("the acknowledgement counts toward the student's fair-use limit of writes", async () => {
    const limited = new TestService({ SKRINING_STUDENT_WRITES: "1" });
    try {
      await limited.importAccounts(standardAccounts);
      const { access } = await limited.login("mhs2", passwords.mhs2);
      const send = () => limited.request("POST", "/api/privasi/pemberitahuan/setuju", { token: access, body: { version: current } });
      expect((await send()).status).toBe(201);
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toEqual(expect.any(String));
    } finally {
      limited.close();
    }
  });
});
