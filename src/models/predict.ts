import { ModelFormatError, type CategoryValue, type ClassList, type Estimator, type InputType, type ModelDocument, type Transform, type TreeArrays } from "./format";
import { parseDecimal } from "../numbers";
import { InvalidInput } from "../errors";

/**
 * Prediction exactly as scikit-learn's `predict`: preprocessing in float64, then every
 * tree reads its input cast to float32 and goes left when `x <= threshold` (float64);
 * forests average their trees' leaf proportions in tree order and take the first maximum.
 */

/** One input value: a number, a text, or null when unknown. */
export type Cell = number | string | null;

/** One output: a class value and how sklearn would type it. */
export interface ClassValue {
  value: CategoryValue;
  type: ClassList["type"];
}

export class PredictionError extends InvalidInput {}

function invalid(message: string): never {
  throw new ModelFormatError(message);
}

// ---------------------------------------------------------------------------------------
// Preprocessing

/** What flows between steps: numbers, or category texts before an encoder. */
type CellKind = "number" | "string";

interface CompiledTransform {
  /** Output kinds for these input kinds; throws when a step cannot take them. */
  kinds(input: CellKind[]): CellKind[];
  apply(cells: Cell[]): Cell[];
}

/** A numeric step needs a number; missing values were filled by an imputer or refused before. */
function numberCell(cell: Cell, step: string): number {
  if (typeof cell !== "number") throw new PredictionError(`${step} menerima ${cell === null ? "nilai kosong" : "teks"}`);
  return cell;
}

function requireNumbers(input: CellKind[], step: string): void {
  if (input.some((kind) => kind !== "number")) invalid(`${step} menerima kolom teks`);
}

function requireWidth(input: CellKind[], width: number, step: string): void {
  if (input.length !== width) invalid(`${step} dibuat untuk ${width} kolom, menerima ${input.length}`);
}

/** Category lookup: numbers match numerically (3.5 = 3.50), texts exactly. */
function categoryIndex(categories: CategoryValue[], step: string): Map<CategoryValue, number> {
  const index = new Map<CategoryValue, number>();
  categories.forEach((value, position) => {
    if (index.has(value)) invalid(`${step}: kategori ganda ${JSON.stringify(value)}`);
    index.set(value, position);
  });
  return index;
}

