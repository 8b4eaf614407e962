import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { stringifyModelDocument } from "../../src/models/format";
import { runCli } from "../helpers";
import { constantModel, originalDir } from "../models/support";
import { consoleService, form } from "./support";

// "Model": uploads converted and checked as `model add` does, a try on a sample CSV,
// activation behind the confirmation, deactivation and removal, each with its `model` row.

let opened: Awaited<ReturnType<typeof consoleService>>;
beforeAll(async () => {
  opened = await consoleService({ SKRINING_MODEL_LIMIT: String(2 * 1024 * 1024) });
});
afterAll(() => opened.service.close());

const upload = (name: string, bytes: Uint8Array | string, fields: Record<string, string>) => form({ field: "berkas", name, bytes }, fields);
const constant = (stress: "Rendah" | "Sedang" | "Tinggi", motivasi: "Rendah" | "Sedang" | "Tinggi") => stringifyModelDocument(constantModel(stress, motivasi));
const modelFiles = () => readdirSync(opened.service.context.config.modelsDir).sort();
const what = (row: { action: string; detail: string | null }) => ({ action: row.action, detail: row.detail?.replace(/; sha256 [0-9a-f]+$/, "") });

describe("an upload", () => {
  test("a joblib bundle is converted and recorded, inactive, with the command's row", async () => {
    const before = opened.lastAuditId();
    const answer = await opened.call("POST", "/api/admin/model", { rawBody: upload("model_chain_final.joblib", new Uint8Array(readFileSync(join(originalDir, "model_chain_final.joblib"))), { jenis: "stress" }) });
    expect(answer.status).toBe(201);
    expect(answer.body.model).toMatchObject({ type: "stress", is_active: false, version: "scikit-learn 1.6.1" });
    expect(answer.body.model.algorithm).toContain("ClassifierChain");
    const id = answer.body.model.id as number;
    expect(opened.auditAfter(before).map(what)).toEqual([{ action: "model", detail: `model ${id} (stress) ditambahkan` }]);
    const listed = await opened.call("GET", "/api/admin/model");
    expect(listed.body.map((model: { id: number }) => model.id)).toContain(id);
  });

  test("activating at upload needs the confirmation; with it the model is active at once", async () => {
    const fields = { jenis: "motivasi", aktifkan: "ya" };
    const files = modelFiles();
    expect((await opened.call("POST", "/api/admin/model", { rawBody: upload("tinggi.json", constant("Tinggi", "Tinggi"), fields) })).status).toBe(403);
    expect(modelFiles()).toEqual(files);
    const answer = await opened.confirmedCall("POST", "/api/admin/model", { rawBody: upload("tinggi.json", constant("Tinggi", "Tinggi"), fields) });
    expect(answer).toMatchObject({ status: 201, body: { model: { type: "motivasi", is_active: true } } });
  });

  test("a file that cannot serve, a missing file or type, and a file over the limit are refused; nothing is stored", async () => {
    const before = { files: modelFiles(), records: (await opened.call("GET", "/api/admin/model")).body.length, audit: opened.lastAuditId() };
    const cases: [FormData, number, string][] = [
      [upload("rusak.joblib", new Uint8Array([0x80, 4, 0x95, 1, 2, 3]), { jenis: "stress" }), 400, "file terpotong"],
      // Issue 44, item 13: what was wrong, then what to do about it.
      [upload("catatan.txt", new TextEncoder().encode("bukan model"), { jenis: "stress" }), 400, "catatan.txt tidak dapat dipakai: bukan file joblib/pickle. Unggah model yang disimpan dengan joblib.dump dari scikit-learn seperti di docs/models.md"],
      [upload("setengah.json", constant("Rendah", "Rendah").slice(0, 80), { jenis: "stress" }), 400, "setengah.json tidak dapat dipakai: model JSON tidak dapat dibaca"],
      [upload("model.json", constant("Rendah", "Rendah"), { jenis: "suasana" }), 400, "Jenis model harus stress atau motivasi."],
      [form(null, { jenis: "stress" }), 400, "Pilih file model (.joblib atau .json)."],
      [upload("besar.json", " ".repeat(2 * 1024 * 1024 + 1) + constant("Rendah", "Rendah"), { jenis: "stress" }), 413, "Ukuran file melebihi batas 2 MB. Pilih file yang lebih kecil, atau pakai perintah skrining di PC server untuk file sebesar ini."],
    ];
    for (const [body, status, error] of cases) {
      const answer = await opened.call("POST", "/api/admin/model", { rawBody: body });
      expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { error: expect.stringContaining(error) } });
    }
    expect({ files: modelFiles(), records: (await opened.call("GET", "/api/admin/model")).body.length, audit: opened.lastAuditId() }).toEqual(before);
  });
});

