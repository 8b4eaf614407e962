import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ModelFormatError, parseModelJson, validateModelDocument, type Estimator, type ModelDocument, type Transform } from "../../src/models/format";
import { CompiledModel } from "../../src/models/predict";
import { PredictionError, formatClassValue } from "../../src/models/predict-values";
import { parseDecimal } from "../../src/numbers";
import { repositoryRoot } from "../helpers";
import { constantModel, constantTree } from "./support";

const ints = { type: "int" as const, values: [0, 1] };

function document(parts: Partial<ModelDocument>): ModelDocument {
  return {
    format: "skrining-model",
    format_version: 1,
    algorithm: "test",
    version: "1",
    inputs: [{ name: "x", type: "number" }],
    preprocess: null,
    estimator: { kind: "decision_tree", n_features: 1, outputs: [ints], value_kind: "counts", tree: constantTree([1, 0]) },
    label_map: null,
    ...parts,
  };
}

/** A stump on feature 0: `x <= threshold` → class 0, else class 1. */
function stump(threshold: number, nFeatures = 1): Estimator {
  return {
    kind: "decision_tree",
    n_features: nFeatures,
    outputs: [ints],
    value_kind: "counts",
    tree: { left: [1, -1, -1], right: [2, -1, -1], feature: [0, -2, -2], threshold: [threshold, -2, -2], value: [1, 1, 1, 0, 0, 1] },
  };
}

/** The feature vector (of `width` values) one column-transformer part makes of one row. */
function transformed(transform: Transform, inputs: ModelDocument["inputs"], row: (number | string | null)[], width: number): number[] {
  const estimator: Estimator = { kind: "decision_tree", n_features: width, outputs: [ints], value_kind: "counts", tree: constantTree([1, 0]) };
  const model = new CompiledModel(document({ inputs, preprocess: { kind: "column_transformer", parts: [{ name: "p", columns: inputs.map((input) => input.name), transform }] }, estimator }));
  return Array.from(model.features(row));
}

