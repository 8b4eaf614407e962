import { describe, expect, test } from "bun:test";
import { ServiceError } from "../../src/errors";
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

describe("model predict input", () => {
  const model = new CompiledModel(constantModel("Rendah", "Tinggi"));

  test.each([
    ["id", "id,S1\nA-1,3\nA-2,4\n", "id,stress,motivasi\nA-1,Rendah,Tinggi\nA-2,Rendah,Tinggi\n"],
    ["NIM, any case, after the inputs", "S1,nim\n3,2301001\n", "nim,stress,motivasi\n2301001,Rendah,Tinggi\n"],
    ["no identifying column", "S1,catatan\n3,x\n", "stress,motivasi\nRendah,Tinggi\n"],
    ["an id that could be a formula", "ID,S1\n=1+1,3\n", "ID,stress,motivasi\n'=1+1,Rendah,Tinggi\n"],
  ])("an identifying column is carried through: %s", (_name, input, output) => {
    expect(predictCsv(model, input)).toBe(output);
  });

  /** The error a bad input raises: its message and the listed rows. */
  function refusal(input: string, predicting = model): { message: string; lines: string[] } {
    try {
      predictCsv(predicting, input);
    } catch (error) {
      if (error instanceof ServiceError) return { message: error.message, lines: error.details.lines ?? [] };
      throw error;
    }
    throw new Error("predictCsv accepted the input");
  }

  test("every bad row is reported with its line, each with all its bad cells; nothing is predicted", () => {
    const input = ["id,S1,S2", "a,3,4", "b,tiga,4", "c,3", "d,x,y", "e,3,4,5"].join("\n") + "\n";
    // The constant model reading two inputs, S1 and S2.
    const document = JSON.parse(JSON.stringify(constantModel("Rendah", "Tinggi"))) as ModelDocument & { estimator: { estimators: { n_features: number }[] } };
    document.inputs = [
      { name: "S1", type: "number" },
      { name: "S2", type: "number" },
    ];
    for (const estimator of document.estimator.estimators) estimator.n_features = 2;
    const { message, lines } = refusal(input, new CompiledModel(document));
    expect(message).toBe("4 baris tidak dapat diprediksi; tidak ada keluaran yang ditulis.");
    expect(lines).toEqual([
      'baris 3: S1 bukan angka: "tiga"',
      "baris 4: 2 kolom, header 3 kolom",
      'baris 5: S1 bukan angka: "x"; S2 bukan angka: "y"',
      "baris 6: 4 kolom, header 3 kolom",
    ]);
  });

  test("at most 100 bad rows are listed, the rest counted", () => {
    const input = "S1\n" + Array.from({ length: 150 }, () => "x").join("\n") + "\n";
    const { message, lines } = refusal(input);
    expect(message).toBe("150 baris tidak dapat diprediksi; tidak ada keluaran yang ditulis.");
    expect(lines).toHaveLength(101);
    expect(lines[0]).toBe('baris 2: S1 bukan angka: "x"');
    expect(lines[100]).toBe("... dan 50 baris lain");
  });
});

describe("model predict input from an Indonesian spreadsheet", () => {
  const document = JSON.parse(JSON.stringify(constantModel("Rendah", "Tinggi"))) as ModelDocument;
  document.inputs = [{ name: "S1", type: "number" }];
  const model = new CompiledModel(document);

  test.each([
    ["';' with decimal commas", "NIM;S1;catatan\r\n2301001;3,5;a, b\r\n2301002;4;x\r\n"],
    ["tabs with decimal commas", "NIM\tS1\n2301001\t3,5\n2301002\t4\n"],
    ["',' with decimal points", "NIM,S1\n2301001,3.5\n2301002,4\n"],
  ])("%s", (_name, input) => {
    expect(predictCsv(model, input)).toBe("NIM,stress,motivasi\n2301001,Rendah,Tinggi\n2301002,Rendah,Tinggi\n");
  });

  test("with ',' between fields a decimal comma is no number", () => {
    expect(() => predictCsv(model, 'S1\n"3,5"\n')).toThrow("1 baris tidak dapat diprediksi");
  });
});
