import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { jawaban, passwords, runCli } from "../helpers";
import { consoleService } from "./support";

// "Permintaan data pribadi": for one NIM, the dry run of erasure first, the export as a
// download, restriction and its end, and erasure confirmed by the NIM typed again and the
// password; the rows are those of `skrining privacy ...`.

let opened: Awaited<ReturnType<typeof consoleService>>;
beforeAll(async () => {
  opened = await consoleService();
  const mhs1 = (await opened.service.login("mhs1", passwords.mhs1)).access;
  expect((await opened.service.request("POST", "/api/mahasiswa/kuesioner", { token: mhs1, body: { jawaban: jawaban(3, 4) } })).status).toBe(201);
  expect((await opened.service.request("POST", "/api/mahasiswa/diary", { token: mhs1, body: { date: "2026-11-02", title: "Catatan", content: "Isi jurnal rahasia." } })).status).toBe(201);
});
afterAll(() => opened.service.close());

const what = (row: { action: string; nim: string | null; detail: string | null }) => ({ action: row.action, nim: row.nim, detail: row.detail });

describe("one student", () => {
  test("shows the name, the restriction and what erasure would remove, writing nothing", async () => {
    const before = opened.lastAuditId();
    const answer = await opened.call("GET", "/api/admin/privasi/N001");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ nim: "N001", nama: "Mahasiswa Satu", dibatasi_sejak: null, hapus: { nim: "N001", files: [] } });
    expect(answer.body.hapus.rows).toMatchObject({ riwayat_skrining: 1, diary_entries: 1, mahasiswa: 1, users: 1 });
    expect(opened.auditAfter(before)).toEqual([]);
    expect(await opened.call("GET", "/api/admin/privasi/N404")).toMatchObject({ status: 404, body: { error: 'Mahasiswa dengan NIM "N404" tidak ditemukan.' } });
  });

  test("the export downloads the archive of privacy export, its row written first", async () => {
    const before = opened.lastAuditId();
    const response = await opened.service.app.handle(
      new Request("http://localhost/api/admin/privasi/N001/ekspor", { headers: { authorization: `Bearer ${opened.admin}` } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="data-saya-N001-\d{4}-\d{2}-\d{2}\.tar\.gz"$/);
    const tar = gunzipSync(new Uint8Array(await response.arrayBuffer())).toString("latin1");
    expect(tar).toContain("data-saya-N001/data-saya.json");
    expect(tar).toContain("Isi jurnal rahasia.");
    expect(opened.auditAfter(before).map(what)).toEqual([{ action: "privacy", nim: "N001", detail: "ekspor data-saya (1 file dalam arsip)" }]);
    expect(opened.auditAfter(before)[0]).toMatchObject({ actor_role: "admin", target: "GET /api/admin/privasi/:nim/ekspor" });
  });

  test("the export as one JSON file (issue 44, item 14): the document of privacy export without the photo, its own row first", async () => {
    const before = opened.lastAuditId();
    const response = await opened.service.app.handle(
      new Request("http://localhost/api/admin/privasi/N001/ekspor/json", { headers: { authorization: `Bearer ${opened.admin}` } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="data-saya-N001-\d{4}-\d{2}-\d{2}\.json"$/);
    const document = (await response.json()) as { profil: { nim: string }; jurnal: unknown[] };
    expect(document.profil.nim).toBe("N001");
    expect(JSON.stringify(document.jurnal)).toContain("Isi jurnal rahasia.");
    expect(opened.auditAfter(before).map(what)).toEqual([{ action: "privacy", nim: "N001", detail: "ekspor data-saya (data-saya.json, tanpa foto)" }]);
    expect(opened.auditAfter(before)[0]).toMatchObject({ actor_role: "admin", target: "GET /api/admin/privasi/:nim/ekspor/json" });
    const unknown = await opened.call("GET", "/api/admin/privasi/N404/ekspor/json");
    expect(unknown).toMatchObject({ status: 404, body: { error: 'Mahasiswa dengan NIM "N404" tidak ditemukan.' } });
  });

  test("restriction and its end (confirmed with the password: decisions §21), refused when there is nothing to change, with the command's rows", async () => {
    const before = opened.lastAuditId();
    const restricted = await opened.call("POST", "/api/admin/privasi/N002/batasi");
    expect(restricted.status).toBe(200);
    expect((await opened.call("GET", "/api/admin/privasi/N002")).body.dibatasi_sejak).toBeString();
    expect((await opened.call("POST", "/api/admin/privasi/N002/batasi")).status).toBe(400);
    expect(await opened.call("POST", "/api/admin/privasi/N002/akhiri-pembatasan")).toMatchObject({ status: 403, body: { konfirmasi_diperlukan: true } });
    expect((await opened.call("GET", "/api/admin/privasi/N002")).body.dibatasi_sejak).toBeString();
    expect((await opened.confirmedCall("POST", "/api/admin/privasi/N002/akhiri-pembatasan")).status).toBe(200);
    expect(await opened.confirmedCall("POST", "/api/admin/privasi/N002/akhiri-pembatasan")).toMatchObject({ status: 400, body: { error: "Pemrosesan data mahasiswa N002 tidak sedang dibatasi; tidak ada yang diubah." } });
    const rows = opened.auditAfter(before);
    expect(rows.map((row) => row.action)).toEqual(["privacy", "privacy"]);
    expect(rows[0]!.detail).toStartWith("dibatasi_sejak=");
    expect(rows[1]!.detail).toEndWith(" berakhir");
  });
});

describe("erasure", () => {
  test("needs the NIM typed again, then the confirmation; a wrong NIM or none changes nothing", async () => {
    const before = opened.lastAuditId();
    const headers = await opened.confirmed("POST /api/admin/privasi/N001/hapus");
    expect(await opened.call("POST", "/api/admin/privasi/N001/hapus", { body: {}, headers })).toMatchObject({ status: 400, body: { error: "Ketik NIM N001 sekali lagi untuk mengonfirmasi penghapusan." } });
    expect((await opened.call("POST", "/api/admin/privasi/N001/hapus", { body: { nim_konfirmasi: "N002" }, headers })).status).toBe(400);
    expect(await opened.call("POST", "/api/admin/privasi/N001/hapus", { body: { nim_konfirmasi: "N001" } })).toMatchObject({ status: 403, body: { konfirmasi_diperlukan: true } });
    expect(opened.auditAfter(before)).toEqual([]);
    expect((await opened.call("GET", "/api/admin/privasi/N001")).status).toBe(200);
  });

  test("confirmed, it removes what the dry run listed, with the command's row; the student is gone", async () => {
    const plan = (await opened.call("GET", "/api/admin/privasi/N001")).body.hapus;
    const before = opened.lastAuditId();
    const erased = await opened.confirmedCall("POST", "/api/admin/privasi/N001/hapus", { body: { nim_konfirmasi: " N001 " } });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ baris: plan.rows, file: plan.files, file_gagal_dihapus: [] });
    const [row] = opened.auditAfter(before);
    expect(row).toMatchObject({ action: "privacy", nim: "N001", target: "POST /api/admin/privasi/:nim/hapus" });
    expect(await opened.call("GET", "/api/admin/privasi/N001")).toMatchObject({ status: 404 });
    expect((await opened.service.request("POST", "/api/auth/login", { body: { username: "mhs1", password: passwords.mhs1 } })).status).toBe(401);
    // The command leaves a row of the same form.
    await runCli(["--data", opened.service.dataDir, "privacy", "erase", "--nim", "N002"]);
    const [, fromCli] = opened.auditAfter(before).filter((each) => each.action === "privacy");
    expect(fromCli!.detail!.split(" ").map((part) => part.split("=")[0])).toEqual(row!.detail!.split(" ").map((part) => part.split("=")[0]));
  });
});
