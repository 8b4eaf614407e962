import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelFeatures } from "../../src/models/classifier";
import { loadJsonModel } from "../../src/models/files";
import { CompiledModel } from "../../src/models/predict";
import { ModelRegistry } from "../../src/models/registry";
import { fallbackMotivationLevel, fallbackStressLevel } from "../../src/skrining/scoring";
import { TestService, runCli, temporaryDir } from "../helpers";
import { constantModel, originalDir } from "./support";

let service: TestService;
let admin: string;
let registry: ModelRegistry;
const chain: Record<"stress" | "motivasi", number> = { stress: 0, motivasi: 0 };

const accounts = `role,username,password,nim,nama,jurusan,angkatan,ipk,usia,gender,activated
admin,admin,admin-pass-1,,,,,,,,true
mahasiswa,mhs1,mhs-pass-1,N001,Mahasiswa Satu,D3 Sistem Informasi,2023,3.25,20,Perempuan,true
mahasiswa,mhs2,mhs-pass-2,N002,Mahasiswa Dua,D3 Sistem Informasi,2022,,,,true
`;

/** Answers that vary by item, so that a model has something to read. */
function jawaban(shift: number) {
  const answers: Record<string, unknown> = { freq_olahraga: "1-3 kali", durasi_tidur: "6-7 Jam" };
  for (let item = 1; item <= 40; item++) answers[`S${item}`] = ((item + shift) % 5) + 1;
  for (let item = 1; item <= 28; item++) answers[`M${item}`] = ((item * 3 + shift) % 7) + 1;
  return answers;
}

/** What modelFeatures() makes of N001's profile and these answers. */
function featuresOfN001(answers: Record<string, unknown>): ModelFeatures {
  const features: ModelFeatures = { IPK: 3.25, Usia: 20, Angkatan: 2023, Jurusan: "D3 Sistem Informasi", Gender: "Perempuan", freq_olahraga: "1-3 kali", durasi_tidur: "6-7 Jam" };
  for (const [key, value] of Object.entries(answers)) if (/^[SM]\d+$/.test(key)) features[key] = value as number;
  return features;
}

async function submit(nim: string, answers: Record<string, unknown>) {
  const response = await service.request("POST", "/api/mahasiswa/kuesioner", { token: admin, body: { NIM: nim, jawaban: answers } });
  expect(response.status).toBe(201);
  const stored = service.context.db.$client.query("SELECT stress_model_id, motivasi_model_id FROM riwayat_skrining WHERE Id_skrining = ?").get(response.body.Id_skrining) as {
    stress_model_id: number | null;
    motivasi_model_id: number | null;
  };
  return { body: response.body, stored };
}

const cli = (...args: string[]) => runCli(["--data", service.dataDir, "model", ...args]);

beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(accounts);
  admin = (await service.login("admin", "admin-pass-1")).access;
  registry = new ModelRegistry(service.context.db, service.context.writes, service.context.config.dataDir, service.context.config.modelsDir);
  chain.stress = (await registry.add({ type: "stress", file: join(originalDir, "model_chain_final.joblib"), activate: true })).record.id;
  chain.motivasi = (await registry.add({ type: "motivasi", file: join(originalDir, "model_chain_final.joblib"), activate: true })).record.id;
});
afterAll(() => service.close());

