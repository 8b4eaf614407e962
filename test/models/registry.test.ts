import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, type Config } from "../../src/config";
import { openDatabase, type DatabaseClient } from "../../src/db";
import { WriteQueue } from "../../src/db/write-queue";
import type { ModelFeatures } from "../../src/models/classifier";
import { parseModelJson, type ModelDocument } from "../../src/models/format";
import { ModelRegistry, ModelRegistryError, RegistryClassifier, activeModelQuery } from "../../src/models/registry";
import { temporaryDir, testEnvironment } from "../helpers";
import { constantModel, originalDir, sklearnDir } from "./support";

let config: Config;
let db: DatabaseClient;
let registry: ModelRegistry;
const sources = temporaryDir("skrining-model-sources-");

function writeDocument(name: string, document: ModelDocument): string {
  const path = join(sources, name);
  writeFileSync(path, JSON.stringify(document, null, 2));
  return path;
}

/** A single-output model: one class list, answering `level` for whichever type it is added as. */
function singleOutput(level: "Rendah" | "Sedang" | "Tinggi"): ModelDocument {
  const document = constantModel(level, level);
  const estimator = document.estimator as Extract<ModelDocument["estimator"], { kind: "multi_output" }>;
  return { ...document, estimator: estimator.estimators[0]! };
}

const answers: ModelFeatures = {};
for (let item = 1; item <= 40; item++) answers[`S${item}`] = 3;
for (let item = 1; item <= 28; item++) answers[`M${item}`] = 5;
const features: ModelFeatures = { ...answers, IPK: 3.2, Usia: 20, Angkatan: 2023, Jurusan: "D3 Sistem Informasi", Gender: "Perempuan", freq_olahraga: "1-3 kali", durasi_tidur: "6-7 Jam" };

const activeIds = () =>
  (db.$client.query("SELECT type, id FROM prediction_models WHERE is_active = 1 ORDER BY type").all() as { type: string; id: number }[]).map((row) => `${row.type}:${row.id}`);
const modelFiles = () => readdirSync(config.modelsDir).sort();

beforeAll(() => {
  config = loadConfig(temporaryDir(), testEnvironment);
  db = openDatabase(config.databasePath);
  registry = new ModelRegistry(db, new WriteQueue(db.$client, { busyWaitMilliseconds: 1000 }), config.dataDir, config.modelsDir);
});
afterAll(() => {
  db.$client.close();
  rmSync(config.dataDir, { recursive: true, force: true });
  rmSync(sources, { recursive: true, force: true });
});

describe("model add", () => {
  test("a JSON model is checked, copied into models/ and recorded with its sha256", async () => {
    const path = writeDocument("tinggi-rendah.json", constantModel("Tinggi", "Rendah"));
    const { record } = await registry.add({ type: "stress", file: path });
    expect(record).toMatchObject({ type: "stress", isActive: false, algorithm: "constant Tinggi/Rendah", version: "test 1", thresholds: null, metrics: null, categories: null });
    expect(record.inputFeatures).toEqual([{ name: "S1", type: "number" }]);
    expect(record.sourceSha256).toBe(createHash("sha256").update(readFileSync(path)).digest("hex"));
    expect(record.filePath).toMatch(/^models\/stress-\d+-[0-9a-f]{8}\.json$/);
    expect(parseModelJson(readFileSync(join(config.dataDir, record.filePath), "utf8"))).toEqual(constantModel("Tinggi", "Rendah"));
  });

  test("a joblib bundle is converted; thresholds, categories and metrics are recorded", async () => {
    // Its speed (2 s for the whole command) is measured by `npm run bench`, not here.
    const { record } = await registry.add({ type: "stress", file: join(originalDir, "model_chain_final.joblib") });
    expect(record.algorithm).toContain("ClassifierChain");
    expect(record.version).toBe("scikit-learn 1.6.1");
    expect(record.thresholds).toEqual({ bins_stress: expect.any(Array), bins_motivasi: expect.any(Array) });
    expect(Object.keys(record.categories as object)).toEqual(["Jurusan", "Gender", "freq_olahraga", "durasi_tidur"]);
    expect(record.sourceSha256).toBe("138d41f72e6151eabfcfe3d2410202cee687546d6ef0b3dabc7a2045dcc43b77");
    const stored = readFileSync(join(config.dataDir, record.filePath), "utf8");
    expect(stored.startsWith("{")).toBe(true);
    expect(parseModelJson(stored).label_map).toEqual([[0, "Rendah"], [1, "Sedang"], [2, "Tinggi"]]);

    const v11 = (await registry.add({ type: "motivasi", file: join(originalDir, "model_V11.joblib") })).record;
    expect(v11.metrics).toEqual({ cv_macro_f1: expect.any(Number) });
    expect(v11.thresholds).toBeNull();
  });

  test("files that cannot serve are refused and nothing is written", async () => {
    const before = { records: registry.list().length, files: modelFiles() };
    const garbage = join(sources, "garbage.joblib");
    writeFileSync(garbage, Uint8Array.of(0x80, 4, 0x95, 1, 2, 3));
    const halfJson = join(sources, "half.json");
    writeFileSync(halfJson, JSON.stringify(constantModel("Rendah", "Rendah")).slice(0, 100));
    const cases: [string, string][] = [
      [join(sklearnDir, "g_bare_pipeline.joblib"), "bukan Rendah/Sedang/Tinggi: 0, 1, 2"],
      [garbage, "file terpotong"],
      [halfJson, "model JSON tidak dapat dibaca"],
      [join(sources, "missing.json"), "ENOENT"],
    ];
    for (const [file, message] of cases) await expect(registry.add({ type: "stress", file })).rejects.toThrow(message);
    expect(registry.list()).toHaveLength(before.records);
    expect(modelFiles()).toEqual(before.files);
  });
});