function compileTransform(transform: Transform): CompiledTransform {
  switch (transform.kind) {
    case "passthrough":
      return { kinds: (input) => input, apply: (cells) => cells };

    case "pipeline": {
      const steps = transform.steps.map(compileTransform);
      return {
        kinds: (input) => steps.reduce((kinds, step) => step.kinds(kinds), input),
        apply: (cells) => steps.reduce((values, step) => step.apply(values), cells),
      };
    }

    case "standard_scaler": {
      const { mean, scale } = transform;
      const width = mean?.length ?? scale?.length;
      if (mean && scale && mean.length !== scale.length) invalid("standard_scaler: panjang mean dan scale berbeda");
      return {
        kinds: (input) => {
          requireNumbers(input, "standard_scaler");
          if (width !== undefined) requireWidth(input, width, "standard_scaler");
          return input;
        },
        // Two steps, as sklearn does them: subtract the mean, then divide by the scale.
        apply: (cells) =>
          cells.map((cell, index) => {
            let value = numberCell(cell, "standard_scaler");
            if (mean) value -= mean[index]!;
            if (scale) value /= scale[index]!;
            return value;
          }),
      };
    }

    case "simple_imputer": {
      const { fill } = transform;
      return {
        kinds: (input) => {
          requireWidth(input, fill.length, "simple_imputer");
          return input.map((kind, index) => {
            const fillKind = typeof fill[index] === "number" ? "number" : "string";
            if (fillKind !== kind) invalid(`simple_imputer: isian kolom ${index + 1} berupa ${fillKind}, kolomnya ${kind}`);
            return kind;
          });
        },
        apply: (cells) => cells.map((cell, index) => (cell === null || (typeof cell === "number" && Number.isNaN(cell)) ? fill[index]! : cell)),
      };
    }

    case "ordinal_encoder": {
      const indexes = transform.categories.map((values) => categoryIndex(values, "ordinal_encoder"));
      const { handle_unknown, unknown_value } = transform;
      return {
        kinds: (input) => {
          requireWidth(input, indexes.length, "ordinal_encoder");
          return input.map(() => "number");
        },
        apply: (cells) =>
          cells.map((cell, column) => {
            if (cell === null) throw new PredictionError("ordinal_encoder menerima nilai kosong");
            const position = indexes[column]!.get(cell);
            if (position !== undefined) return position;
            if (handle_unknown === "error") throw new PredictionError(`kategori tidak dikenal: ${JSON.stringify(cell)}`);
            return unknown_value ?? Number.NaN;
          }),
      };
    }

    case "one_hot_encoder": {
      const { categories, drop, handle_unknown } = transform;
      const indexes = categories.map((values) => categoryIndex(values, "one_hot_encoder"));
      if (drop.length !== categories.length) invalid("one_hot_encoder: panjang drop tidak sama dengan jumlah kolom");
      drop.forEach((dropped, column) => {
        if (dropped !== null && (dropped < 0 || dropped >= categories[column]!.length)) invalid("one_hot_encoder: indeks drop di luar kategori");
      });
      const widths = categories.map((values, column) => values.length - (drop[column] === null ? 0 : 1));
      const width = widths.reduce((total, size) => total + size, 0);
      return {
        kinds: (input) => {
          requireWidth(input, categories.length, "one_hot_encoder");
          return new Array<CellKind>(width).fill("number");
        },
        apply: (cells) => {
          const out = new Array<Cell>(width).fill(0);
          let offset = 0;
          cells.forEach((cell, column) => {
            if (cell === null) throw new PredictionError("one_hot_encoder menerima nilai kosong");
            const position = indexes[column]!.get(cell);
            const dropped = drop[column] ?? null;
            if (position === undefined) {
              if (handle_unknown === "error") throw new PredictionError(`kategori tidak dikenal: ${JSON.stringify(cell)}`);
            } else if (dropped === null || position < dropped) {
              out[offset + position] = 1;
            } else if (position > dropped) {
              out[offset + position - 1] = 1;
            }
            offset += widths[column]!;
          });
          return out;
        },
      };
    }

    case "pca": {
      const { mean, components, centering, whiten_scale } = transform;
      const inWidth = mean.length;
      const outWidth = components.length;
      if (components.some((row) => row.length !== inWidth)) invalid("pca: ukuran components tidak sama dengan mean");
      if (whiten_scale && whiten_scale.length !== outWidth) invalid("pca: panjang whiten_scale tidak sama dengan jumlah komponen");
      const flat = new Float64Array(components.flat());
      const dot = (values: ArrayLike<number>, component: number) => {
        let sum = 0;
        for (let feature = 0; feature < inWidth; feature++) sum += values[feature]! * flat[component * inWidth + feature]!;
        return sum;
      };
      // sklearn ≥ 1.4 projects first and subtracts the projected mean afterwards.
      const projectedMean = Array.from({ length: outWidth }, (_, component) => dot(mean, component));
      return {
        kinds: (input) => {
          requireNumbers(input, "pca");
          requireWidth(input, inWidth, "pca");
          return new Array<CellKind>(outWidth).fill("number");
        },
        apply: (cells) => {
          const values = cells.map((cell) => numberCell(cell, "pca"));
          const centred = centering === "before" ? values.map((value, feature) => value - mean[feature]!) : values;
          return Array.from({ length: outWidth }, (_, component) => {
            let value = dot(centred, component);
            if (centering === "after") value -= projectedMean[component]!;
            return whiten_scale ? value / whiten_scale[component]! : value;
          });
        },
      };
    }
  }
}

// ---------------------------------------------------------------------------------------
// Trees and their compositions

interface CompiledTree {
  left: Int32Array;
  right: Int32Array;
  feature: Int32Array;
  threshold: Float64Array;
  /** Per node, outputs × stride class weights: raw for single trees, proportions for forests. */
  value: Float64Array;
}

interface CompiledEstimator {
  nFeatures: number;
  nOutputs: number;
  /** `x` in float64; each tree casts it to float32 itself. */
  predict(x: Float64Array): ClassValue[];
}