describe("questionnaire submissions with active models", () => {
  test("the active models decide both levels and are recorded with the screening", async () => {
    const model = loadJsonModel(join(service.dataDir, registry.get(chain.stress).filePath));
    for (const shift of [0, 1, 2]) {
      const answers = jawaban(shift);
      const [stress, motivasi] = model.predictRow(model.rowFromFeatures(featuresOfN001(answers)));
      const { body, stored } = await submit("N001", answers);
      expect(body).toMatchObject({ tingkat_stres: stress, tingkat_motivasi: motivasi });
      expect(stored).toEqual({ stress_model_id: chain.stress, motivasi_model_id: chain.motivasi });
    }
  });

  test("one file active for both types runs its forests once per submission", async () => {
    const predictions = spyOn(CompiledModel.prototype, "predictOutputs");
    try {
      await submit("N001", jawaban(4));
      expect(predictions).toHaveBeenCalledTimes(1);
    } finally {
      predictions.mockRestore();
    }
  });

  test("each screening keeps the probability the model gave its level; the record shows it", async () => {
    const model = loadJsonModel(join(service.dataDir, registry.get(chain.stress).filePath));
    const answers = jawaban(7);
    const [stress, motivasi] = model.predictOutputs(model.rowFromFeatures(featuresOfN001(answers)));
    const probabilityOf = (output: typeof stress, column: number) => output!.probabilities![model.classLabels(column).indexOf(output!.text)]!;
    const { body } = await submit("N001", answers);
    const row = service.context.db.$client.query("SELECT stress_probability, motivasi_probability FROM riwayat_skrining WHERE Id_skrining = ?").get(body.Id_skrining);
    expect(row).toEqual({ stress_probability: probabilityOf(stress, 0), motivasi_probability: probabilityOf(motivasi, 1) });
    // The level is the class with the largest probability, so the probability is at least a third.
    expect(probabilityOf(stress, 0)).toBeGreaterThanOrEqual(1 / 3);
    const latest = await service.request("GET", "/api/mahasiswa/hasil/N001", { token: admin });
    expect(latest.body).toMatchObject({ Id_skrining: body.Id_skrining, probabilitas_stres: probabilityOf(stress, 0), probabilitas_motivasi: probabilityOf(motivasi, 1) });
  });

  test("a student whose profile lacks IPK, Usia and Gender gets the thresholds, not a 500", async () => {
    const answers = jawaban(3);
    const { body, stored } = await submit("N002", answers);
    expect(stored).toEqual({ stress_model_id: null, motivasi_model_id: null });
    const probabilities = service.context.db.$client.query("SELECT stress_probability, motivasi_probability FROM riwayat_skrining WHERE Id_skrining = ?").get(body.Id_skrining);
    expect(probabilities).toEqual({ stress_probability: null, motivasi_probability: null });
    expect(body.tingkat_stres).toBe(fallbackStressLevel(body.score_stress));
    expect(body.tingkat_motivasi).toBe(fallbackMotivationLevel(body.score_sdi));
  });
});

describe("the CLI changes the running service's models", () => {
  const sources = temporaryDir("skrining-model-sources-");
  let constant = 0;
  let decided = 0;

  test("model add --activate switches the stress model at the next submission", async () => {
    const file = join(sources, "tinggi.json");
    writeFileSync(file, JSON.stringify(constantModel("Tinggi", "Rendah")));
    const added = await cli("add", "--type", "stress", "--file", file, "--activate");
    expect(added.stderr).toBe("");
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toMatch(/^\d+\n$/);
    constant = Number(added.stdout);

    const { body, stored } = await submit("N001", jawaban(4));
    decided = body.Id_skrining;
    expect(body.tingkat_stres).toBe("Tinggi");
    expect(stored).toEqual({ stress_model_id: constant, motivasi_model_id: chain.motivasi });

    const listed = await cli("list", "--json");
    const records = JSON.parse(listed.stdout) as { id: number; type: string; is_active: boolean; file_path: string }[];
    expect(records.map((record) => [record.id, record.type, record.is_active])).toEqual([
      [chain.stress, "stress", false],
      [chain.motivasi, "motivasi", true],
      [constant, "stress", true],
    ]);
  });

  test("model deactivate makes the next submission fall back to the thresholds", async () => {
    const result = await cli("deactivate", String(constant));
    expect(result).toMatchObject({ exitCode: 0, stderr: "" });
    const { body, stored } = await submit("N001", jawaban(5));
    expect(stored.stress_model_id).toBeNull();
    expect(body.tingkat_stres).toBe(fallbackStressLevel(body.score_stress));
  });

  test("model remove refuses a model screenings refer to, unless --force, which keeps the screenings' levels", async () => {
    const refused = await cli("remove", String(constant));
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.trim().split("\n")).toEqual([`skrining: model ${constant} dipakai oleh 1 skrining; gunakan --force untuk tetap menghapus (rujukan skrining menjadi kosong)`]);

    const forced = await cli("remove", String(constant), "--force");
    expect(forced).toMatchObject({ exitCode: 0, stderr: "" });
    const row = service.context.db.$client.query("SELECT tingkat_stres, stress_model_id, motivasi_model_id FROM riwayat_skrining WHERE Id_skrining = ?").get(decided);
    expect(row).toEqual({ tingkat_stres: "Tinggi", stress_model_id: null, motivasi_model_id: chain.motivasi });
    expect(() => registry.get(constant)).toThrow("tidak ditemukan");
  });

  test("model activate brings a model back; a bad id is a one-line usage error", async () => {
    const activated = await cli("activate", String(chain.stress));
    expect(activated).toMatchObject({ exitCode: 0, stderr: "", stdout: `Model ${chain.stress} (stress) aktif.\n` });
    const { stored } = await submit("N001", jawaban(6));
    expect(stored).toEqual({ stress_model_id: chain.stress, motivasi_model_id: chain.motivasi });

    const bad = await cli("activate", "satu");
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain("id model harus bilangan bulat positif");
  });
});

