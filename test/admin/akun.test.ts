import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { passwords, runCli } from "../helpers";
import { consoleService, form } from "./support";

// "Akun": the list, one new account, a roster's preview and import, a one-time password,
// activation and deactivation; each with the audit row its command leaves.

let opened: Awaited<ReturnType<typeof consoleService>>;
beforeAll(async () => {
  opened = await consoleService({ SKRINING_ROSTER_LIMIT: "4096" });
});
afterAll(() => opened.service.close());

const roster = (text: string, fields: Record<string, string> = {}) => form({ field: "berkas", name: "daftar.csv", bytes: text, type: "text/csv" }, fields);
const counts = () => opened.service.context.db.$client.query<{ users: number; mahasiswa: number }, []>("SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM mahasiswa) AS mahasiswa").get()!;
const cli = (...args: string[]) => runCli(["--data", opened.service.dataDir, ...args]);
/** An audit row without what differs between the console and the command: who, from where, through what. */
const what = (row: { action: string; nim: string | null; detail: string | null }) => ({ action: row.action, nim: row.nim, detail: row.detail });

describe("the list", () => {
  test("filters by role, state and text, one page at a time, and never shows a password", async () => {
    const all = await opened.call("GET", "/api/admin/akun");
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 6, page: 1, total_pages: 1 });
    expect(JSON.stringify(all.body)).not.toContain("$2");
    const cases: [string, string[]][] = [
      ["peran=mahasiswa", ["mhs1", "mhs2", "mhs3"]],
      ["peran=dosen&q=dua", ["dosen2"]],
      ["status=belum-aktif", ["mhs3"]],
      ["q=N002", ["mhs2"]],
      ["q=SATU", ["dosen1", "mhs1"]],
      ["peran=bukan-peran&q=admin", ["admin"]],
      ["per_page=2&page=2", ["dosen2", "mhs1"]],
    ];
    for (const [query, usernames] of cases) {
      const answer = await opened.call("GET", `/api/admin/akun?${query}`);
      expect({ query, usernames: answer.body.data.map((account: { username: string }) => account.username) }).toEqual({ query, usernames });
    }
  });
});

describe("one new account", () => {
  test("is created with the command's audit row; an existing username is 409 and a bad row 400, nothing written", async () => {
    const before = opened.lastAuditId();
    const created = await opened.call("POST", "/api/admin/akun", { body: { role: "mahasiswa", username: "mhs9", password: "awal-mhs-9", nim: "N009", nama: "Mahasiswa Sembilan", nip_doswal: "D001" } });
    expect(created).toMatchObject({ status: 201, body: { username: "mhs9" } });
    expect(created.body.message).toContain("belum aktif");
    const [row] = opened.auditAfter(before);
    expect(row).toMatchObject({ actor_role: "admin", actor_username: "admin", client_address: "127.0.0.1", target: "POST /api/admin/akun" });
    await cli("accounts", "add", "--role", "mahasiswa", "--username", "mhs10", "--password", "awal-mhs-10", "--nim", "N010");
    const [, fromCli] = opened.auditAfter(before);
    expect(what(row!)).toEqual({ action: "create", nim: "N009", detail: "akun mhs9 (mahasiswa)" });
    expect(what(fromCli!)).toEqual({ action: "create", nim: "N010", detail: "akun mhs10 (mahasiswa)" });

    const users = counts().users;
    expect(await opened.call("POST", "/api/admin/akun", { body: { role: "mahasiswa", username: "mhs9", password: "awal-mhs-9", nim: "N019" } })).toMatchObject({ status: 409, body: { error: "username mhs9 sudah ada" } });
    expect(await opened.call("POST", "/api/admin/akun", { body: { role: "mahasiswa", username: "mhs11", password: "pendek", nim: "N011" } })).toMatchObject({ status: 400 });
    expect(await opened.call("POST", "/api/admin/akun", { body: { role: "dosen", username: "dosen9", password: "awal-dosen-9" } })).toMatchObject({ status: 400, body: { error: "nip wajib diisi untuk dosen" } });
    expect(counts().users).toBe(users);
  });
});

