import { describe, expect, test } from "bun:test";
import { predictCsv } from "../../src/models/batch";
import type { ClassList, ModelDocument } from "../../src/models/format";
import { CompiledModel } from "../../src/models/predict";
import { constantModel, constantTree } from "./support";

/** A two-output model answering the first class of each output, with or without labels. */
function firstClasses(outputs: [ClassList, ClassList], labelMap: ModelDocument["label_map"]): CompiledModel {
  return new CompiledModel({
    ...constantModel("Rendah", "Rendah"),
    estimator: {
      kind: "multi_output",
      estimators: outputs.map((output) => ({
        kind: "decision_tree" as const,
        n_features: 1,
        outputs: [output],
        value_kind: "fractions" as const,
        tree: constantTree(output.values.map((_, index) => (index === 0 ? 1 : 0))),
      })),
    },
    label_map: labelMap,
  });
}

describe("model predict output", () => {
  test("the header, one LF-ended line per row, labels as they are", () => {
    expect(predictCsv(new CompiledModel(constantModel("Rendah", "Tinggi")), "S1\n3\n4\n")).toBe("stress,motivasi\nRendah,Tinggi\nRendah,Tinggi\n");
  });

  test("labels are quoted and neutralised as spreadsheet formulas", () => {
    const ints: ClassList = { type: "int", values: [0, 1] };
    const model = firstClasses([ints, { type: "int", values: [1, 0] }], [
      [0, "=SUM(A1)"],
      [1, 'Se,"dang"'],
    ]);
    expect(predictCsv(model, "S1\n3\n")).toBe(`stress,motivasi\n'=SUM(A1),"Se,""dang"""\n`);
  });

  test("string classes are texts too; numeric classes stay numbers in pandas' notation (one dtype for both columns)", () => {
    const texts = firstClasses([{ type: "string", values: ["-x", "y"] }, { type: "string", values: ["@y", "x"] }], null);
    expect(predictCsv(texts, "S1\n3\n")).toBe("stress,motivasi\n'-x,'@y\n");
    const numbers = firstClasses([{ type: "int", values: [-1, 1] }, { type: "float", values: [-0.5, 2] }], null);
    expect(predictCsv(numbers, "S1\n3\n")).toBe("stress,motivasi\n-1.0,-0.5\n");
  });
});