describe("activation", () => {
  test("at most one active model per type; activating another switches in one step", async () => {
    const first = (await registry.add({ type: "stress", file: writeDocument("a.json", constantModel("Rendah", "Rendah")), activate: true })).record;
    const second = (await registry.add({ type: "stress", file: writeDocument("b.json", constantModel("Sedang", "Sedang")) })).record;
    const motivasi = (await registry.add({ type: "motivasi", file: writeDocument("c.json", constantModel("Tinggi", "Tinggi")), activate: true })).record;
    expect(activeIds()).toEqual([`motivasi:${motivasi.id}`, `stress:${first.id}`]);
    await registry.activate(second.id);
    expect(activeIds()).toEqual([`motivasi:${motivasi.id}`, `stress:${second.id}`]);
    // Activating the active one again changes nothing.
    await registry.activate(second.id);
    expect(activeIds()).toEqual([`motivasi:${motivasi.id}`, `stress:${second.id}`]);
    await registry.deactivate(motivasi.id);
    expect(activeIds()).toEqual([`stress:${second.id}`]);
  });

  test("the database itself refuses a second active model of a type", async () => {
    const [active] = activeIds();
    expect(active).toStartWith("stress:");
    expect(() =>
      db.$client.run("INSERT INTO prediction_models (type, file_path, is_active, algorithm, version, input_features, source_sha256) VALUES ('stress', 'models/x.json', 1, 'x', '1', '[]', 'x')"),
    ).toThrow("UNIQUE");
  });

  test("unknown ids and unloadable files are refused; the active model stays", async () => {
    const before = activeIds();
    await expect(registry.activate(9999)).rejects.toThrow("model 9999 tidak ditemukan");
    await expect(registry.deactivate(9999)).rejects.toThrow(ModelRegistryError);
    const broken = (await registry.add({ type: "stress", file: writeDocument("broken.json", constantModel("Tinggi", "Tinggi")) })).record;
    writeFileSync(join(config.dataDir, broken.filePath), "{}");
    await expect(registry.activate(broken.id)).rejects.toThrow(`model ${broken.id} tidak dapat dimuat`);
    expect(activeIds()).toEqual(before);
  });

  test("the classifier's query for the active model is an index search", async () => {
    const { sql: query } = activeModelQuery(db).toSQL();
    // Finalised at once: bun:sqlite leaves an EXPLAIN statement open, holding a read snapshot.
    const statement = db.$client.prepare(`EXPLAIN QUERY PLAN ${query}`);
    const plan = (statement.all("stress") as { detail: string }[]).map((row) => row.detail);
    statement.finalize();
    expect(plan).toEqual([expect.stringMatching(/^SEARCH prediction_models USING INDEX prediction_models_one_active_index \(type=\?\)/)]);
  });
});

describe("model remove", () => {
  test("an active model cannot be removed; an inactive one goes with its file", async () => {
    const record = (await registry.add({ type: "motivasi", file: writeDocument("d.json", constantModel("Sedang", "Rendah")), activate: true })).record;
    await expect(registry.remove(record.id)).rejects.toThrow("sedang aktif");
    await registry.deactivate(record.id);
    const path = join(config.dataDir, record.filePath);
    expect(existsSync(path)).toBe(true);
    expect(await registry.remove(record.id)).toMatchObject({ screenings: 0 });
    expect(existsSync(path)).toBe(false);
    expect(() => registry.get(record.id)).toThrow("tidak ditemukan");
    await expect(registry.remove(record.id)).rejects.toThrow("tidak ditemukan");
  });
});