describe("a roster", () => {
  const good = "role,username,password,nim,nip,nama,nip_doswal,usia,activated\n" + "dosen,dosen3,awal-dosen-3,,D003,Dosen Tiga,,,true\n" + "mahasiswa,mhs1,,N001,,Mahasiswa Satu,D001,,\n" + "mahasiswa,mhs2,,N002,,Nama Baru,D003,17,\n" + "mahasiswa,mhs20,awal-mhs-20,N020,,Mahasiswa Dua Puluh,D003,19,ya\n";

  test("a preview lists every bad line with its number and writes nothing", async () => {
    const before = { ...counts(), audit: opened.lastAuditId() };
    const bad =
      "role,username,password,nim,nip,usia\n" +
      "mahasiswa,baru1,awal-baru-1,N101,,\n" +
      "mahasiswa,baru2,pendek,N102,,\n" +
      "rektor,baru3,awal-baru-3,,,\n" +
      "mahasiswa,baru4,awal-baru-4,N101,,\n" +
      "mahasiswa,baru5,awal-baru-5,N105,,9\n";
    const answer = await opened.call("POST", "/api/admin/akun/impor/pratinjau", { rawBody: roster(bad) });
    expect(answer.status).toBe(200);
    expect(answer.body.problems.map((problem: { line: number }) => problem.line)).toEqual([3, 4, 5, 6]);
    expect(answer.body.problems[0].message).toContain("Password harus minimal 8 karakter");
    expect(answer.body.problems.map((problem: { message: string }) => problem.message)).toContain("nim N101 sudah dipakai di baris 2");
    expect({ ...counts(), audit: opened.lastAuditId() }).toEqual(before);
    // The import of the same file is refused with the same lines, nothing written.
    const refused = await opened.call("POST", "/api/admin/akun/impor", { rawBody: roster(bad) });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("4 baris tidak valid; tidak ada yang disimpan.");
    expect(refused.body.baris).toHaveLength(4);
    expect(refused.body.baris[0]).toStartWith("baris 3: ");
    expect({ ...counts(), audit: opened.lastAuditId() }).toEqual(before);
  });

  test("a preview says per row what the import will do; the import does exactly that, with the command's row", async () => {
    const before = opened.lastAuditId();
    const preview = await opened.call("POST", "/api/admin/akun/impor/pratinjau", { rawBody: roster(good) });
    expect(preview.body.problems).toEqual([]);
    expect(preview.body.rows).toEqual([
      { line: 2, username: "dosen3", role: "dosen", outcome: "dibuat", fields: [], passwordReset: false },
      { line: 3, username: "mhs1", role: "mahasiswa", outcome: "tidak berubah", fields: [], passwordReset: false },
      {
        line: 4,
        username: "mhs2",
        role: "mahasiswa",
        outcome: "diperbarui",
        fields: ["nama", "nipDoswal", "usia"],
        passwordReset: false,
        // Decisions §19: the new advisor is a lecturer of the same file, named by it.
        advisor: { from: { NIP: "D002", nama_dosen: "Dosen Dua" }, to: { NIP: "D003", nama_dosen: "Dosen Tiga" }, openCases: 0 },
      },
      { line: 5, username: "mhs20", role: "mahasiswa", outcome: "dibuat", fields: [], passwordReset: false },
    ]);
    expect(preview.body.counts).toEqual({ created: 2, updated: 1, unchanged: 1, passwordsReset: 0, leftInactive: 0 });
    expect(preview.body.casesMoving).toEqual([]);
    expect(opened.lastAuditId()).toBe(before);

    const imported = await opened.call("POST", "/api/admin/akun/impor", { rawBody: roster(good) });
    expect(imported.status).toBe(200);
    expect(imported.body.counts).toEqual(preview.body.counts);
    expect(imported.body.di_bawah_18).toEqual([{ nim: "N002", nama: "Nama Baru", usia: 17 }]);
    const rows = opened.auditAfter(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "accounts_import", target: "POST /api/admin/akun/impor", detail: "dibuat 2, diperbarui 1, tidak berubah 1, password diganti 0" });
    // The same file again changes nothing, as `accounts import` says.
    const again = await opened.call("POST", "/api/admin/akun/impor/pratinjau", { rawBody: roster(good) });
    expect(again.body.counts).toEqual({ created: 0, updated: 0, unchanged: 4, passwordsReset: 0, leftInactive: 0 });
  });

  test("decisions §19: the preview says how many open follow-up cases move to whom; the import moves exactly those", async () => {
    const sqlite = opened.service.context.db.$client;
    // N001's open case is handled by their advisor D001; it goes along when N001 moves to D002.
    sqlite.run(
      "INSERT INTO tindak_lanjut (NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, status, dibuka_pada, diperbarui_pada) VALUES ('N001', 'D001', 1, 0, 'baru', '2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z')",
    );
    const moving = "role,username,password,nim,nip_doswal\nmahasiswa,mhs1,,N001,D002\n";
    const preview = await opened.call("POST", "/api/admin/akun/impor/pratinjau", { rawBody: roster(moving) });
    expect(preview.body.rows).toEqual([
      {
        line: 2,
        username: "mhs1",
        role: "mahasiswa",
        outcome: "diperbarui",
        fields: ["nipDoswal"],
        passwordReset: false,
        advisor: { from: { NIP: "D001", nama_dosen: "Dosen Satu" }, to: { NIP: "D002", nama_dosen: "Dosen Dua" }, openCases: 1 },
      },
    ]);
    expect(preview.body.casesMoving).toEqual([{ NIP: "D002", nama_dosen: "Dosen Dua", count: 1 }]);
    expect((await opened.call("POST", "/api/admin/akun/impor", { rawBody: roster(moving) })).status).toBe(200);
    expect(sqlite.query("SELECT NIP FROM tindak_lanjut WHERE NIM = 'N001' AND status <> 'selesai'").all()).toEqual([{ NIP: "D002" }]);
  });

  test("with reset_password an existing account's password counts as a change", async () => {
    const withNim = "role,username,password,nim\nmahasiswa,mhs1,baru-mhs-1x,N001\n";
    const preview = await opened.call("POST", "/api/admin/akun/impor/pratinjau", { rawBody: roster(withNim, { reset_password: "ya" }) });
    expect(preview.body.rows).toEqual([{ line: 2, username: "mhs1", role: "mahasiswa", outcome: "diperbarui", fields: [], passwordReset: true }]);
    expect(preview.body.counts.passwordsReset).toBe(1);
  });

  test("a file that is no CSV text, no file, or a file over the limit is a clear refusal, nothing written", async () => {
    const before = counts();
    const binary = await opened.call("POST", "/api/admin/akun/impor/pratinjau", { rawBody: form({ field: "berkas", name: "daftar.xlsx", bytes: new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 1]) }) });
    expect(binary).toMatchObject({ status: 400 });
    expect(binary.body.error).toContain("bukan CSV teks");
    expect(await opened.call("POST", "/api/admin/akun/impor", { rawBody: form(null) })).toMatchObject({ status: 400, body: { error: "Pilih file CSV daftar akun." } });
    expect(await opened.call("POST", "/api/admin/akun/impor", { body: { berkas: "role,username" } })).toMatchObject({ status: 400, body: { error: "Pilih file CSV daftar akun." } });
    const large = "role,username,password,nim\n" + "mahasiswa,x,awal-xxxxx-1,N1\n".repeat(4000);
    const tooLarge = await opened.call("POST", "/api/admin/akun/impor", { rawBody: roster(large) });
    expect(tooLarge.status).toBe(413);
    expect(counts()).toEqual(before);
  });
});