describe("a try on a sample CSV", () => {
  test("predicts every row, as model predict does, and shows the table and the CSV", async () => {
    const added = await opened.call("POST", "/api/admin/model", { rawBody: upload("sedang.json", constant("Sedang", "Rendah"), { jenis: "stress" }) });
    const sample = "NIM;S1\n2301001;3\n2301002;5\n";
    const answer = await opened.call("POST", "/api/admin/model/coba", { rawBody: form({ field: "berkas", name: "contoh.csv", bytes: sample }, { model: String(added.body.model.id) }) });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ kolom: ["NIM", "stress", "motivasi"], baris: [["2301001", "Sedang", "Rendah"], ["2301002", "Sedang", "Rendah"]], jumlah: 2 });
    expect(answer.body.csv).toStartWith("NIM,stress,motivasi");
  });

  test("a CSV without the model's inputs names what is missing; an unknown model is 400", async () => {
    const id = (await opened.call("GET", "/api/admin/model")).body[0].id;
    const missing = await opened.call("POST", "/api/admin/model/coba", { rawBody: form({ field: "berkas", name: "contoh.csv", bytes: "NIM,X\n1,2\n" }, { model: String(id) }) });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain("kolom masukan model tidak ada");
    expect((await opened.call("POST", "/api/admin/model/coba", { rawBody: form({ field: "berkas", name: "contoh.csv", bytes: "S1\n1\n" }, { model: "999" }) })).body.error).toBe("model 999 tidak ditemukan");
    expect((await opened.call("POST", "/api/admin/model/coba", { rawBody: form(null, { model: String(id) }) })).body.error).toBe("Pilih file CSV contoh.");
  });
});

describe("activation, deactivation, removal", () => {
  test("each leaves the command's row; activation and removal need the confirmation", async () => {
    const id = (await opened.call("POST", "/api/admin/model", { rawBody: upload("rendah.json", constant("Rendah", "Rendah"), { jenis: "stress" }) })).body.model.id as number;
    const before = opened.lastAuditId();
    expect((await opened.call("POST", `/api/admin/model/${id}/aktifkan`)).status).toBe(403);
    expect(await opened.confirmedCall("POST", `/api/admin/model/${id}/aktifkan`)).toMatchObject({ status: 200 });
    const active = (await opened.call("GET", "/api/admin/model")).body.filter((model: { is_active: boolean; type: string }) => model.is_active && model.type === "stress");
    expect(active.map((model: { id: number }) => model.id)).toEqual([id]);
    expect((await opened.confirmedCall("DELETE", `/api/admin/model/${id}`)).body.error).toContain("sedang aktif");
    expect(await opened.call("POST", `/api/admin/model/${id}/nonaktifkan`)).toMatchObject({ status: 200 });
    expect((await opened.call("DELETE", `/api/admin/model/${id}`)).status).toBe(403);
    expect(await opened.confirmedCall("DELETE", `/api/admin/model/${id}`)).toMatchObject({ status: 200 });
    expect(opened.auditAfter(before).map(what)).toEqual([
      { action: "model", detail: `model ${id} (stress) diaktifkan` },
      { action: "model", detail: `model ${id} (stress) dinonaktifkan` },
      { action: "model", detail: `model ${id} (stress) dihapus` },
    ]);
    // The command's rows say the same.
    const cliAdded = await runCli(["--data", opened.service.dataDir, "model", "add", "--type", "stress", "--file", join(originalDir, "model_v1.joblib")]);
    const cliId = Number(cliAdded.stdout.trim());
    await runCli(["--data", opened.service.dataDir, "model", "activate", String(cliId)]);
    expect(opened.auditAfter(before).slice(3).map(what)).toEqual([
      { action: "model", detail: `model ${cliId} (stress) ditambahkan` },
      { action: "model", detail: `model ${cliId} (stress) diaktifkan` },
    ]);
  });

  test("an id that names no model is 400 with the command's words", async () => {
    for (const [method, path] of [["POST", "/api/admin/model/4242/aktifkan"], ["POST", "/api/admin/model/abc/nonaktifkan"], ["DELETE", "/api/admin/model/4242"]] as const) {
      const answer = await opened.confirmedCall(method, path);
      expect({ path, status: answer.status, error: answer.body.error }).toEqual({ path, status: 400, error: `model ${path.split("/")[4]} tidak ditemukan` });
    }
  });
});