function compileTree(tree: TreeArrays, nFeatures: number, nOutputs: number, stride: number, where: string): CompiledTree {
  const count = tree.left.length;
  if (count === 0) invalid(`${where}: pohon tanpa simpul`);
  if ([tree.right, tree.feature, tree.threshold].some((array) => array.length !== count)) invalid(`${where}: panjang larik pohon berbeda`);
  if (tree.value.length !== count * nOutputs * stride) invalid(`${where}: panjang value ${tree.value.length}, seharusnya ${count * nOutputs * stride}`);
  for (let node = 0; node < count; node++) {
    const left = tree.left[node]!;
    const right = tree.right[node]!;
    if (left === -1 && right === -1) continue;
    // Children always come after their parent in sklearn's trees; requiring it rules out cycles.
    if (left <= node || right <= node || left >= count || right >= count) invalid(`${where}: anak simpul ${node} tidak valid`);
    const feature = tree.feature[node]!;
    if (feature < 0 || feature >= nFeatures) invalid(`${where}: fitur simpul ${node} di luar 0–${nFeatures - 1}`);
  }
  return {
    left: Int32Array.from(tree.left),
    right: Int32Array.from(tree.right),
    feature: Int32Array.from(tree.feature),
    threshold: Float64Array.from(tree.threshold),
    value: Float64Array.from(tree.value),
  };
}

function leafOf(tree: CompiledTree, x: Float32Array): number {
  const { left, right, feature, threshold } = tree;
  let node = 0;
  while (left[node] !== -1) node = x[feature[node]!]! <= threshold[node]! ? left[node]! : right[node]!;
  return node;
}

/** sklearn's `check_array(dtype=float32)`: NaN, infinities and float32 overflow are refused. */
function toFloat32(x: Float64Array, nFeatures: number): Float32Array {
  if (x.length !== nFeatures) throw new PredictionError(`estimator dibuat untuk ${nFeatures} fitur, menerima ${x.length}`);
  const cast = new Float32Array(x);
  for (let index = 0; index < cast.length; index++) {
    if (!Number.isFinite(cast[index]!)) throw new PredictionError(`fitur ke-${index + 1} tidak berhingga atau kosong (${x[index]})`);
  }
  return cast;
}

/** Index of the largest of `count` values at `offset`; the first one wins a tie (np.argmax). */
function argmax(values: Float64Array, offset: number, count: number): number {
  let best = 0;
  for (let index = 1; index < count; index++) if (values[offset + index]! > values[offset + best]!) best = index;
  return best;
}

function checkClasses(outputs: ClassList[], where: string): void {
  for (const output of outputs) {
    for (const value of output.values) {
      if ((output.type === "string") !== (typeof value === "string")) invalid(`${where}: kelas ${JSON.stringify(value)} bukan ${output.type}`);
    }
  }
}