describe("the registry classifier", () => {
  const fresh = () => new RegistryClassifier(db, config.dataDir);

  async function clearActive() {
    for (const record of registry.list()) if (record.isActive) await registry.deactivate(record.id);
  }

  test("no active model: null, so the questionnaire uses its thresholds", async () => {
    await clearActive();
    const classifier = fresh();
    expect(classifier.classify("stress", features)).toBeNull();
    expect(classifier.classify("motivasi", features)).toBeNull();
  });

  test("a two-output model answers stress from column 0 and motivasi from column 1; a one-output model its only column", async () => {
    await clearActive();
    const two = (await registry.add({ type: "stress", file: writeDocument("two.json", constantModel("Tinggi", "Rendah")), activate: true })).record;
    const twoAsMotivasi = (await registry.add({ type: "motivasi", file: writeDocument("two.json", constantModel("Tinggi", "Rendah")), activate: true })).record;
    const classifier = fresh();
    expect(classifier.classify("stress", features)).toEqual({ level: "Tinggi", modelId: two.id, probability: 1 });
    expect(classifier.classify("motivasi", features)).toEqual({ level: "Rendah", modelId: twoAsMotivasi.id, probability: 1 });
    const one = (await registry.add({ type: "motivasi", file: writeDocument("one.json", singleOutput("Sedang")), activate: true })).record;
    expect(classifier.classify("motivasi", features)).toEqual({ level: "Sedang", modelId: one.id, probability: 1 });
  });

  test("a real bundle classifies the questionnaire's features; a missing profile number makes it fail", async () => {
    await clearActive();
    const record = (await registry.add({ type: "stress", file: join(originalDir, "model_v1.joblib"), activate: true })).record;
    const classifier = fresh();
    const result = classifier.classify("stress", features);
    expect(result).toEqual({ level: expect.stringMatching(/^(Rendah|Sedang|Tinggi)$/), modelId: record.id, probability: expect.any(Number) });
    expect(result!.probability).toBeGreaterThan(0.3);
    expect(() => classifier.classify("stress", { ...features, IPK: null })).toThrow("IPK kosong");
    // An unknown jurusan is an unknown category (encoded as -1), not a failure.
    expect(classifier.classify("stress", { ...features, Jurusan: "Teknik Nuklir" })).toMatchObject({ modelId: record.id });
  });

  test("changes made through another connection (the CLI) are seen at the next classification", async () => {
    await clearActive();
    const rendah = (await registry.add({ type: "stress", file: writeDocument("r.json", constantModel("Rendah", "Rendah")), activate: true })).record;
    const tinggi = (await registry.add({ type: "stress", file: writeDocument("t.json", constantModel("Tinggi", "Tinggi")) })).record;
    const classifier = fresh();
    expect(classifier.classify("stress", features)).toEqual({ level: "Rendah", modelId: rendah.id, probability: 1 });
    const other = openDatabase(config.databasePath);
    try {
      const cli = new ModelRegistry(other, new WriteQueue(other.$client, { busyWaitMilliseconds: 1000 }), config.dataDir, config.modelsDir);
      await cli.activate(tinggi.id);
      expect(classifier.classify("stress", features)).toEqual({ level: "Tinggi", modelId: tinggi.id, probability: 1 });
      await cli.deactivate(tinggi.id);
      expect(classifier.classify("stress", features)).toBeNull();
    } finally {
      other.$client.close();
    }
  });

  test("a file deleted after activation, or corrupted, fails (the caller falls back) from the next turn until it is usable again", async () => {
    await clearActive();
    const record = (await registry.add({ type: "stress", file: writeDocument("e.json", constantModel("Sedang", "Sedang")), activate: true })).record;
    const path = join(config.dataDir, record.filePath);
    const saved = join(sources, "saved.json");
    copyFileSync(path, saved);
    const classifier = fresh();
    expect(classifier.classify("stress", features)).toEqual({ level: "Sedang", modelId: record.id, probability: 1 });

    rmSync(path);
    // The file is stat'ed once per turn of the event loop: the submissions of one write group share it.
    expect(classifier.classify("stress", features)).toEqual({ level: "Sedang", modelId: record.id, probability: 1 });
    await nextTurn();
    expect(() => classifier.classify("stress", features)).toThrow(`file model ${record.id} tidak dapat dibaca (ENOENT)`);
    // A file that cannot be read is not remembered: it is stat'ed again at once.
    writeFileSync(path, "{ not json");
    expect(() => classifier.classify("stress", features)).toThrow(`model ${record.id} tidak dapat dimuat`);
    await nextTurn();
    // The failure is cached for this file; it is still reported each time.
    expect(() => classifier.classify("stress", features)).toThrow("tidak dapat dimuat");
    copyFileSync(saved, path);
    await nextTurn();
    expect(classifier.classify("stress", features)).toEqual({ level: "Sedang", modelId: record.id, probability: 1 });
  });

  test("a fresh classifier (a server started after the files broke) fails the same way", async () => {
    await clearActive();
    const record = (await registry.add({ type: "motivasi", file: writeDocument("f.json", constantModel("Sedang", "Sedang")), activate: true })).record;
    writeFileSync(join(config.dataDir, record.filePath), JSON.stringify({ ...constantModel("Sedang", "Sedang"), label_map: [[0, "Low"], [1, "Mid"], [2, "High"]] }));
    expect(() => fresh().classify("motivasi", features)).toThrow('menjawab "Mid", bukan tingkat yang dikenal');
  });
});

/** Lets the event loop turn once (what the classifier stat's the files per). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
