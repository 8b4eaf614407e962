import type { ClassList, Estimator, TreeArrays } from "./format";
import { PredictionError, formatClassValue, invalidModel, type ClassValue } from "./predict-values";

/**
 * Trees and their compositions (forests, multi-output, classifier chains) compiled once
 * per model: every tree reads its input cast to float32 and goes left when
 * `x <= threshold` (float64); forests average their trees' leaf proportions in tree order
 * and take the first maximum.
 */

interface CompiledTree {
  left: Int32Array;
  right: Int32Array;
  feature: Int32Array;
  threshold: Float64Array;
  /** Per node, outputs × stride class weights: raw for single trees, proportions for forests. */
  value: Float64Array;
}

export interface CompiledEstimator {
  nFeatures: number;
  nOutputs: number;
  /** `x` in float64; each tree casts it to float32 itself. */
  predict(x: Float64Array): ClassValue[];
}

function compileTree(tree: TreeArrays, nFeatures: number, nOutputs: number, stride: number, where: string): CompiledTree {
  const count = tree.left.length;
  if (count === 0) invalidModel(`${where}: pohon tanpa simpul`);
  if ([tree.right, tree.feature, tree.threshold].some((array) => array.length !== count)) invalidModel(`${where}: panjang larik pohon berbeda`);
  if (tree.value.length !== count * nOutputs * stride) invalidModel(`${where}: panjang value ${tree.value.length}, seharusnya ${count * nOutputs * stride}`);
  for (let node = 0; node < count; node++) {
    const left = tree.left[node]!;
    const right = tree.right[node]!;
    if (left === -1 && right === -1) continue;
    // Children always come after their parent in sklearn's trees; requiring it rules out cycles.
    if (left <= node || right <= node || left >= count || right >= count) invalidModel(`${where}: anak simpul ${node} tidak valid`);
    const feature = tree.feature[node]!;
    if (feature < 0 || feature >= nFeatures) invalidModel(`${where}: fitur simpul ${node} di luar 0–${nFeatures - 1}`);
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
      if ((output.type === "string") !== (typeof value === "string")) invalidModel(`${where}: kelas ${JSON.stringify(value)} bukan ${output.type}`);
    }
  }
}

export function compileEstimator(estimator: Estimator, where: string): CompiledEstimator {
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
      if (parts.some((part) => part.nOutputs !== 1)) invalidModel(`${where}: setiap estimator multi_output harus punya satu keluaran`);
      const nFeatures = parts[0]!.nFeatures;
      if (parts.some((part) => part.nFeatures !== nFeatures)) invalidModel(`${where}: jumlah fitur estimator multi_output berbeda`);
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
        invalidModel(`${where}: order rantai harus permutasi 0–${nOutputs - 1}`);
      }
      const nFeatures = parts[0]!.nFeatures;
      parts.forEach((part, index) => {
        if (part.nOutputs !== 1) invalidModel(`${where}: setiap estimator rantai harus punya satu keluaran`);
        if (part.nFeatures !== nFeatures + index) invalidModel(`${where}: estimator rantai ${index} harus menerima ${nFeatures + index} fitur`);
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
