import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestService, runCli, temporaryDir } from "../helpers";

/**
 * A model per output: one file for stress and one for motivasi, each checked with
 * `model predict --type` before `model add --type ... --activate`, and then deciding the
 * questionnaire's levels with their probabilities kept.
 */

const fixtures = join(import.meta.dir, "fixtures", "sklearn-1.9");
const stressFile = join(fixtures, "lr_binary_stress.joblib");
const motivasiFile = join(fixtures, "nb_imputed_motivasi.pkl");
const rows = join(fixtures, "rows.csv");
const expected = (name: string) => readFileSync(join(fixtures, `expected_${name}.csv`), "utf8");

let service: TestService;
let admin: string;
const cli = (...args: string[]) => runCli(["--data", service.dataDir, "model", ...args]);

beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(`role,username,password,nim,nama,jurusan,angkatan,ipk,usia,gender,activated
admin,admin,admin-pass-1,,,,,,,,true
mahasiswa,mhs1,mhs-pass-1,N001,Mahasiswa Satu,S1 Informatika,2023,3.25,20,Perempuan,true
`);
  admin = (await service.login("admin", "admin-pass-1")).access;
});
afterAll(() => service.close());

describe("a model per output", () => {
  test("model predict refuses a one-output file without --type, and checks it with --type", async () => {
    const refused = await cli("predict", "--file", stressFile, "--input", rows);
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.trim()).toBe("skrining: model ini memprediksi satu keluaran; sebutkan --type stress atau --type motivasi");

    const labels = await cli("predict", "--file", stressFile, "--input", rows, "--type", "stress");
    expect(labels).toMatchObject({ exitCode: 0, stderr: "" });
    expect(labels.stdout).toBe(expected("lr_binary_stress").split("\n").map((line) => line.split(",")[0]).join("\n"));
  });

  test("--proba writes each class's probability after the labels", async () => {
    const dir = temporaryDir("skrining-per-output-");
    const out = join(dir, "motivasi.csv");
    const written = await cli("predict", "--file", motivasiFile, "--input", rows, "--type", "motivasi", "--proba", "--out", out);
    expect(written).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
    const [header, first] = readFileSync(out, "utf8").split("\n");
    expect(header).toBe("motivasi,proba_motivasi_Rendah,proba_motivasi_Sedang,proba_motivasi_Tinggi");
    const cells = first!.split(",");
    expect(["Rendah", "Sedang", "Tinggi"]).toContain(cells[0]!);
    const probabilities = cells.slice(1).map(Number);
    expect(probabilities.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 12);
    expect(probabilities[["Rendah", "Sedang", "Tinggi"].indexOf(cells[0]!)]).toBe(Math.max(...probabilities));
  });

  test("--type picks one column of a two-output file", async () => {
    const both = join(fixtures, "gradient_boosting.joblib");
    const result = await cli("predict", "--file", both, "--input", rows, "--type", "motivasi");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(expected("gradient_boosting").split("\n").map((line) => line.split(",")[1] ?? "").join("\n"));
  });

  test("added as stress and as motivasi, the two files decide a submission, each with its probability", async () => {
    const stress = await cli("add", "--type", "stress", "--file", stressFile, "--activate");
    const motivasi = await cli("add", "--type", "motivasi", "--file", motivasiFile, "--activate");
    expect([stress.exitCode, motivasi.exitCode, stress.stderr, motivasi.stderr]).toEqual([0, 0, "", ""]);
    const answers: Record<string, unknown> = { freq_olahraga: "Setiap hari", durasi_tidur: "5-7 Jam" };
    for (let item = 1; item <= 40; item++) answers[`S${item}`] = 5;
    for (let item = 1; item <= 28; item++) answers[`M${item}`] = 6;
    const response = await service.request("POST", "/api/mahasiswa/kuesioner", { token: admin, body: { NIM: "N001", jawaban: answers } });
    expect(response.status).toBe(201);
    const stored = service.context.db.$client
      .query("SELECT tingkat_stres, stress_model_id, stress_probability, motivasi_model_id, motivasi_probability FROM riwayat_skrining WHERE Id_skrining = ?")
      .get(response.body.Id_skrining) as Record<string, number | string | null>;
    // The binary stress model answers Rendah or Tinggi, never Sedang; high answers are Tinggi.
    expect(stored).toMatchObject({ tingkat_stres: "Tinggi", stress_model_id: Number(stress.stdout), motivasi_model_id: Number(motivasi.stdout) });
    expect(stored.stress_probability).toBeGreaterThan(0.5);
    expect(stored.motivasi_probability).toBeGreaterThan(1 / 3);
  });

  test("a one-output file whose classes are not levels cannot become a model", async () => {
    const dir = temporaryDir("skrining-per-output-");
    const document = { format: "skrining-model", format_version: 1, algorithm: "uji", version: "uji", inputs: [{ name: "S1", type: "number" }], preprocess: null, label_map: null };
    const file = join(dir, "angka.json");
    const tree = { left: [-1], right: [-1], feature: [-2], threshold: [-2], value: [1, 0] };
    writeFileSync(file, JSON.stringify({ ...document, estimator: { kind: "decision_tree", n_features: 1, outputs: [{ type: "int", values: [0, 1] }], value_kind: "fractions", tree } }));
    const refused = await cli("add", "--type", "motivasi", "--file", file);
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stderr.trim()).toBe("skrining: keluaran motivasi (kolom 0) model ini bukan Rendah/Sedang/Tinggi: 0, 1");
  });
});