function compileEstimator(estimator: Estimator, where: string): CompiledEstimator {
  switch (estimator.kind) {
    case "decision_tree":
    case "forest": {
      const { n_features: nFeatures, outputs } = estimator;
      checkClasses(outputs, where);
      const nOutputs = outputs.length;
      const classCounts = outputs.map((output) => output.values.length);
      const stride = Math.max(...classCounts);
      const sources = estimator.kind === "forest" ? estimator.trees : [estimator.tree];
      const trees = sources.map((tree, index) => compileTree(tree, nFeatures, nOutputs, stride, `${where} pohon ${index}`));
      if (estimator.kind === "forest" && estimator.value_kind === "counts") {
        // sklearn < 1.4 stores weighted counts; each tree's predict_proba divides a leaf's
        // counts by their sum (left to right), a zero sum by 1.
        for (const tree of trees) {
          for (let base = 0; base < tree.value.length; base += stride) {
            const classes = classCounts[(base / stride) % nOutputs]!;
            let sum = 0;
            for (let index = 0; index < classes; index++) sum += tree.value[base + index]!;
            const normalizer = sum === 0 ? 1 : sum;
            for (let index = 0; index < classes; index++) tree.value[base + index]! /= normalizer;
          }
        }
      }
      const single = estimator.kind === "decision_tree";
      const scores = new Float64Array(nOutputs * stride);
      return {
        nFeatures,
        nOutputs,
        predict: (x) => {
          const xf = toFloat32(x, nFeatures);
          scores.fill(0);
          for (const tree of trees) {
            const base = leafOf(tree, xf) * nOutputs * stride;
            for (let output = 0; output < nOutputs; output++) {
              for (let index = 0; index < classCounts[output]!; index++) scores[output * stride + index]! += tree.value[base + output * stride + index]!;
            }
          }
          return outputs.map((output, k) => {
            // A single tree's predict takes the argmax of its stored values; a forest
            // divides its summed proportions by the number of trees first.
            if (!single) for (let index = 0; index < classCounts[k]!; index++) scores[k * stride + index]! /= trees.length;
            return { value: output.values[argmax(scores, k * stride, classCounts[k]!)]!, type: output.type };
          });
        },
      };
    }

    case "multi_output": {
      const parts = estimator.estimators.map((part, index) => compileEstimator(part, `${where} keluaran ${index}`));
      if (parts.some((part) => part.nOutputs !== 1)) invalid(`${where}: setiap estimator multi_output harus punya satu keluaran`);
      const nFeatures = parts[0]!.nFeatures;
      if (parts.some((part) => part.nFeatures !== nFeatures)) invalid(`${where}: jumlah fitur estimator multi_output berbeda`);
      return {
        nFeatures,
        nOutputs: parts.length,
        predict: (x) => unifyTypes(parts.map((part) => part.predict(x)[0]!)),
      };
    }

    case "classifier_chain": {
      const { order } = estimator;
      const parts = estimator.estimators.map((part, index) => compileEstimator(part, `${where} rantai ${index}`));
      const nOutputs = parts.length;
      if (order.length !== nOutputs || [...order].sort((a, b) => a - b).some((value, index) => value !== index)) {
        invalid(`${where}: order rantai harus permutasi 0–${nOutputs - 1}`);
      }
      const nFeatures = parts[0]!.nFeatures;
      parts.forEach((part, index) => {
        if (part.nOutputs !== 1) invalid(`${where}: setiap estimator rantai harus punya satu keluaran`);
        if (part.nFeatures !== nFeatures + index) invalid(`${where}: estimator rantai ${index} harus menerima ${nFeatures + index} fitur`);
      });
      return {
        nFeatures,
        nOutputs,
        predict: (x) => {
          // Each link sees the features followed by the earlier links' predictions (as float64).
          const augmented = new Float64Array(nFeatures + nOutputs);
          augmented.set(x);
          const results = new Array<ClassValue>(nOutputs);
          parts.forEach((part, index) => {
            const { value } = part.predict(augmented.subarray(0, nFeatures + index))[0]!;
            if (typeof value !== "number") throw new PredictionError("rantai pengklasifikasi butuh kelas berupa angka");
            augmented[nFeatures + index] = value;
            results[order[index]!] = { value, type: "float" };
          });
          return results;
        },
      };
    }
  }
}

/** `np.asarray([...]).T` of per-output predictions: one common dtype for all columns. */
function unifyTypes(values: ClassValue[]): ClassValue[] {
  if (values.every((value) => value.type === values[0]!.type)) return values;
  if (values.some((value) => value.type === "string")) return values.map((value) => ({ value: formatClassValue(value), type: "string" }));
  return values.map((value) => ({ value: value.value, type: "float" }));
}

