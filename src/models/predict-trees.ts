import type { ClassList, Estimator, TreeArrays } from "./format";
import { argmax } from "./predict-math";
import { PredictionError, invalidModel, type EstimatorOutput } from "./predict-values";

/**
 * Decision trees and forests: every tree reads its input cast to float32 and goes left
 * when `x <= threshold` (float64); forests average their trees' leaf proportions in tree
 * order and take the first maximum.
 */

export interface CompiledEstimator {
  nFeatures: number;
  nOutputs: number;
  /** The classes of each output, in the order of its probabilities. */
  outputs: ClassList[];
  /** Whether a NaN feature is routed by the model (HistGradientBoosting) instead of refused. */
  acceptsMissing: boolean;
  /** `x` in float64; trees cast it to float32 themselves. */
  predict(x: Float64Array): EstimatorOutput[];
}

/** A compiled estimator: as many outputs as it has class lists. */
export function compiledEstimator(nFeatures: number, outputs: ClassList[], acceptsMissing: boolean, predict: CompiledEstimator["predict"]): CompiledEstimator {
  return { nFeatures, nOutputs: outputs.length, outputs, acceptsMissing, predict };
}

export interface CompiledTree {
  left: Int32Array;
  right: Int32Array;
  feature: Int32Array;
  threshold: Float64Array;
  /** Per node: outputs × stride class weights (raw for single trees, proportions for forests), or one regression value. */
  value: Float64Array;
}

/** Checks the node arrays of any tree kind; `valuesPerNode` values belong to each node. */
export function compileTree(tree: Omit<TreeArrays, "value"> & { value: number[] }, nFeatures: number, valuesPerNode: number, where: string): CompiledTree {
  const count = tree.left.length;
  if (count === 0) invalidModel(`${where}: pohon tanpa simpul`);
  if ([tree.right, tree.feature, tree.threshold].some((array) => array.length !== count)) invalidModel(`${where}: panjang larik pohon berbeda`);
  if (tree.value.length !== count * valuesPerNode) invalidModel(`${where}: panjang value ${tree.value.length}, seharusnya ${count * valuesPerNode}`);
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

export function leafOf(tree: CompiledTree, x: Float32Array): number {
  const { left, right, feature, threshold } = tree;
  let node = 0;
  while (left[node] !== -1) node = x[feature[node]!]! <= threshold[node]! ? left[node]! : right[node]!;
  return node;
}

/** sklearn's `check_array(dtype=float32)`: NaN, infinities and float32 overflow are refused. */
export function toFloat32(x: Float64Array, nFeatures: number): Float32Array {
  if (x.length !== nFeatures) throw new PredictionError(`estimator dibuat untuk ${nFeatures} fitur, menerima ${x.length}`);
  const cast = new Float32Array(x);
  for (let index = 0; index < cast.length; index++) {
    if (!Number.isFinite(cast[index]!)) throw new PredictionError(`fitur ke-${index + 1} tidak berhingga atau kosong (${x[index]})`);
  }
  return cast;
}

export function checkClasses(outputs: ClassList[], where: string): void {
  for (const output of outputs) {
    for (const value of output.values) {
      if ((output.type === "string") !== (typeof value === "string")) invalidModel(`${where}: kelas ${JSON.stringify(value)} bukan ${output.type}`);
    }
  }
}

export function compileTreeEnsemble(estimator: Extract<Estimator, { kind: "decision_tree" | "forest" }>, where: string): CompiledEstimator {
  const { n_features: nFeatures, outputs } = estimator;
  checkClasses(outputs, where);
  const nOutputs = outputs.length;
  const classCounts = outputs.map((output) => output.values.length);
  const stride = Math.max(...classCounts);
  const sources = estimator.kind === "forest" ? estimator.trees : [estimator.tree];
  const trees = sources.map((tree, index) => compileTree(tree, nFeatures, nOutputs * stride, `${where} pohon ${index}`));
  const counts = estimator.value_kind === "counts";
  const single = estimator.kind === "decision_tree";
  if (!single && counts) {
    // sklearn < 1.4 stores weighted counts; each tree's predict_proba divides a leaf's
    // counts by their sum (left to right), a zero sum by 1.
    for (const tree of trees) normalizeLeaves(tree.value, classCounts, stride, nOutputs);
  }
  const scores = new Float64Array(nOutputs * stride);
  return {
    nFeatures,
    nOutputs,
    outputs,
    acceptsMissing: false,
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
        const classes = classCounts[k]!;
        const probabilities = scores.slice(k * stride, k * stride + classes);
        // A single tree's predict takes the argmax of its stored values and its predict_proba
        // normalises counts (fractions are used as stored); a forest divides its summed
        // proportions by the number of trees, then takes the argmax.
        let chosen: number;
        if (single) {
          chosen = argmax(probabilities);
          if (counts) normalizeLeaves(probabilities, [classes], classes, 1);
        } else {
          for (let index = 0; index < classes; index++) probabilities[index]! /= trees.length;
          chosen = argmax(probabilities);
        }
        return { value: output.values[chosen]!, type: output.type, probabilities };
      });
    },
  };
}

/** Each stride-wide group divided by its sum (a zero sum by 1), as sklearn's tree predict_proba. */
function normalizeLeaves(values: Float64Array, classCounts: number[], stride: number, nOutputs: number): void {
  for (let base = 0; base < values.length; base += stride) {
    const classes = classCounts[(base / stride) % nOutputs]!;
    let sum = 0;
    for (let index = 0; index < classes; index++) sum += values[base + index]!;
    const normalizer = sum === 0 ? 1 : sum;
    for (let index = 0; index < classes; index++) values[base + index]! /= normalizer;
  }
}
