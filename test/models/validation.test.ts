import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { selectionCaveat, validationNotes } from "../../src/models/validation";
import { TestService, standardAccounts, temporaryDir } from "../helpers";
import { cli } from "../cli/support";

// Decisions §20: `skrining model validate` on a seeded folder, every figure counted by hand
// below. Six closed cases with a judgement (ya for 1, 2 and 6), and what must not count: a
// case closed before judgements were asked for, an open case, a restricted student's case.

interface Seeded {
  nim: string;
  stress: number;
  sdi: number;
  /** The active stress model's stored level and probability. */
  model: [string, number];
  /** The active motivation model's stored level (it gives no probabilities). */
  motivasi: string;
  perlu: 0 | 1 | null;
  status?: string;
}

const seeded: Seeded[] = [
  { nim: "V01", stress: 150, sdi: -2, model: ["Tinggi", 0.9], motivasi: "Rendah", perlu: 1 },
  { nim: "V02", stress: 130, sdi: 1, model: ["Sedang", 0.6], motivasi: "Rendah", perlu: 1 },
  { nim: "V03", stress: 100, sdi: 4, model: ["Tinggi", 0.7], motivasi: "Sedang", perlu: 0 },
  { nim: "V04", stress: 90, sdi: -1, model: ["Sedang", 0.8], motivasi: "Tinggi", perlu: 0 },
  { nim: "V05", stress: 55, sdi: 5, model: ["Rendah", 0.95], motivasi: "Tinggi", perlu: 0 },
  { nim: "V06", stress: 165, sdi: 0, model: ["Tinggi", 0.85], motivasi: "Sedang", perlu: 1 },
  // Not counted: closed before §19 (no judgement), still open, a restricted student.
  { nim: "V07", stress: 170, sdi: -5, model: ["Tinggi", 0.99], motivasi: "Rendah", perlu: null },
  { nim: "V08", stress: 170, sdi: -5, model: ["Tinggi", 0.99], motivasi: "Rendah", perlu: null, status: "dihubungi" },
  { nim: "V09", stress: 170, sdi: -5, model: ["Tinggi", 0.99], motivasi: "Rendah", perlu: 1 },
];

let service: TestService;

beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(standardAccounts);
  await service.importAccounts(`role,username,password,nim,nip_doswal,activated\n${seeded.map((row) => `mahasiswa,${row.nim.toLowerCase()},pass-${row.nim}-1,${row.nim},D001,true`).join("\n")}\n`);
  const sqlite = service.context.db.$client;
  sqlite.transaction(() => {
    sqlite.run("INSERT INTO prediction_models (id, type, file_path, is_active, algorithm, version, input_features, source_sha256) VALUES (1, 'stress', 'models/1.json', 1, 'random_forest', '1.4', '[]', 'a')");
    sqlite.run("INSERT INTO prediction_models (id, type, file_path, is_active, algorithm, version, input_features, source_sha256) VALUES (2, 'motivasi', 'models/2.json', 1, 'decision_tree', '1.2', '[]', 'b')");
    for (const row of seeded) {
      const screening = sqlite
        .query<{ id: number }, (string | number)[]>(
          `INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi, stress_model_id, motivasi_model_id, stress_probability)
           VALUES (?, '2026-10-01T08:00:00.000Z', '{}', ?, ?, 's', ?, ?, 1, 2, ?) RETURNING Id_skrining AS id`,
        )
        .get(row.nim, row.model[0], row.motivasi, row.stress, row.sdi, row.model[1])!;
      const closed = (row.status ?? "selesai") === "selesai";
      sqlite.run(
        `INSERT INTO tindak_lanjut (NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, Id_skrining, status, dibuka_pada, diperbarui_pada, ditutup_pada, alasan_selesai, perlu_dukungan)
         VALUES (?, 'D001', 1, 0, ?, ?, '2026-10-01T09:00:00.000Z', '2026-10-05T09:00:00.000Z', ?, ?, ?)`,
        [row.nim, screening.id, row.status ?? "selesai", closed ? "2026-10-05T09:00:00.000Z" : null, closed && row.perlu !== null ? "teratasi" : null, row.perlu],
      );
    }
    sqlite.run("UPDATE mahasiswa SET dibatasi_sejak = '2026-11-01T00:00:00.000Z' WHERE NIM = 'V09'");
  })();
});
afterAll(() => service.close());

