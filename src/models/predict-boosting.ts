import type { BoostingDecision, ClassList, Estimator, HistogramTree } from "./format";
import { argmax, expit, normalizedExp, softmax } from "./predict-math";
import { checkClasses, compiledEstimator, compileTree, leafOf, toFloat32, type CompiledEstimator } from "./predict-trees";
import { PredictionError, invalidModel, type EstimatorOutput } from "./predict-values";

/**
 * GradientBoosting and HistGradientBoosting: raw scores start at the baseline and add each
 * tree's leaf value in stage order (GradientBoosting multiplies it by the learning rate
 * first; HistGradientBoosting stored it already shrunk). GradientBoosting's trees read the
 * float32 cast of the features; HistGradientBoosting's read float64, send a missing value
 * where training decided, and split categories by bitsets.
 */

/**
 * The class and probabilities from raw scores (one score for two classes). From 1.4 a
 * binary GradientBoosting answers the second class at a score of exactly 0 and
 * HistGradientBoosting the first (`>= 0` and `> 0` in their code).
 */
function decide(raw: Float64Array, output: ClassList, decision: BoostingDecision, zeroIsPositive: boolean): EstimatorOutput {
  if (raw.length === 1) {
    const positive = expit(raw[0]!);
    const probabilities = Float64Array.of(1 - positive, positive);
    // 1.4+ compares the raw score with 0; earlier versions took the larger probability.
    const chosen = decision === "raw" ? (raw[0]! > 0 || (zeroIsPositive && raw[0] === 0) ? 1 : 0) : positive > 1 - positive ? 1 : 0;
    return { value: output.values[chosen]!, type: output.type, probabilities };
  }
  const probabilities = decision === "raw" ? softmax(raw) : normalizedExp(raw);
  return { value: output.values[argmax(decision === "raw" ? raw : probabilities)]!, type: output.type, probabilities };
}

function checkShape(outputs: [ClassList], baseline: number[], perStage: number[], where: string): void {
  checkClasses(outputs, where);
  const classes = outputs[0].values.length;
  const columns = classes === 2 ? 1 : classes;
  if (classes < 2) invalidModel(`${where}: butuh sedikitnya dua kelas`);
  if (baseline.length !== columns) invalidModel(`${where}: baseline berisi ${baseline.length} nilai, seharusnya ${columns}`);
  if (perStage.some((count) => count !== columns)) invalidModel(`${where}: setiap tahap harus berisi ${columns} pohon`);
}

export function compileGradientBoosting(estimator: Extract<Estimator, { kind: "gradient_boosting" }>, where: string): CompiledEstimator {
  const { n_features: nFeatures, outputs, baseline, learning_rate: learningRate, decision } = estimator;
  checkShape(outputs, baseline, estimator.stages.map((stage) => stage.length), where);
  const stages = estimator.stages.map((stage, index) => stage.map((tree, k) => compileTree(tree, nFeatures, 1, `${where} tahap ${index} pohon ${k}`)));
  const raw = new Float64Array(baseline.length);
  return compiledEstimator(nFeatures, outputs, false, (x) => {
    const xf = toFloat32(x, nFeatures);
    raw.set(baseline);
    for (const stage of stages) {
      for (let k = 0; k < stage.length; k++) {
        const tree = stage[k]!;
        raw[k]! += learningRate * tree.value[leafOf(tree, xf)]!;
      }
    }
    return [decide(raw, outputs[0], decision, true)];
  });
}

/** A HistGradientBoosting tree as typed arrays; `flags`: 1 a missing value goes left, 2 a categorical split. */
interface CompiledHistogramTree {
  left: Int32Array;
  right: Int32Array;
  feature: Int32Array;
  threshold: Float64Array;
  flags: Uint8Array;
  bitset: Int32Array;
  value: Float64Array;
  bitsets: Uint32Array;
}