describe("tree semantics", () => {
  test("each tree reads its input cast to float32 and goes left on x <= threshold", () => {
    const model = new CompiledModel(document({ estimator: stump(0.1) }));
    // float32(0.1) = 0.10000000149…, above the float64 threshold 0.1: right.
    expect(model.predictRow([0.1])).toEqual(["1"]);
    expect(model.predictRow([0.09999999])).toEqual(["0"]);
    // Equal after the cast: left.
    const equal = new CompiledModel(document({ estimator: stump(Math.fround(0.1)) }));
    expect(equal.predictRow([0.1])).toEqual(["0"]);
    expect(equal.predictRow([0.10000001])).toEqual(["1"]);
  });

  test("a value that overflows float32, or NaN, is refused as sklearn's input check does", () => {
    const model = new CompiledModel(document({ estimator: stump(0) }));
    expect(() => model.predictRow([1e300])).toThrow(PredictionError);
    expect(() => model.predictRow([Number.NaN])).toThrow("x kosong");
  });

  test("forests normalise stored counts per tree, use stored fractions as they are, and the first maximum wins", () => {
    const forest = (valueKind: "counts" | "fractions", leaves: number[][]): Estimator => ({
      kind: "forest",
      n_features: 1,
      outputs: [ints],
      value_kind: valueKind,
      trees: leaves.map(constantTree),
    });
    // Counts: [1,0] → [1,0] and [10,20] → [1/3,2/3]: class 0. As raw sums [11,20]: class 1.
    expect(new CompiledModel(document({ estimator: forest("counts", [[1, 0], [10, 20]]) })).predictRow([0])).toEqual(["0"]);
    expect(new CompiledModel(document({ estimator: forest("fractions", [[1, 0], [10, 20]]) })).predictRow([0])).toEqual(["1"]);
    expect(new CompiledModel(document({ estimator: forest("counts", [[1, 0], [0, 1]]) })).predictRow([0])).toEqual(["0"]);
    // A leaf with no weight divides by 1 instead of 0.
    expect(new CompiledModel(document({ estimator: forest("counts", [[0, 0], [0, 3]]) })).predictRow([0])).toEqual(["1"]);
  });

  test("a single tree takes the argmax of its stored values", () => {
    const tree = (values: number[]): Estimator => ({ kind: "decision_tree", n_features: 1, outputs: [{ type: "int", values: [5, 6, 7] }], value_kind: "counts", tree: constantTree(values) });
    expect(new CompiledModel(document({ estimator: tree([1, 3, 3]) })).predictRow([0])).toEqual(["6"]);
  });

  test("a classifier chain appends earlier predictions in chain order and returns outputs in output order", () => {
    const model = new CompiledModel(
      document({
        estimator: {
          kind: "classifier_chain",
          order: [1, 0],
          estimators: [
            { kind: "decision_tree", n_features: 1, outputs: [{ type: "int", values: [0, 1, 2] }], value_kind: "counts", tree: constantTree([0, 0, 4]) },
            // Reads the appended prediction (feature 1): 2 > 1.5 → class 1.
            {
              kind: "decision_tree",
              n_features: 2,
              outputs: [ints],
              value_kind: "counts",
              tree: { left: [1, -1, -1], right: [2, -1, -1], feature: [1, -2, -2], threshold: [1.5, -2, -2], value: [1, 1, 1, 0, 0, 1] },
            },
          ],
        },
      }),
    );
    // sklearn's chain returns floats.
    expect(model.predictRow([0])).toEqual(["1.0", "2.0"]);
    expect(model.nOutputs).toBe(2);
  });

  test("multi-output models keep each estimator's classes; label_map turns values into labels", () => {
    const strings = constantModel("Tinggi", "Rendah");
    expect(new CompiledModel(strings).predictRow([3])).toEqual(["Tinggi", "Rendah"]);
    const unlabeled = { ...strings, label_map: null };
    expect(new CompiledModel(unlabeled).predictRow([3])).toEqual(["2", "0"]);
    const partial = { ...strings, label_map: [[0, "Rendah"]] as [number, string][] };
    expect(() => new CompiledModel(partial).predictRow([3])).toThrow("kelas 2 tidak ada dalam label_map");
  });

  test("the probability of an answer: its class's entry, or none when its label is shared, missing or not a finite number", () => {
    const three = { type: "int" as const, values: [0, 1, 2] };
    const labelled = (labels: [number, string][]) =>
      new CompiledModel(document({ estimator: { kind: "decision_tree", n_features: 1, outputs: [three], value_kind: "counts", tree: constantTree([1, 3, 4]) }, label_map: labels }));
    const distinct = labelled([[0, "Rendah"], [1, "Sedang"], [2, "Tinggi"]]);
    const [answer] = distinct.predictOutputs([0]);
    expect(answer!.text).toBe("Tinggi");
    expect(distinct.answerProbability(0, answer!)).toBe(0.5);
    expect(distinct.classLabels(0)).toEqual(["Rendah", "Sedang", "Tinggi"]);
    // Made once: the same list at every classification.
    expect(distinct.classLabels(0)).toBe(distinct.classLabels(0));
    const shared = labelled([[0, "Rendah"], [1, "Tinggi"], [2, "Tinggi"]]);
    const [sharedAnswer] = shared.predictOutputs([0]);
    expect(sharedAnswer!.text).toBe("Tinggi");
    expect(shared.answerProbability(0, sharedAnswer!)).toBeNull();
    expect(distinct.answerProbability(0, { ...answer!, probabilities: null })).toBeNull();
    expect(distinct.answerProbability(0, { ...answer!, probabilities: Float64Array.of(0, 0, Number.NaN) })).toBeNull();
    expect(distinct.answerProbability(0, { ...answer!, text: "Lain" })).toBeNull();
  });

  test("class values print as pandas writes them", () => {
    expect(formatClassValue({ value: 2, type: "int" })).toBe("2");
    expect(formatClassValue({ value: 2, type: "float" })).toBe("2.0");
    expect(formatClassValue({ value: -0, type: "float" })).toBe("-0.0");
    expect(formatClassValue({ value: 0.0001, type: "float" })).toBe("0.0001");
    expect(formatClassValue({ value: 0.00001, type: "float" })).toBe("1e-05");
    expect(formatClassValue({ value: 1e16, type: "float" })).toBe("1e+16");
    expect(formatClassValue({ value: 123.25, type: "float" })).toBe("123.25");
    expect(formatClassValue({ value: "Sedang", type: "string" })).toBe("Sedang");
  });
});