const rates = (sensitivitas: number | null, spesifisitas: number | null, ppv: number | null, npv: number | null) => ({ sensitivitas, spesifisitas, ppv, npv });

/** Every figure by hand: outcomes ya 1, 2, 6; the rules' levels from the scores (stress T T S S R T; motivation R S T R T S). */
const expectedJson = {
  catatan_bias_seleksi: selectionCaveat,
  jenis: [
    {
      jenis: "stress",
      n: 6,
      ya: 3,
      tidak: 3,
      aturan_ambang: {
        n: 6,
        per_tingkat: [
          { tingkat: "Rendah", positif_bila: "Rendah, Sedang atau Tinggi", tp: 3, fp: 3, fn: 0, tn: 0, ...rates(1, 0, 0.5, null) },
          { tingkat: "Sedang", positif_bila: "Sedang atau Tinggi", tp: 3, fp: 2, fn: 0, tn: 1, ...rates(1, 1 / 3, 0.6, 1) },
          { tingkat: "Tinggi", positif_bila: "Tinggi", tp: 3, fp: 0, fn: 0, tn: 3, ...rates(1, 1, 1, 1) },
        ],
      },
      model: {
        id: 1,
        algoritma: "random_forest",
        versi: "1.4",
        n: 6,
        per_tingkat: [
          { tingkat: "Rendah", positif_bila: "Rendah, Sedang atau Tinggi", tp: 3, fp: 3, fn: 0, tn: 0, ...rates(1, 0, 0.5, null) },
          { tingkat: "Sedang", positif_bila: "Sedang atau Tinggi", tp: 3, fp: 2, fn: 0, tn: 1, ...rates(1, 1 / 3, 0.6, 1) },
          { tingkat: "Tinggi", positif_bila: "Tinggi", tp: 2, fp: 1, fn: 1, tn: 2, ...rates(2 / 3, 2 / 3, 2 / 3, 2 / 3) },
        ],
        // Per row the forecast of ya is p for a positive call, 1 − p otherwise.
        kalibrasi: [
          // .9 .6 .7 .8 .95 .85 against 1 1 0 0 0 1.
          { tingkat: "Rendah", n: 6, brier: 2.225 / 6, bins: [[0, null, null], [0, null, null], [1, 0.6, 1], [2, 0.75, 0], [3, 0.9, 2 / 3]] },
          // .9 .6 .7 .8 .05 .85.
          { tingkat: "Sedang", n: 6, brier: 1.325 / 6, bins: [[1, 0.05, 0], [0, null, null], [1, 0.6, 1], [2, 0.75, 0], [2, 0.875, 1]] },
          // .9 .4 .7 .2 .05 .85: .2 and .4 are edges, each in the bin below it.
          { tingkat: "Tinggi", n: 6, brier: 0.925 / 6, bins: [[2, 0.125, 0], [1, 0.4, 1], [0, null, null], [1, 0.7, 0], [2, 0.875, 1]] },
        ],
        keterangan: [],
      },
      keterangan: [],
    },
    {
      jenis: "motivasi",
      n: 6,
      ya: 3,
      tidak: 3,
      aturan_ambang: {
        n: 6,
        per_tingkat: [
          { tingkat: "Tinggi", positif_bila: "Tinggi, Sedang atau Rendah", tp: 3, fp: 3, fn: 0, tn: 0, ...rates(1, 0, 0.5, null) },
          { tingkat: "Sedang", positif_bila: "Sedang atau Rendah", tp: 3, fp: 1, fn: 0, tn: 2, ...rates(1, 2 / 3, 0.75, 1) },
          { tingkat: "Rendah", positif_bila: "Rendah", tp: 1, fp: 1, fn: 2, tn: 2, ...rates(1 / 3, 2 / 3, 0.5, 0.5) },
        ],
      },
      model: {
        id: 2,
        algoritma: "decision_tree",
        versi: "1.2",
        n: 6,
        per_tingkat: [
          { tingkat: "Tinggi", positif_bila: "Tinggi, Sedang atau Rendah", tp: 3, fp: 3, fn: 0, tn: 0, ...rates(1, 0, 0.5, null) },
          { tingkat: "Sedang", positif_bila: "Sedang atau Rendah", tp: 3, fp: 1, fn: 0, tn: 2, ...rates(1, 2 / 3, 0.75, 1) },
          { tingkat: "Rendah", positif_bila: "Rendah", tp: 2, fp: 0, fn: 1, tn: 3, ...rates(2 / 3, 1, 1, 0.75) },
        ],
        kalibrasi: null,
        keterangan: [validationNotes.noProbabilities],
      },
      keterangan: [],
    },
  ],
};

