import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { predictCsv } from "../../src/models/batch";
import { readModelSource } from "../../src/models/files";
import { parseModelJson, type ModelDocument } from "../../src/models/format";
import { CompiledModel } from "../../src/models/predict";
import { runCli, temporaryDir } from "../helpers";
import { originalDir, originalFixtures, sklearnDir, sklearnFixtures } from "./support";

const rowsCsv = readFileSync(join(sklearnDir, "rows.csv"), "utf8");
const rowCount = rowsCsv.trim().split("\n").length - 1;

/** Converted, written as JSON and read back: the path every model takes into the server. */
function throughJson(path: string): CompiledModel {
  return new CompiledModel(parseModelJson(JSON.stringify(readModelSource(path).document)));
}

describe("scikit-learn 1.2 fixtures: every row equals sklearn's predict", () => {
  for (const name of sklearnFixtures) {
    test(name, () => {
      const model = throughJson(join(sklearnDir, `${name}.joblib`));
      const expected = readFileSync(join(sklearnDir, `expected_${name}.csv`), "utf8");
      const actual = predictCsv(model, rowsCsv);
      expect(actual.split("\n").length).toBe(rowCount + 2);
      if (actual !== expected) {
        const want = expected.split("\n");
        const wrong = actual.split("\n").flatMap((line, index) => (line === want[index] ? [] : [`line ${index + 1}: ${line} ≠ ${want[index]}`]));
        throw new Error(`${wrong.length} rows differ:\n${wrong.slice(0, 10).join("\n")}`);
      }
    });
  }

  test("the bare pipeline prints raw classes and the bare forest its string classes", () => {
    const bare = throughJson(join(sklearnDir, "g_bare_pipeline.joblib"));
    expect(bare.document.label_map).toBeNull();
    const strings = throughJson(join(sklearnDir, "h_bare_forest_strings.joblib"));
    expect(strings.inputNames).toHaveLength(68);
    expect(strings.document.estimator).toMatchObject({ kind: "forest", outputs: [{ type: "string" }, { type: "string" }] });
  });
});

describe("the earlier deployment's files", () => {
  const sha256 = {
    model_chain_final: "138d41f72e6151eabfcfe3d2410202cee687546d6ef0b3dabc7a2045dcc43b77",
    model_v1: "af91c808fc1eabb700f5ccc35865ed13abcd29f3f8d5f438db9d41ce0756364e",
    model_V11: "d5ea442382e9694e9b3bdc0e4a892f2f0ff8b324917f339d884f0d3d47a0dd1e",
  };
  const outputs = new Map<string, string>();
  const documents = new Map<string, ModelDocument>();

  for (const name of originalFixtures) {
    test(`${name} loads, converts and predicts every row as one of the three levels`, () => {
      const source = readModelSource(join(originalDir, `${name}.joblib`));
      documents.set(name, source.document);
      expect(source.sha256).toBe(sha256[name]);
      expect(source.kind).toBe("joblib");
      expect(source.document.version).toBe("scikit-learn 1.6.1");
      expect(source.document.inputs).toHaveLength(75);
      expect(source.document.inputs.filter((input) => input.type === "string").map((input) => input.name)).toEqual(["Jurusan", "Gender", "freq_olahraga", "durasi_tidur"]);
      const model = new CompiledModel(parseModelJson(JSON.stringify(source.document)));
      const output = predictCsv(model, rowsCsv);
      const lines = output.trim().split("\n");
      expect(lines[0]).toBe("stress,motivasi");
      expect(lines).toHaveLength(rowCount + 1);
      for (const line of lines.slice(1)) expect(line).toMatch(/^(Rendah|Sedang|Tinggi),(Rendah|Sedang|Tinggi)$/);
      outputs.set(name, output);
    });
  }

  test("model_V11 matches IPK, Usia and Angkatan as numeric categories", () => {
    const document = documents.get("model_V11")!;
    const encoder = document.preprocess!.parts.find((part) => part.transform.kind === "one_hot_encoder")!;
    expect(encoder.columns).toEqual(["Jurusan", "Angkatan", "Gender", "Usia", "IPK", "freq_olahraga", "durasi_tidur"]);
    const categories = (encoder.transform as { categories: (string | number)[][] }).categories;
    expect(categories[4]).toHaveLength(67);
    expect(categories[4]!.every((value) => typeof value === "number")).toBe(true);
    expect(document.inputs.find((input) => input.name === "IPK")!.type).toBe("number");
    expect(document.metrics).toEqual({ cv_macro_f1: expect.any(Number) });
  });

  test("`model predict` runs on each file, to stdout and with --out, with the in-process result", async () => {
    const dir = temporaryDir("skrining-predict-");
    // Columns in another order than rows.csv, plus a column the models do not read.
    const [header, ...rows] = rowsCsv.trim().split("\n").map((line) => line.split(","));
    const order = header!.map((_, index) => index).reverse();
    const shuffled = [["catatan", ...order.map((index) => header![index])], ...rows.map((row) => ["x", ...order.map((index) => row[index])])];
    const input = join(dir, "input.csv");
    writeFileSync(input, shuffled.map((row) => row.join(",")).join("\r\n") + "\r\n");

    const chain = await runCli(["model", "predict", "--file", join(originalDir, "model_chain_final.joblib"), "--input", input]);
    expect(chain.stderr).toBe("");
    expect(chain.exitCode).toBe(0);
    expect(chain.stdout).toBe(outputs.get("model_chain_final")!);

    for (const name of ["model_v1", "model_V11"] as const) {
      const out = join(dir, `${name}.csv`);
      const result = await runCli(["model", "predict", "--file", join(originalDir, `${name}.joblib`), "--input", input, "--out", out]);
      expect(result).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
      expect(readFileSync(out, "utf8")).toBe(outputs.get(name)!);
    }
  });

  test("`model predict` reads the project's JSON format too, and reports a bad row by its line", async () => {
    const dir = temporaryDir("skrining-predict-");
    const jsonPath = join(dir, "model.json");
    writeFileSync(jsonPath, JSON.stringify(documents.get("model_v1")!));
    const badInput = join(dir, "bad.csv");
    const lines = rowsCsv.trim().split("\n");
    const header = lines[0]!.split(",");
    const broken = lines[2]!.split(",");
    broken[header.indexOf("IPK")] = "tiga";
    writeFileSync(badInput, [lines[0], lines[1], broken.join(",")].join("\n"));
    const result = await runCli(["model", "predict", "--file", jsonPath, "--input", badInput]);
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual(['baris 3: IPK bukan angka: "tiga"', "skrining: 1 baris tidak dapat diprediksi; tidak ada keluaran yang ditulis."]);
  });
});
