import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelDocument, TreeArrays } from "../../src/models/format";

export const fixturesDir = "/work/shared/fixtures/models";
export const sklearnDir = join(fixturesDir, "sklearn-1.2");
export const originalDir = join(fixturesDir, "original");

export const sklearnFixtures = [
  "a_chain_rf",
  "b_multioutput_rf",
  "c_onehot_nested_chain",
  "d_extratrees_chain",
  "e_decision_tree_multioutput",
  "f_pca_onehot_sparse",
  "g_bare_pipeline",
  "h_bare_forest_strings",
] as const;

export const originalFixtures = ["model_chain_final", "model_v1", "model_V11"] as const;

export function fixtureBytes(path: string): Uint8Array {
  return new Uint8Array(readFileSync(path));
}

/**
 * Hand-made pickles: each method appends one opcode with its argument bytes, so a test
 * reads as the opcode listing `pickletools.dis` would print.
 */
export class PickleBuilder {
  private readonly parts: number[] = [];

  constructor(protocol = 4) {
    this.parts.push(0x80, protocol);
  }

  op(code: number, ...bytes: number[]): this {
    this.parts.push(code, ...bytes);
    return this;
  }

  raw(bytes: ArrayLike<number>): this {
    for (let index = 0; index < bytes.length; index++) this.parts.push(bytes[index]!);
    return this;
  }

  u32(value: number): number[] {
    return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
  }

  u64(value: number): number[] {
    return [...this.u32(value), 0, 0, 0, 0];
  }

  frame(length: number): this {
    return this.op(0x95, ...this.u64(length));
  }

  mark = () => this.op(0x28);
  stop = () => this.op(0x2e);
  none = () => this.op(0x4e);
  int1 = (value: number) => this.op(0x4b, value);
  int2 = (value: number) => this.op(0x4d, value & 0xff, value >> 8);
  int4 = (value: number) => this.op(0x4a, ...this.u32(value));
  put = (index: number) => this.op(0x71, index);
  get = (index: number) => this.op(0x68, index);
  memoize = () => this.op(0x94);
  tuple1 = () => this.op(0x85);
  tuple2 = () => this.op(0x86);
  tuple3 = () => this.op(0x87);
  emptyTuple = () => this.op(0x29);
  emptyList = () => this.op(0x5d);
  emptyDict = () => this.op(0x7d);
  append = () => this.op(0x61);
  appends = () => this.op(0x65);
  setitem = () => this.op(0x73);
  setitems = () => this.op(0x75);
  reduce = () => this.op(0x52);
  newobj = () => this.op(0x81);
  build = () => this.op(0x62);
  stackGlobal = () => this.op(0x93);

  float(value: number): this {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, value, false);
    return this.op(0x47, ...bytes);
  }

  str(text: string): this {
    const bytes = new TextEncoder().encode(text);
    return bytes.length < 256 ? this.op(0x8c, bytes.length, ...bytes) : this.op(0x58, ...this.u32(bytes.length), ...bytes);
  }

  bytes(data: ArrayLike<number>): this {
    return data.length < 256 ? this.op(0x43, data.length).raw(data) : this.op(0x42, ...this.u32(data.length)).raw(data);
  }

  /** `GLOBAL` with the protocol-2 text form "module\nname\n". */
  global(module: string, name: string): this {
    return this.op(0x63, ...new TextEncoder().encode(`${module}\n${name}\n`));
  }

  /** `numpy.dtype(code, False, True)` with its BUILD state (version 3). */
  dtype(code: string, order = "<", itemsize = -1): this {
    this.global("numpy", "dtype").str(code).op(0x89).op(0x88).tuple3().reduce();
    return this.mark().int1(3).str(order).none().none().none().int4(itemsize).int4(-1).int1(0).op(0x74).build();
  }

  /** A joblib NumpyArrayWrapper record (BUILD included); the caller appends the array bytes. */
  wrapper(code: string, shape: number[], options: { order?: "C" | "F"; alignment?: number | null | undefined } = {}): this {
    this.global("joblib.numpy_pickle", "NumpyArrayWrapper").emptyTuple().newobj();
    this.emptyDict().mark();
    this.str("subclass").global("numpy", "ndarray");
    this.str("shape").mark();
    for (const size of shape) this.int4(size);
    this.op(0x74);
    this.str("order").str(options.order ?? "C");
    this.str("dtype").dtype(code);
    this.str("allow_mmap").op(0x88);
    if (options.alignment !== undefined) {
      this.str("numpy_array_alignment_bytes");
      if (options.alignment === null) this.none();
      else this.int1(options.alignment);
    }
    return this.setitems().build();
  }

  get length(): number {
    return this.parts.length;
  }

  done(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

export function float64Bytes(values: number[]): Uint8Array {
  return new Uint8Array(Float64Array.from(values).buffer);
}

/** A one-node tree: every row lands in the root leaf with these class weights. */
export function constantTree(weights: number[]): TreeArrays {
  return { left: [-1], right: [-1], feature: [-2], threshold: [-2], value: weights };
}

/**
 * A two-output JSON model that always answers the given labels, reading the 75 inputs of
 * the questionnaire (the inputs are declared but the single-leaf trees ignore them).
 */
export function constantModel(stress: "Rendah" | "Sedang" | "Tinggi", motivasi: "Rendah" | "Sedang" | "Tinggi"): ModelDocument {
  const levels = ["Rendah", "Sedang", "Tinggi"];
  const weights = (level: string) => levels.map((candidate) => (candidate === level ? 1 : 0));
  return {
    format: "skrining-model",
    format_version: 1,
    algorithm: `constant ${stress}/${motivasi}`,
    version: "test 1",
    inputs: [{ name: "S1", type: "number" }],
    preprocess: null,
    estimator: {
      kind: "multi_output",
      estimators: [stress, motivasi].map((level) => ({
        kind: "decision_tree" as const,
        n_features: 1,
        outputs: [{ type: "int" as const, values: [0, 1, 2] }],
        value_kind: "fractions" as const,
        tree: constantTree(weights(level)),
      })),
    },
    label_map: [
      [0, "Rendah"],
      [1, "Sedang"],
      [2, "Tinggi"],
    ],
  };
}