/** Python's `repr` of a float: shortest digits, exponent outside 1e-4 ≤ |x| < 1e16. */
function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa, exponentText] = value.toExponential().split("e") as [string, string];
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) return `${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  const text = String(value);
  return text.includes(".") ? text : `${text}.0`;
}

/** A class value as pandas would write it to CSV. */
export function formatClassValue(value: ClassValue): string {
  if (typeof value.value === "string") return value.value;
  return value.type === "float" ? pythonFloat(value.value) : String(value.value);
}

// ---------------------------------------------------------------------------------------
// The whole model

export class CompiledModel {
  readonly inputNames: string[];
  readonly inputTypes: InputType[];
  readonly nOutputs: number;
  private readonly inputIndex = new Map<string, number>();
  /** Inputs that may be missing because a SimpleImputer fills them first. */
  private readonly imputed: boolean[];
  private readonly parts: { columns: Int32Array; transform: CompiledTransform }[] | null;
  private readonly width: number;
  private readonly estimator: CompiledEstimator;
  private readonly labels: { numbers: Map<number, string>; texts: Map<string, string> } | null;

  constructor(readonly document: ModelDocument) {
    this.inputNames = document.inputs.map((input) => input.name);
    this.inputTypes = document.inputs.map((input) => input.type);
    this.inputNames.forEach((name, index) => {
      if (this.inputIndex.has(name)) invalid(`masukan ganda: ${name}`);
      this.inputIndex.set(name, index);
    });
    this.imputed = this.inputNames.map(() => false);
    this.estimator = compileEstimator(document.estimator, "estimator");
    this.nOutputs = this.estimator.nOutputs;
    if (this.nOutputs > 2) invalid(`model memprediksi ${this.nOutputs} keluaran; yang didukung 1 (satu jenis) atau 2 (stress, motivasi)`);

    if (document.preprocess) {
      let width = 0;
      this.parts = document.preprocess.parts.map((part) => {
        const columns = Int32Array.from(part.columns, (name) => this.inputIndex.get(name) ?? invalid(`bagian ${part.name}: kolom ${name} bukan masukan model`));
        const transform = compileTransform(part.transform);
        const kinds = transform.kinds(Array.from(columns, (column) => this.inputTypes[column]!));
        if (kinds.some((kind) => kind !== "number")) invalid(`bagian ${part.name} menghasilkan teks, bukan angka`);
        if (startsWithImputer(part.transform)) columns.forEach((column) => (this.imputed[column] = true));
        width += kinds.length;
        return { columns, transform };
      });
      this.width = width;
    } else {
      if (this.inputTypes.some((type) => type !== "number")) invalid("model tanpa preprocess hanya menerima masukan angka");
      this.parts = null;
      this.width = this.inputNames.length;
    }
    if (this.width !== this.estimator.nFeatures) invalid(`preprocess menghasilkan ${this.width} fitur, estimator menerima ${this.estimator.nFeatures}`);

    this.labels = document.label_map && {
      numbers: new Map(document.label_map.filter(([key]) => typeof key === "number") as [number, string][]),
      texts: new Map(document.label_map.filter(([key]) => typeof key === "string") as [string, string][]),
    };
  }

  /** Class values for one row given in `inputNames` order. */
  predictClasses(row: readonly Cell[]): ClassValue[] {
    return this.estimator.predict(this.features(row));
  }

  /** The preprocessed float64 feature vector the estimator reads (ColumnTransformer order). */
  features(row: readonly Cell[]): Float64Array {
    if (row.length !== this.inputNames.length) throw new PredictionError(`baris berisi ${row.length} nilai, model menerima ${this.inputNames.length}`);
    row.forEach((cell, index) => {
      const type = this.inputTypes[index]!;
      if (cell === null || (typeof cell === "number" && Number.isNaN(cell))) {
        if (!this.imputed[index]) throw new PredictionError(`${this.inputNames[index]} kosong`);
      } else if (typeof cell !== (type === "number" ? "number" : "string")) {
        throw new PredictionError(`${this.inputNames[index]} harus berupa ${type === "number" ? "angka" : "teks"}`);
      }
    });
    const x = new Float64Array(this.width);
    if (this.parts) {
      let offset = 0;
      for (const part of this.parts) {
        const values = part.transform.apply(Array.from(part.columns, (column) => row[column]!));
        for (const value of values) {
          // An input that one part imputes may reach another part unimputed.
          if (typeof value !== "number") throw new PredictionError("nilai kosong atau teks sampai ke estimator");
          x[offset++] = value;
        }
      }
    } else {
      row.forEach((cell, index) => (x[index] = cell as number));
    }
    return x;
  }

  /** Output texts for one row: labels through `label_map`, else the class values. */
  predictRow(row: readonly Cell[]): string[] {
    return this.predictClasses(row).map((value) => this.label(value));
  }

  /**
   * A row from named features, converting between the two input types where the meaning
   * is plain (a digit string for a number input, a number for a text input).
   */
  rowFromFeatures(features: Readonly<Record<string, Cell | undefined>>): Cell[] {
    return this.inputNames.map((name, index) => {
      const value = features[name];
      if (value === undefined || value === null) return null;
      if (this.inputTypes[index] === "string") return typeof value === "string" ? value : String(value);
      if (typeof value === "number") return value;
      return parseDecimal(value) ?? failInput(`${name} harus berupa angka, bukan ${JSON.stringify(value)}`);
    });
  }

  private label(value: ClassValue): string {
    if (!this.labels) return formatClassValue(value);
    const label = typeof value.value === "number" ? this.labels.numbers.get(value.value) : this.labels.texts.get(value.value);
    if (label === undefined) throw new PredictionError(`kelas ${formatClassValue(value)} tidak ada dalam label_map`);
    return label;
  }
}

function failInput(message: string): never {
  throw new PredictionError(message);
}

function startsWithImputer(transform: Transform): boolean {
  if (transform.kind === "simple_imputer") return true;
  if (transform.kind !== "pipeline") return false;
  const first = transform.steps.find((step) => step.kind !== "passthrough");
  return first !== undefined && startsWithImputer(first);
}