/** The JSON as expected, the bins written out (ranges fixed, the rest by hand above). */
function expectedReport() {
  const edges = [0, 0.2, 0.4, 0.6, 0.8, 1];
  return {
    ...expectedJson,
    jenis: expectedJson.jenis.map((type) => ({
      ...type,
      model: type.model && {
        ...type.model,
        kalibrasi:
          type.model.kalibrasi?.map(({ bins, ...row }) => ({
            ...row,
            bin: bins.map(([n, mean, share], index) => ({ dari: edges[index], sampai: edges[index + 1], n, rata_rata_prediksi: mean, proporsi_ya: share })),
          })) ?? null,
      },
    })),
  };
}

/** Numbers compared to 12 digits, everything else exactly. */
function expectClose(actual: unknown, expected: unknown, path = "$"): void {
  if (typeof expected === "number" && typeof actual === "number") {
    if (Math.abs(actual - expected) > 1e-12) throw new Error(`${path}: ${actual} is not ${expected}`);
    return;
  }
  if (expected !== null && typeof expected === "object") {
    expect({ path, keys: Object.keys(actual as object).sort() }).toEqual({ path, keys: Object.keys(expected).sort() });
    for (const [key, value] of Object.entries(expected)) expectClose((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
    return;
  }
  expect({ path, value: actual }).toEqual({ path, value: expected });
}

describe("skrining model validate on a seeded folder", () => {
  test("--format json: every figure as counted by hand; one export row without a student", async () => {
    const result = await cli(service.dataDir, ["model", "validate", "--format", "json"]);
    expect(result.exitCode).toBe(0);
    expectClose(JSON.parse(result.stdout), expectedReport());
    const row = service.context.db.$client.query("SELECT action, nim, target, detail FROM audit_log ORDER BY id DESC LIMIT 1").get();
    expect(row).toEqual({ action: "export", nim: null, target: "skrining model validate", detail: "validasi model stress dan motivasi; json" });
  });

  test("--format text: the caveat first, then each type's tables", async () => {
    const result = await cli(service.dataDir, ["model", "validate", "--type", "stress"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        "Validasi lokal terhadap penilaian penangan (perlu_dukungan)",
        "",
        `PERHATIAN: ${selectionCaveat}`,
        "",
        "Stres: 6 skrining dengan hasil (perlu dukungan: ya 3, tidak 3)",
        "",
        "Aturan ambang (6 skrining):",
        "Tingkat  Positif bila                TP  FP  FN  TN  Sensitivitas  Spesifisitas  PPV   NPV",
        "Rendah   Rendah, Sedang atau Tinggi  3   3   0   0   1,00          0,00          0,50  -",
        "Sedang   Sedang atau Tinggi          3   2   0   1   1,00          0,33          0,60  1,00",
        "Tinggi   Tinggi                      3   0   0   3   1,00          1,00          1,00  1,00",
        "",
        "Model aktif #1 (random_forest 1.4; 6 skrining yang diklasifikasikannya):",
        "Tingkat  Positif bila                TP  FP  FN  TN  Sensitivitas  Spesifisitas  PPV   NPV",
        "Rendah   Rendah, Sedang atau Tinggi  3   3   0   0   1,00          0,00          0,50  -",
        "Sedang   Sedang atau Tinggi          3   2   0   1   1,00          0,33          0,60  1,00",
        "Tinggi   Tinggi                      2   1   1   2   0,67          0,67          0,67  0,67",
        "",
        "Kalibrasi probabilitas model (per tingkat: probabilitas bahwa keputusan ya/tidak-nya benar):",
        "Tingkat Rendah: skor Brier 0,371 (6 skrining)",
        "Prediksi  N  Rata-rata prediksi  Proporsi ya",
        "0,4–0,6   1  0,60                1,00",
        "0,6–0,8   2  0,75                0,00",
        "0,8–1,0   3  0,90                0,67",
        "",
        "Tingkat Sedang: skor Brier 0,221 (6 skrining)",
        "Prediksi  N  Rata-rata prediksi  Proporsi ya",
        "0,0–0,2   1  0,05                0,00",
        "0,4–0,6   1  0,60                1,00",
        "0,6–0,8   2  0,75                0,00",
        "0,8–1,0   2  0,88                1,00",
        "",
        "Tingkat Tinggi: skor Brier 0,154 (6 skrining)",
        "Prediksi  N  Rata-rata prediksi  Proporsi ya",
        "0,0–0,2   2  0,13                0,00",
        "0,2–0,4   1  0,40                1,00",
        "0,6–0,8   1  0,70                0,00",
        "0,8–1,0   2  0,88                1,00",
        "",
      ].join("\n"),
    );
  });

  test("--format csv (standard and excel-id): one row per source and level, the model's Brier beside its rows", async () => {
    const result = await cli(service.dataDir, ["model", "validate", "--type", "motivasi", "--format", "csv", "--csv", "standard"]);
    expect(result.stdout).toBe(
      "\uFEFF" +
        [
          "jenis,sumber,id_model,tingkat,positif_bila,tp,fp,fn,tn,sensitivitas,spesifisitas,ppv,npv,brier",
          `motivasi,aturan_ambang,,Tinggi,"Tinggi, Sedang atau Rendah",3,3,0,0,1,0,0.5,,`,
          `motivasi,aturan_ambang,,Sedang,Sedang atau Rendah,3,1,0,2,1,${2 / 3},0.75,1,`,
          `motivasi,aturan_ambang,,Rendah,Rendah,1,1,2,2,${1 / 3},${2 / 3},0.5,0.5,`,
          `motivasi,model,2,Tinggi,"Tinggi, Sedang atau Rendah",3,3,0,0,1,0,0.5,,`,
          `motivasi,model,2,Sedang,Sedang atau Rendah,3,1,0,2,1,${2 / 3},0.75,1,`,
          `motivasi,model,2,Rendah,Rendah,2,0,1,3,${2 / 3},1,1,0.75,`,
        ].join("\r\n") +
        "\r\n",
    );
    const indonesian = await cli(service.dataDir, ["model", "validate", "--type", "stress", "--format", "csv", "--csv", "excel-id"]);
    // The Brier score summed in the forecasts' order, as the service sums it: .9, 1 − .6, .7, 1 − .8, 1 − .95, .85 against 1 1 0 0 0 1.
    const brier = [[0.9, 1], [1 - 0.6, 1], [0.7, 0], [1 - 0.8, 0], [1 - 0.95, 0], [0.85, 1]].reduce((sum, [forecast, outcome]) => sum + (forecast! - outcome!) ** 2, 0) / 6;
    expect(brier).toBeCloseTo(0.925 / 6, 15);
    const comma = (value: number) => String(value).replace(".", ",");
    expect(indonesian.stdout.split("\r\n")[6]).toBe(`stress;model;1;Tinggi;Tinggi;2;1;1;2;${comma(2 / 3)};${comma(2 / 3)};${comma(2 / 3)};${comma(2 / 3)};${comma(brier)}`);
  });

  test("a model without probabilities says so in the text", async () => {
    const result = await cli(service.dataDir, ["model", "validate", "--type", "motivasi"]);
    expect(result.stdout).toContain(`Model aktif #2 (decision_tree 1.2; 6 skrining yang diklasifikasikannya):`);
    expect(result.stdout).toContain(validationNotes.noProbabilities);
    expect(result.stdout).not.toContain("Kalibrasi");
  });

  test("--out writes the file; a wrong --type or --format is refused", async () => {
    const out = join(temporaryDir("skrining-validate-"), "validasi.json");
    expect((await cli(service.dataDir, ["model", "validate", "--format", "json", "--out", out])).exitCode).toBe(0);
    expectClose(JSON.parse(readFileSync(out, "utf8")), expectedReport());
    expect((await cli(service.dataDir, ["model", "validate", "--type", "mood"])).exitCode).toBe(1);
    expect((await cli(service.dataDir, ["model", "validate", "--format", "xml"])).exitCode).toBe(1);
  });
});

describe("edge cases", () => {
  test("no closed case and no active model: zeros, null rates, and both said", async () => {
    const fresh = new TestService();
    try {
      const result = await cli(fresh.dataDir, ["model", "validate", "--format", "json", "--type", "stress"]);
      const report = JSON.parse(result.stdout);
      expect(report.jenis[0]).toMatchObject({ n: 0, ya: 0, tidak: 0, model: null, keterangan: [validationNotes.noOutcomes, validationNotes.noModel] });
      expect(report.jenis[0].aturan_ambang.per_tingkat[1]).toEqual({ tingkat: "Sedang", positif_bila: "Sedang atau Tinggi", tp: 0, fp: 0, fn: 0, tn: 0, ...rates(null, null, null, null) });
    } finally {
      await fresh.close();
    }
  });

  test("an active model that classified none of them: its rows empty, and said", async () => {
    const sqlite = service.context.db.$client;
    sqlite.run("UPDATE prediction_models SET is_active = 0 WHERE id = 1");
    sqlite.run("INSERT INTO prediction_models (id, type, file_path, is_active, algorithm, version, input_features, source_sha256) VALUES (3, 'stress', 'models/3.json', 1, 'x', '1', '[]', 'c')");
    try {
      const report = JSON.parse((await cli(service.dataDir, ["model", "validate", "--format", "json", "--type", "stress"])).stdout);
      expect(report.jenis[0].model).toMatchObject({ id: 3, n: 0, kalibrasi: null, keterangan: [validationNotes.notClassified] });
      // The threshold rules still count every outcome.
      expect(report.jenis[0].aturan_ambang.n).toBe(6);
    } finally {
      sqlite.run("DELETE FROM prediction_models WHERE id = 3");
      sqlite.run("UPDATE prediction_models SET is_active = 1 WHERE id = 1");
    }
  });
});

describe("the console's Model page", () => {
  test("GET /api/admin/model/validasi: the command's JSON with the reliability beside it, a view row; a wrong jenis is 400", async () => {
    service.address = "127.0.0.1";
    const token = (await service.login("admin", "admin-pass-1")).access;
    const answer = await service.request("GET", "/api/admin/model/validasi", { token });
    expect(answer.status).toBe(200);
    const { reliabilitas, ...report } = answer.body;
    expectClose(report, expectedReport());
    expect(reliabilitas).toMatchObject({ sumber: "tetap", alasan_nilai_tetap: "mahasiswa_kurang", alfa: 0.9, simpangan_baku: 20 });
    expect((await service.request("GET", "/api/admin/model/validasi?jenis=stress", { token })).body.jenis.map((type: { jenis: string }) => type.jenis)).toEqual(["stress"]);
    expect(await service.request("GET", "/api/admin/model/validasi?jenis=mood", { token })).toMatchObject({ status: 400, body: { error: "Jenis model harus stress atau motivasi." } });
    await service.context.audit.flush();
    const rows = service.context.db.$client.query("SELECT action, nim, target, detail FROM audit_log WHERE target = 'GET /api/admin/model/validasi' ORDER BY id").all();
    expect(rows).toEqual([
      { action: "view", nim: null, target: "GET /api/admin/model/validasi", detail: "validasi model stress dan motivasi" },
      { action: "view", nim: null, target: "GET /api/admin/model/validasi", detail: "validasi model stress" },
    ]);
    expect((await service.request("GET", "/api/admin/model/validasi", { token: (await service.login("dosen1", "dosen-pass-1")).access })).status).toBe(403);
  });
});