describe("the model commands as a person types them", () => {
  const sources = temporaryDir("skrining-model-typed-");
  test("--type in any case; model list fits 100 columns, a long value over more lines of its column, with the local time", async () => {
    const file = join(sources, "panjang.json");
    const long = { ...constantModel("Sedang", "Sedang"), algorithm: `ColumnTransformer → ${"ClassifierChain(RandomForestClassifier) ".repeat(3)}`, version: "scikit-learn 1.6.1 dengan catatan versi yang panjang sekali" };
    writeFileSync(file, JSON.stringify(long));
    const added = await cli("add", "--type", "STRESS", "--file", file);
    expect(added).toMatchObject({ exitCode: 0, stderr: "" });
    const id = Number(added.stdout);

    const listed = await cli("list");
    expect(listed.exitCode).toBe(0);
    const lines = listed.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+JENIS\s+AKTIF\s+DIBUAT\s+ALGORITMA\s+VERSI\s+FILE$/);
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(100);
    const row = lines.find((line) => line.startsWith(`${id} `))!;
    expect(row).toContain("stress");
    expect(row).toContain("ColumnTransformer");
    // Nothing is cut: the long version goes on over the lines after the row's first.
    expect(listed.stdout).not.toContain("…");
    const after = lines.slice(lines.indexOf(row));
    const versionColumn = (line: string) => line.slice(lines[0]!.indexOf("VERSI"), lines[0]!.indexOf("FILE")).trim();
    expect(after.map(versionColumn).filter(Boolean).join(" ")).toStartWith(long.version);
    // The time is the faculty's (WIB), to the minute.
    const record = (JSON.parse((await cli("list", "--json")).stdout) as { id: number; created_at: string }[]).find((each) => each.id === id)!;
    const wib = new Date(Date.parse(record.created_at) + 7 * 3600 * 1000).toISOString().slice(0, 16).replace("T", " ");
    expect(row).toContain(wib);

    const refused = await cli("add", "--type", "stres", "--file", file);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("pilih salah satu dari stress, motivasi");
  });

  test("model predict reads a spreadsheet's UTF-16 file with ';' and decimal commas", async () => {
    const file = join(sources, "konstan-utf16.json");
    writeFileSync(file, JSON.stringify(constantModel("Sedang", "Rendah")));
    const input = join(sources, "baris-utf16.csv");
    writeFileSync(input, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("NIM;S1\r\n2301001;3,5\r\n", "utf16le")]));
    const result = await runCli(["model", "predict", "--file", file, "--input", input]);
    expect(result).toMatchObject({ exitCode: 0, stderr: "", stdout: "NIM,stress,motivasi\n2301001,Sedang,Rendah\n" });
  });

  test("model predict --out keeps an existing file unless --force", async () => {
    const file = join(sources, "konstan.json");
    writeFileSync(file, JSON.stringify(constantModel("Rendah", "Tinggi")));
    const input = join(sources, "baris.csv");
    writeFileSync(input, "id,S1\nA,3\n");
    const out = join(sources, "hasil.csv");
    writeFileSync(out, "hasil lama\n");
    const refused = await runCli(["model", "predict", "--file", file, "--input", input, "--out", out]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("--force");
    expect(readFileSync(out, "utf8")).toBe("hasil lama\n");
    const forced = await runCli(["model", "predict", "--file", file, "--input", input, "--out", out, "--force"]);
    expect(forced).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
    expect(readFileSync(out, "utf8")).toBe("id,stress,motivasi\nA,Rendah,Tinggi\n");
  });
});
