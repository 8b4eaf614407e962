import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { stringifyModelDocument } from "../../src/models/format";
import { passwords } from "../helpers";
import { constantModel } from "../models/support";
import { consoleService, form } from "./support";

// Decisions §21: every act of the console that can give access needs the admin's password
// again, and a confirmation serves one act on one target. Each act of the table is refused
// without one and with one given for another act or target, writing nothing; it goes
// through with its own, which it uses up. The red team's ways in are rows of it: a roster
// that resets another admin's password, a new admin, one confirmation for several acts.

let opened: Awaited<ReturnType<typeof consoleService>>;
let modelId: number;
beforeAll(async () => {
  opened = await consoleService();
  await opened.service.importAccounts("role,username,password,activated\nadmin,admin2,admin-pass-2,true\n");
  const model = stringifyModelDocument(constantModel("Tinggi", "Rendah"));
  const added = await opened.call("POST", "/api/admin/model", { rawBody: form({ field: "berkas", name: "model.json", bytes: model }, { jenis: "stress" }) });
  modelId = added.body.model.id;
  await opened.call("POST", "/api/admin/privasi/N002/batasi");
});
afterAll(() => opened.service.close());

const roster = (text: string, fields: Record<string, string> = {}) => form({ field: "berkas", name: "daftar.csv", bytes: text, type: "text/csv" }, fields);
const db = () => opened.service.context.db.$client;
/** What an act would change, read before and after a refusal: every account, the models, the students and their restriction. */
const state = () => ({
  users: db().query("SELECT username, password_hash, role, is_activated, disabled_at, must_change_password FROM users ORDER BY Id_User").all(),
  models: db().query("SELECT id, is_active FROM prediction_models ORDER BY id").all(),
  students: db().query("SELECT NIM, dibatasi_sejak FROM mahasiswa ORDER BY NIM").all(),
});

interface Act {
  method: string;
  path: string;
  /** A fresh body each time (a form is read once). */
  body?: () => { body?: unknown; rawBody?: FormData };
}

/** Admins the roster row makes: each time another. */
let made = 0;

/** The acts of decisions §21, in an order in which each still has something to change. */
const acts: [string, Act][] = [
  ["a roster import that resets another admin's password (the red team's)", { method: "POST", path: "/api/admin/akun/impor", body: () => ({ rawBody: roster("role,username,password\nadmin,admin2,sandi-pilihan-1\n", { reset_password: "ya" }) }) }],
  ["a roster import that makes an admin", { method: "POST", path: "/api/admin/akun/impor", body: () => ({ rawBody: roster(`role,username,password,activated\nadmin,admin-${++made},sandi-admin-3,true\n`) }) }],
  ["a new admin (the red team's)", { method: "POST", path: "/api/admin/akun", body: () => ({ body: { role: "admin", username: "admin4", password: "sandi-admin-4", activated: true } }) }],
  ["a one-time password", { method: "POST", path: "/api/admin/akun/mhs1/reset-password" }],
  ["a deactivation", { method: "POST", path: "/api/admin/akun/dosen2/nonaktifkan" }],
  ["a reactivation", { method: "POST", path: "/api/admin/akun/dosen2/aktifkan" }],
  ["an activation", { method: "POST", path: "/api/admin/akun/mhs3/aktifkan" }],
  ["a model's activation", { method: "POST", path: "/api/admin/model/{model}/aktifkan" }],
  [
    "a model activated at its upload",
    { method: "POST", path: "/api/admin/model", body: () => ({ rawBody: form({ field: "berkas", name: "m.json", bytes: stringifyModelDocument(constantModel("Rendah", "Rendah")) }, { jenis: "motivasi", aktifkan: "ya" }) }) },
  ],
  ["the end of a restriction", { method: "POST", path: "/api/admin/privasi/N002/akhiri-pembatasan" }],
  ["an erasure", { method: "POST", path: "/api/admin/privasi/N001/hapus", body: () => ({ body: { nim_konfirmasi: "N001" } }) }],
];

const pathOf = (act: Act) => act.path.replace("{model}", String(modelId));
const make = (act: Act, headers: Record<string, string> = {}) => opened.call(act.method, pathOf(act), { ...act.body?.(), headers });
const needed = { status: 403, body: { error: "Tindakan ini perlu konfirmasi: ketik password Anda lagi.", konfirmasi_diperlukan: true } };