function compileHistogramTree(tree: HistogramTree, nFeatures: number, where: string): CompiledHistogramTree {
  const checked = compileTree(tree, nFeatures, 1, where);
  const count = tree.left.length;
  if ([tree.missing_left, tree.categorical, tree.bitset].some((array) => array.length !== count)) invalidModel(`${where}: panjang larik pohon berbeda`);
  const flags = new Uint8Array(count);
  for (let node = 0; node < count; node++) {
    const categorical = checked.left[node] !== -1 && tree.categorical[node] === 1;
    if (categorical && (tree.bitset[node]! < 0 || tree.bitset[node]! >= tree.bitsets.length)) invalidModel(`${where}: bitset simpul ${node} tidak ada`);
    // A leaf's feature is never read; 0 keeps the array's values valid indexes.
    if (checked.left[node] === -1) checked.feature[node] = 0;
    flags[node] = (tree.missing_left[node] === 1 ? 1 : 0) | (categorical ? 2 : 0);
  }
  return { ...checked, flags, bitset: Int32Array.from(tree.bitset), bitsets: Uint32Array.from(tree.bitsets.flat()) };
}

function inBitset(bitsets: Uint32Array, row: number, code: number): boolean {
  return ((bitsets[row * 8 + (code >>> 5)]! >>> (code & 31)) & 1) === 1;
}

/** The category code scikit-learn's C cast `(unsigned char)x` gives on x86-64 (truncate to int32, keep the low byte). */
function categoryCode(value: number): number {
  return (value < 2147483648 ? Math.trunc(value) | 0 : 0) & 255;
}

/** Where a categorical split sends a value: its bitset, else right when known in training, else with the missing values. */
function categoryGoesLeft(tree: CompiledHistogramTree, node: number, value: number, known: (Uint32Array | null)[]): boolean {
  const missingLeft = (tree.flags[node]! & 1) === 1;
  if (Number.isNaN(value) || value < 0) return missingLeft;
  const code = categoryCode(value);
  if (inBitset(tree.bitsets, tree.bitset[node]!, code)) return true;
  const knownCodes = known[tree.feature[node]!];
  // A category not seen in training goes where missing values go.
  return knownCodes && inBitset(knownCodes, 0, code) ? false : missingLeft;
}

/** The value of the leaf a row reaches. */
function histogramLeafValue(tree: CompiledHistogramTree, x: Float64Array, known: (Uint32Array | null)[]): number {
  const { left, right, feature, threshold, flags } = tree;
  let node = 0;
  while (left[node] !== -1) {
    const value = x[feature[node]!]!;
    const flag = flags[node]!;
    // NaN compares false: only then is it asked whether the value is missing.
    const goLeft = flag < 2 ? value <= threshold[node]! || (flag === 1 && Number.isNaN(value)) : categoryGoesLeft(tree, node, value, known);
    node = goLeft ? left[node]! : right[node]!;
  }
  return tree.value[node]!;
}

export function compileHistGradientBoosting(estimator: Extract<Estimator, { kind: "hist_gradient_boosting" }>, where: string): CompiledEstimator {
  const { n_features: nFeatures, outputs, baseline, decision } = estimator;
  checkShape(outputs, baseline, estimator.iterations.map((iteration) => iteration.length), where);
  if (estimator.known_categories.length !== nFeatures) invalidModel(`${where}: known_categories harus berisi ${nFeatures} fitur`);
  const known = estimator.known_categories.map((codes) => {
    if (codes === null) return null;
    const bitset = new Uint32Array(8);
    for (const code of codes) {
      if (code < 0 || code > 255) invalidModel(`${where}: kode kategori ${code} di luar 0–255`);
      bitset[code >>> 5]! |= 1 << (code & 31);
    }
    return bitset;
  });
  const iterations = estimator.iterations.map((iteration, index) => iteration.map((tree, k) => compileHistogramTree(tree, nFeatures, `${where} iterasi ${index} pohon ${k}`)));
  const raw = new Float64Array(baseline.length);
  return compiledEstimator(nFeatures, outputs, true, (x) => {
    if (x.length !== nFeatures) throw new PredictionError(`estimator dibuat untuk ${nFeatures} fitur, menerima ${x.length}`);
    // np.zeros + baseline: the same value, and -0 becomes 0 as there.
    for (let k = 0; k < raw.length; k++) raw[k] = 0 + baseline[k]!;
    for (const iteration of iterations) {
      for (let k = 0; k < iteration.length; k++) {
        const tree = iteration[k]!;
        raw[k]! += histogramLeafValue(tree, x, known);
      }
    }
    return [decide(raw, outputs[0], decision, false)];
  });
}