describe("preprocessing semantics", () => {
  const numbers = (...names: string[]) => names.map((name) => ({ name, type: "number" as const }));
  const texts = (...names: string[]) => names.map((name) => ({ name, type: "string" as const }));

  test("standard scaling subtracts the mean and divides by the scale, either step optional", () => {
    const inputs = numbers("a", "b");
    expect(transformed({ kind: "standard_scaler", mean: [1, 2], scale: [2, 4] }, inputs, [3, 10], 2)).toEqual([1, 2]);
    expect(transformed({ kind: "standard_scaler", mean: null, scale: [2, 4] }, inputs, [3, 10], 2)).toEqual([1.5, 2.5]);
    expect(transformed({ kind: "standard_scaler", mean: [1, 2], scale: null }, inputs, [3, 10], 2)).toEqual([2, 8]);
    expect(transformed({ kind: "standard_scaler", mean: null, scale: null }, inputs, [3, 10], 2)).toEqual([3, 10]);
  });

  test("ordinal encoding: known categories by position, unknown ones to unknown_value, numbers matched numerically", () => {
    const encoder: Transform = { kind: "ordinal_encoder", categories: [["Laki-laki", "Perempuan"], [2.5, 3.5]], handle_unknown: "use_encoded_value", unknown_value: -1 };
    const inputs = [...texts("Gender"), ...numbers("IPK")];
    expect(transformed(encoder, inputs, ["Perempuan", parseDecimal("3.50")!], 2)).toEqual([1, 1]);
    expect(transformed(encoder, inputs, ["perempuan", 3.51], 2)).toEqual([-1, -1]);
    const strict = new CompiledModel(
      document({ inputs, preprocess: { kind: "column_transformer", parts: [{ name: "p", columns: ["Gender", "IPK"], transform: { ...encoder, handle_unknown: "error", unknown_value: null } }] }, estimator: stump(0, 2) }),
    );
    expect(() => strict.predictRow(["X", 2.5])).toThrow('kategori tidak dikenal: "X"');
  });

  test("one-hot encoding with drop (none, first, if_binary) and unknown categories as all zeros", () => {
    const encoder: Transform = { kind: "one_hot_encoder", categories: [["a", "b", "c"], [2019, 2020], ["x", "y"]], drop: [0, 0, null], handle_unknown: "ignore" };
    const inputs = [...texts("k"), ...numbers("year"), ...texts("z")];
    expect(transformed(encoder, inputs, ["c", 2019, "y"], 5)).toEqual([0, 1, 0, 0, 1]);
    expect(transformed(encoder, inputs, ["a", 2020, "x"], 5)).toEqual([0, 0, 1, 1, 0]);
    expect(transformed(encoder, inputs, ["unseen", 2031, "x"], 5)).toEqual([0, 0, 0, 1, 0]);
    const strict = { ...encoder, handle_unknown: "error" as const };
    expect(() => transformed(strict, inputs, ["unseen", 2019, "x"], 5)).toThrow("kategori tidak dikenal");
  });

  test("imputation fills missing values (numbers and texts) before the next step; without an imputer a missing value is an error", () => {
    const pipeline: Transform = {
      kind: "pipeline",
      steps: [
        { kind: "simple_imputer", fill: ["b"] },
        { kind: "one_hot_encoder", categories: [["a", "b"]], drop: [null], handle_unknown: "ignore" },
      ],
    };
    expect(transformed(pipeline, texts("k"), [null], 2)).toEqual([0, 1]);
    const numeric: Transform = { kind: "pipeline", steps: [{ kind: "simple_imputer", fill: [2] }, { kind: "standard_scaler", mean: [1], scale: [2] }] };
    expect(transformed(numeric, numbers("n"), [null], 1)).toEqual([0.5]);
    expect(() => transformed({ kind: "standard_scaler", mean: [1], scale: [2] }, numbers("n"), [null], 1)).toThrow("n kosong");
  });

  test("an input one part imputes reaches the other parts as numpy's NaN, which the trees then refuse", () => {
    const model = new CompiledModel(
      document({
        inputs: numbers("n", "m"),
        preprocess: {
          kind: "column_transformer",
          parts: [
            { name: "filled", columns: ["n"], transform: { kind: "pipeline", steps: [{ kind: "simple_imputer", fill: [2] }, { kind: "standard_scaler", mean: null, scale: null }] } },
            { name: "scaled", columns: ["n", "m"], transform: { kind: "standard_scaler", mean: [1, 1], scale: null } },
            { name: "kept", columns: ["n"], transform: { kind: "passthrough" } },
          ],
        },
        estimator: stump(0, 4),
      }),
    );
    expect(Array.from(model.features([3, 5]))).toEqual([3, 2, 4, 3]);
    expect(Array.from(model.features([null, 5]))).toEqual([2, Number.NaN, 4, Number.NaN]);
    expect(() => model.predictRow([null, 5])).toThrow("fitur ke-2 tidak berhingga atau kosong");
  });

  test("PCA: centred before (sklearn < 1.4) or after (≥ 1.4) projecting, whitened by a stored scale", () => {
    const pca = (centering: "before" | "after", whiten: number[] | null): Transform => ({ kind: "pca", mean: [1, 2], components: [[0.6, 0.8], [-0.8, 0.6]], centering, whiten_scale: whiten });
    const inputs = numbers("a", "b");
    expect(transformed(pca("before", null), inputs, [4, 6], 2)).toEqual([(4 - 1) * 0.6 + (6 - 2) * 0.8, (4 - 1) * -0.8 + (6 - 2) * 0.6]);
    expect(transformed(pca("after", null), inputs, [4, 6], 2)).toEqual([4 * 0.6 + 6 * 0.8 - (1 * 0.6 + 2 * 0.8), 4 * -0.8 + 6 * 0.6 - (1 * -0.8 + 2 * 0.6)]);
    expect(transformed(pca("before", [2, 0.5]), inputs, [4, 6], 2)).toEqual([((4 - 1) * 0.6 + (6 - 2) * 0.8) / 2, ((4 - 1) * -0.8 + (6 - 2) * 0.6) / 0.5]);
  });

  test("parts are concatenated in order; inputs are read by name, whatever their order", () => {
    const model = new CompiledModel(
      document({
        inputs: [...numbers("b", "a"), ...texts("g")],
        preprocess: {
          kind: "column_transformer",
          parts: [
            { name: "scale", columns: ["a"], transform: { kind: "standard_scaler", mean: [10], scale: null } },
            { name: "code", columns: ["g"], transform: { kind: "ordinal_encoder", categories: [["p", "q"]], handle_unknown: "use_encoded_value", unknown_value: -1 } },
            { name: "remainder", columns: ["b"], transform: { kind: "passthrough" } },
          ],
        },
        estimator: stump(0, 3),
      }),
    );
    expect(Array.from(model.features(model.rowFromFeatures({ a: 12, b: 7, g: "q" })))).toEqual([2, 1, 7]);
  });

  test("named features convert plain digit strings and numbers to the declared input type", () => {
    const model = new CompiledModel(
      document({
        inputs: [...numbers("Angkatan"), ...texts("Jurusan")],
        preprocess: {
          kind: "column_transformer",
          parts: [
            { name: "p", columns: ["Angkatan"], transform: { kind: "passthrough" } },
            { name: "q", columns: ["Jurusan"], transform: { kind: "ordinal_encoder", categories: [["2023"]], handle_unknown: "use_encoded_value", unknown_value: -1 } },
          ],
        },
        estimator: stump(0, 2),
      }),
    );
    expect(model.rowFromFeatures({ Angkatan: "2023", Jurusan: 2023 })).toEqual([2023, "2023"]);
    expect(model.rowFromFeatures({ Jurusan: null })).toEqual([null, null]);
    expect(() => model.rowFromFeatures({ Angkatan: "dua ribu" })).toThrow("Angkatan harus berupa angka");
  });
});