describe("every act that can give access", () => {
  test.each(acts)("%s: refused without a confirmation, with one of another act or target, then done once with its own", async (_case, act) => {
    const before = { state: state(), audit: opened.lastAuditId() };
    expect(await make(act)).toMatchObject(needed);
    // Another act on the same target, and the same act on another target (a confirmation of one act on one target).
    const otherAct = await opened.confirmed(`POST ${pathOf(act)}x`);
    expect(await make(act, otherAct)).toMatchObject(needed);
    const elsewhere = pathOf(act).replace(/(akun|privasi|model)\/[^/]+\//, "$1/lain/");
    if (elsewhere !== pathOf(act)) expect(await make(act, await opened.confirmed(`${act.method} ${elsewhere}`))).toMatchObject(needed);
    expect(state()).toEqual(before.state);
    expect(opened.auditAfter(before.audit)).toEqual([]);

    const own = await opened.confirmed(`${act.method} ${pathOf(act)}`);
    const done = await make(act, own);
    expect({ done: [200, 201].includes(done.status), status: done.status, body: done.body }).toMatchObject({ done: true });
    expect(opened.auditAfter(before.audit).length).toBeGreaterThan(0);
    // Used up: the same header again is refused, whatever the act would do now.
    const again = opened.lastAuditId();
    expect(await make(act, own)).toMatchObject(needed);
    expect(opened.auditAfter(again)).toEqual([]);
  });

  test("what gives no access needs none: a student's account, an import of students without a reset, a restriction, a model's deactivation", async () => {
    expect((await opened.call("POST", "/api/admin/akun", { body: { role: "mahasiswa", username: "mhs8", password: "awal-mhs-8", nim: "N008" } })).status).toBe(201);
    const imported = await opened.call("POST", "/api/admin/akun/impor", { rawBody: roster("role,username,password,nim\nmahasiswa,mhs7,awal-mhs-7,N007\nadmin,admin2,abaikan-sandi-1,\n") });
    expect({ status: imported.status, body: imported.body }).toMatchObject({ status: 200 });
    expect((await opened.call("POST", "/api/admin/privasi/N007/batasi")).status).toBe(200);
    expect((await opened.call("POST", `/api/admin/model/${modelId}/nonaktifkan`)).status).toBe(200);
  });
});

describe("the red team's findings, as they were found", () => {
  test("one confirmation given for a one-time password erases no other student and deactivates no other admin within its minutes", async () => {
    const headers = await opened.confirmed("POST /api/admin/akun/mhs2/reset-password");
    const before = { state: state(), audit: opened.lastAuditId() };
    expect(await opened.call("POST", "/api/admin/privasi/N007/hapus", { body: { nim_konfirmasi: "N007" }, headers })).toMatchObject(needed);
    expect(await opened.call("POST", "/api/admin/akun/admin2/nonaktifkan", { headers })).toMatchObject(needed);
    expect(state()).toEqual(before.state);
    expect(opened.auditAfter(before.audit)).toEqual([]);
    expect((await opened.call("POST", "/api/admin/akun/mhs2/reset-password", { headers })).status).toBe(200);
  });

  test("a roster that resets passwords, confirmed: the accounts must replace them, and the audit rows name each account it opened", async () => {
    const before = opened.lastAuditId();
    const csv = "role,username,password,nim,activated\nadmin,admin2,sandi-daftar-2,,true\nmahasiswa,mhs7,sandi-daftar-7,N007,true\nadmin,admin5,sandi-admin-5,,true\n";
    const imported = await opened.confirmedCall("POST", "/api/admin/akun/impor", { rawBody: roster(csv, { reset_password: "ya" }) });
    expect(imported).toMatchObject({ status: 200, body: { counts: { created: 1, passwordsReset: 2 } } });
    expect(opened.auditAfter(before).map(({ action, nim, detail, target }) => ({ action, nim, detail, target }))).toEqual([
      { action: "accounts_import", nim: null, detail: "dibuat 1, diperbarui 2, tidak berubah 0, password diganti 2", target: "POST /api/admin/akun/impor" },
      { action: "password", nim: null, detail: "akun admin2: password dari daftar akun, harus diganti saat masuk; semua sesinya berakhir", target: "POST /api/admin/akun/impor" },
      { action: "password", nim: "N007", detail: "akun mhs7: password dari daftar akun, harus diganti saat masuk; semua sesinya berakhir", target: "POST /api/admin/akun/impor" },
      { action: "create", nim: null, detail: "akun admin5 (admin) dari daftar akun, aktif", target: "POST /api/admin/akun/impor" },
    ]);
    // The password the roster's author chose opens only the change of it.
    const signedIn = await opened.service.login("admin2", "sandi-daftar-2");
    expect(await opened.service.request("GET", "/api/admin/akun", { token: signedIn.access })).toMatchObject({ status: 403, body: { error: "Ganti password sementara Anda dahulu." } });
    expect((await opened.service.request("GET", "/api/auth/me", { token: signedIn.access })).body.must_change_password).toBe(true);
    expect((await opened.service.request("POST", "/api/auth/password", { token: signedIn.access, body: { old_password: "sandi-daftar-2", new_password: passwords.admin } })).status).toBe(200);
  });

  test("a new admin, refused without a confirmation, never reads a diary from the LAN", async () => {
    expect(await opened.call("POST", "/api/admin/akun", { body: { role: "admin", username: "admin6", password: "sandi-admin-6", activated: true } })).toMatchObject(needed);
    expect(await opened.service.request("POST", "/api/auth/login", { body: { username: "admin6", password: "sandi-admin-6" } })).toMatchObject({ status: 401 });
  });
});