describe("a one-time password", () => {
  test("is shown once, signs its owner in with must_change_password, and is replaced by the owner's own", async () => {
    const old = (await opened.service.login("mhs1", passwords.mhs1)).access;
    const before = opened.lastAuditId();
    const reset = await opened.confirmedCall("POST", "/api/admin/akun/mhs1/reset-password");
    expect(reset.status).toBe(200);
    const password = reset.body.password as string;
    expect(password).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(opened.auditAfter(before).map(what)).toEqual([{ action: "password", nim: "N001", detail: "akun mhs1: password sekali pakai, harus diganti saat masuk, berlaku 72 jam; semua sesinya berakhir" }]);
    // Every session of the account ended; the old password no longer works.
    expect((await opened.service.request("GET", "/api/auth/me", { token: old })).status).toBe(401);
    expect((await opened.service.request("POST", "/api/auth/login", { body: { username: "mhs1", password: passwords.mhs1 } })).status).toBe(401);

    const login = await opened.service.request("POST", "/api/auth/login", { body: { username: "mhs1", password } });
    expect(login.status).toBe(200);
    expect(login.body.user.must_change_password).toBe(true);
    const me = await opened.service.request("GET", "/api/auth/me", { token: login.body.access_token });
    expect(me.body.must_change_password).toBe(true);
    const changed = await opened.service.request("POST", "/api/auth/password", { token: login.body.access_token, body: { old_password: password, new_password: passwords.mhs1 } });
    expect(changed.status).toBe(200);
    const after = await opened.service.request("POST", "/api/auth/login", { body: { username: "mhs1", password: passwords.mhs1 } });
    expect(after.body.user).not.toHaveProperty("must_change_password");
  });

  test("accounts passwd --one-time does the same, with the same row", async () => {
    const before = opened.lastAuditId();
    const result = await cli("accounts", "passwd", "mhs2", "--one-time");
    expect(result.exitCode).toBe(0);
    const password = /: (\S+)\n/.exec(result.stdout)![1]!;
    expect(opened.auditAfter(before).map(what)).toEqual([{ action: "password", nim: "N002", detail: "akun mhs2: password sekali pakai, harus diganti saat masuk, berlaku 72 jam; semua sesinya berakhir" }]);
    const login = await opened.service.request("POST", "/api/auth/login", { body: { username: "mhs2", password } });
    expect(login.body.user.must_change_password).toBe(true);
    // A password the admin chooses is no one-time password.
    await cli("accounts", "passwd", "mhs2", "--one-time");
    await runCli(["--data", opened.service.dataDir, "accounts", "passwd", "mhs2"], { stdin: `${passwords.mhs2}\n` });
    expect((await opened.service.request("POST", "/api/auth/login", { body: { username: "mhs2", password: passwords.mhs2 } })).body.user).not.toHaveProperty("must_change_password");
  });

  test("an account that is not activated yet activates with it and sets its own password there", async () => {
    const reset = await opened.confirmedCall("POST", "/api/admin/akun/mhs3/reset-password");
    const activation = await opened.service.request("POST", "/api/auth/activation", { body: { username: "mhs3", password: reset.body.password, password_baru: passwords.mhs3 } });
    expect(activation.status).toBe(200);
    expect((await opened.service.request("POST", "/api/auth/login", { body: { username: "mhs3", password: passwords.mhs3 } })).body.user).not.toHaveProperty("must_change_password");
  });

  test("an unknown account is 404 and nothing is written", async () => {
    const before = opened.lastAuditId();
    expect(await opened.confirmedCall("POST", "/api/admin/akun/tidak-ada/reset-password")).toMatchObject({ status: 404, body: { error: "akun tidak-ada tidak ditemukan" } });
    expect(opened.auditAfter(before)).toEqual([]);
  });
});