describe("validation on load", () => {
  const valid = () => JSON.parse(JSON.stringify(document({ estimator: stump(0.5) }))) as Record<string, any>;

  test("a valid document loads", () => {
    expect(new CompiledModel(parseModelJson(JSON.stringify(valid()))).predictRow([1])).toEqual(["1"]);
  });

  test.each([
    ["not JSON", "{", "tidak dapat dibaca"],
    ["another format", JSON.stringify({ ...valid(), format: "onnx" }), 'kunci "format"'],
    ["a newer version", JSON.stringify({ ...valid(), format_version: 2 }), "versi format model 2 tidak didukung"],
    ["a missing estimator", JSON.stringify({ ...valid(), estimator: undefined }), "/estimator"],
    ["an unknown step", JSON.stringify({ ...valid(), preprocess: { kind: "column_transformer", parts: [{ name: "p", columns: ["x"], transform: { kind: "robust_scaler" } }] } }), "/preprocess"],
    ["a threshold that is text", JSON.stringify({ ...valid(), estimator: { ...valid().estimator, tree: { ...valid().estimator.tree, threshold: ["0.5", -2, -2] } } }), "/estimator/tree/threshold/0"],
    ["an extra key", JSON.stringify({ ...valid(), estimator: { ...valid().estimator, extra: 1 } }), "/estimator"],
  ])("%s is refused with the place named", (_name, text, message) => {
    expect(() => parseModelJson(text)).toThrow(message);
  });

  test.each([
    ["a child pointing back (a cycle)", (d: any) => (d.estimator.tree.left = [0, -1, -1]), "anak simpul 0 tidak valid"],
    ["a feature out of range", (d: any) => (d.estimator.tree.feature = [3, -2, -2]), "fitur simpul 0 di luar"],
    ["values of the wrong length", (d: any) => (d.estimator.tree.value = [1, 2]), "panjang value"],
    ["an unknown column", (d: any) => (d.preprocess = { kind: "column_transformer", parts: [{ name: "p", columns: ["y"], transform: { kind: "passthrough" } }] }), "kolom y bukan masukan model"],
    ["text into a scaler", (d: any) => ((d.inputs = [{ name: "x", type: "string" }]), (d.preprocess = { kind: "column_transformer", parts: [{ name: "p", columns: ["x"], transform: { kind: "standard_scaler", mean: null, scale: null } }] })), "standard_scaler menerima kolom teks"],
    ["a width the estimator does not take", (d: any) => (d.estimator.n_features = 4), "estimator menerima 4"],
    ["a chain order that is no permutation", (d: any) => (d.estimator = { kind: "classifier_chain", order: [1], estimators: [d.estimator] }), "order rantai"],
    ["three outputs", (d: any) => (d.estimator = { kind: "multi_output", estimators: [d.estimator, d.estimator, d.estimator] }), "3 keluaran"],
  ])("a document with %s is refused when compiled", (_name, change, message) => {
    const broken = valid();
    change(broken);
    expect(() => new CompiledModel(validateModelDocument(broken))).toThrow(message);
  });

  test("the example in docs/model-format.md is a valid model", () => {
    const text = readFileSync(join(repositoryRoot, "docs", "model-format.md"), "utf8");
    const example = /```json\n([\s\S]*?)```/.exec(text)![1]!;
    const model = new CompiledModel(parseModelJson(example));
    // (3 − 3.1) / 1.2 ≤ 0.25: left leaf [4, 1, 0]; (4 − 3.1) / 1.2 > 0.25: right leaf [0, 3, 4].
    expect(model.predictRow(model.rowFromFeatures({ S1: 3, Jurusan: "D3 Sistem Informasi" }))).toEqual(["Rendah"]);
    expect(model.predictRow(model.rowFromFeatures({ S1: 4, Jurusan: "Lain" }))).toEqual(["Tinggi"]);
  });

  test("validation errors are ModelFormatError", () => {
    expect(() => parseModelJson("[]")).toThrow(ModelFormatError);
  });
});