describe("activation and deactivation", () => {
  test("deactivation and reactivation need the confirmation (decisions §21); deactivation ends the sessions; both leave the command's rows", async () => {
    const session = (await opened.service.login("dosen2", passwords.dosen2)).access;
    const before = opened.lastAuditId();
    expect((await opened.call("POST", "/api/admin/akun/dosen2/nonaktifkan")).status).toBe(403);
    const off = await opened.confirmedCall("POST", "/api/admin/akun/dosen2/nonaktifkan");
    expect(off).toMatchObject({ status: 200, body: { message: "Akun dosen2 dinonaktifkan; semua sesinya berakhir. Login dan aktivasi ditolak sampai akun diaktifkan lagi." } });
    expect((await opened.service.request("GET", "/api/auth/me", { token: session })).status).toBe(401);
    expect(await opened.service.request("POST", "/api/auth/login", { body: { username: "dosen2", password: passwords.dosen2 } })).toMatchObject({
      status: 403,
      body: { error: "Akun dinonaktifkan. Hubungi admin fakultas." },
    });
    // Disabled is a state of its own in the list (decisions §14).
    const disabled = await opened.call("GET", "/api/admin/akun?status=dinonaktifkan");
    expect(disabled.body.data.map((account: { username: string; disabled: boolean }) => [account.username, account.disabled])).toEqual([["dosen2", true]]);
    expect((await opened.call("GET", "/api/admin/akun?status=aktif")).body.data.map((account: { username: string }) => account.username)).not.toContain("dosen2");
    expect(await opened.call("POST", "/api/admin/akun/dosen2/aktifkan")).toMatchObject({ status: 403, body: { konfirmasi_diperlukan: true } });
    expect(await opened.service.request("POST", "/api/auth/login", { body: { username: "dosen2", password: passwords.dosen2 } })).toMatchObject({ status: 403 });
    const on = await opened.confirmedCall("POST", "/api/admin/akun/dosen2/aktifkan");
    expect(on).toMatchObject({ status: 200, body: { message: "Akun dosen2 diaktifkan." } });
    expect(await opened.confirmedCall("POST", "/api/admin/akun/dosen2/aktifkan")).toMatchObject({ status: 200, body: { message: "Akun dosen2 sudah aktif." } });
    await cli("accounts", "deactivate", "dosen2");
    // (The refused login between them leaves its own login_failed row.)
    expect(opened.auditAfter(before).filter((row) => row.action === "activate").map(what)).toEqual([
      { action: "activate", nim: null, detail: "akun dosen2 dinonaktifkan; semua sesinya berakhir" },
      { action: "activate", nim: null, detail: "akun dosen2 diaktifkan" },
      { action: "activate", nim: null, detail: "akun dosen2 sudah aktif" },
      { action: "activate", nim: null, detail: "akun dosen2 dinonaktifkan; semua sesinya berakhir" },
    ]);
  });

  test("the admin's own password cannot be reset from the console: nothing changes, the admin stays signed in (issue 44, item 5)", async () => {
    const before = opened.auditAfter(0).length;
    expect(await opened.confirmedCall("POST", "/api/admin/akun/admin/reset-password")).toMatchObject({
      status: 400,
      body: { error: "Password sekali pakai tidak dapat dibuat untuk akun Anda sendiri: semua sesi Anda akan berakhir dan password lama tidak berlaku lagi. Ganti password Anda dengan skrining accounts passwd admin di PC ini." },
    });
    expect(opened.auditAfter(0).length).toBe(before);
    expect((await opened.confirmedCall("POST", "/api/admin/akun/dosen2/aktifkan")).status).toBe(200);
  });

  test("the admin's own account cannot be deactivated from the console", async () => {
    expect(await opened.confirmedCall("POST", "/api/admin/akun/admin/nonaktifkan")).toMatchObject({
      status: 400,
      body: { error: "Akun Anda sendiri tidak dapat dinonaktifkan dari konsol." },
    });
  });
});
