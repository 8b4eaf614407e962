import type { Estimator, Transform } from "./format";
import { compileGradientBoosting, compileHistGradientBoosting } from "./predict-boosting";
import { compileGaussianNb, compileLinear } from "./predict-linear";
import { argmax } from "./predict-math";
import { compileTransform } from "./predict-transforms";
import { compiledEstimator, compileTreeEnsemble, type CompiledEstimator } from "./predict-trees";
import { PredictionError, formatClassValue, invalidModel, type EstimatorOutput } from "./predict-values";

export type { CompiledEstimator } from "./predict-trees";

/**
 * Every estimator kind compiled once per model: the single estimators (predict-trees.ts,
 * predict-linear.ts, predict-boosting.ts) and what combines them: multi-output,
 * classifier chains, voting and a member's own pipeline.
 */

export function compileEstimator(estimator: Estimator, where: string): CompiledEstimator {
  switch (estimator.kind) {
    case "decision_tree":
    case "forest":
      return compileTreeEnsemble(estimator, where);
    case "linear":
      return compileLinear(estimator, where);
    case "gaussian_nb":
      return compileGaussianNb(estimator, where);
    case "gradient_boosting":
      return compileGradientBoosting(estimator, where);
    case "hist_gradient_boosting":
      return compileHistGradientBoosting(estimator, where);
    case "multi_output":
      return compileMultiOutput(estimator, where);
    case "classifier_chain":
      return compileChain(estimator, where);
    case "voting":
      return compileVoting(estimator, where);
    case "pipeline":
      return compilePipeline(estimator, where);
  }
}

function singleOutputParts(estimators: Estimator[], where: string, what: string): CompiledEstimator[] {
  const parts = estimators.map((part, index) => compileEstimator(part, `${where} ${what} ${index}`));
  if (parts.some((part) => part.nOutputs !== 1)) invalidModel(`${where}: setiap estimator ${what} harus punya satu keluaran`);
  return parts;
}

function compileMultiOutput(estimator: Extract<Estimator, { kind: "multi_output" }>, where: string): CompiledEstimator {
  const parts = singleOutputParts(estimator.estimators, where, "keluaran");
  const nFeatures = parts[0]!.nFeatures;
  if (parts.some((part) => part.nFeatures !== nFeatures)) invalidModel(`${where}: jumlah fitur estimator multi_output berbeda`);
  return compiledEstimator(nFeatures, parts.map((part) => part.outputs[0]!), parts.every((part) => part.acceptsMissing), (x) => unifyTypes(parts.map((part) => part.predict(x)[0]!)));
}

function compileChain(estimator: Extract<Estimator, { kind: "classifier_chain" }>, where: string): CompiledEstimator {
  const { order } = estimator;
  const parts = singleOutputParts(estimator.estimators, where, "rantai");
  const nOutputs = parts.length;
  if (order.length !== nOutputs || [...order].sort((a, b) => a - b).some((value, index) => value !== index)) {
    invalidModel(`${where}: order rantai harus permutasi 0–${nOutputs - 1}`);
  }
  const nFeatures = parts[0]!.nFeatures;
  parts.forEach((part, index) => {
    if (part.nFeatures !== nFeatures + index) invalidModel(`${where}: estimator rantai ${index} harus menerima ${nFeatures + index} fitur`);
  });
  const outputs = new Array(nOutputs);
  parts.forEach((part, index) => (outputs[order[index]!] = { ...part.outputs[0]!, type: "float" }));
  return {
    nFeatures,
    nOutputs,
    outputs,
    acceptsMissing: false,
    predict: (x) => {
      // Each link sees the features followed by the earlier links' predictions (as float64).
      const augmented = new Float64Array(nFeatures + nOutputs);
      augmented.set(x);
      const results = new Array<EstimatorOutput>(nOutputs);
      parts.forEach((part, index) => {
        const { value, probabilities } = part.predict(augmented.subarray(0, nFeatures + index))[0]!;
        if (typeof value !== "number") throw new PredictionError("rantai pengklasifikasi butuh kelas berupa angka");
        augmented[nFeatures + index] = value;
        results[order[index]!] = { value, type: "float", probabilities };
      });
      return results;
    },
  };
}

/**
 * VotingClassifier: its members learned the class indexes (LabelEncoder of `outputs`).
 * Hard voting counts each member's index with its weight (np.bincount) and takes the
 * first largest; it has no probabilities. Soft voting averages the members'
 * probabilities, weighted: Σ wᵢ·pᵢ in member order, divided by Σ wᵢ.
 */
function compileVoting(estimator: Extract<Estimator, { kind: "voting" }>, where: string): CompiledEstimator {
  const { outputs, weights, voting } = estimator;
  const classes = outputs[0].values;
  const parts = singleOutputParts(estimator.estimators, where, "voting");
  const nFeatures = parts[0]!.nFeatures;
  if (parts.some((part) => part.nFeatures !== nFeatures)) invalidModel(`${where}: jumlah fitur anggota voting berbeda`);
  if (weights && weights.length !== parts.length) invalidModel(`${where}: ${weights.length} bobot untuk ${parts.length} anggota`);
  parts.forEach((part, index) => {
    const values = part.outputs[0]!.values;
    if (values.length !== classes.length || values.some((value, position) => value !== position)) invalidModel(`${where}: kelas anggota ${index} harus 0–${classes.length - 1}`);
  });
  const weightSum = weights ? weights.reduce((sum, weight) => sum + weight, 0) : parts.length;
  const totals = new Float64Array(classes.length);
  return compiledEstimator(nFeatures, outputs, parts.every((part) => part.acceptsMissing), (x) => {
    totals.fill(0);
    if (voting === "hard") {
      parts.forEach((part, index) => (totals[part.predict(x)[0]!.value as number]! += weights ? weights[index]! : 1));
      return [{ value: classes[argmax(totals)]!, type: outputs[0].type, probabilities: null }];
    }
    parts.forEach((part, index) => {
      const { probabilities } = part.predict(x)[0]!;
      if (!probabilities) throw new PredictionError(`${where}: anggota ${index} tidak memberi probabilitas`);
      for (let position = 0; position < totals.length; position++) totals[position]! += weights ? probabilities[position]! * weights[index]! : probabilities[position]!;
    });
    const probabilities = totals.map((total) => total / weightSum);
    return [{ value: classes[argmax(probabilities)]!, type: outputs[0].type, probabilities }];
  });
}

/** The number of columns the first sized step of a pipeline takes. */
function firstWidth(steps: Transform[]): number | null {
  for (const step of steps) {
    switch (step.kind) {
      case "passthrough":
        continue;
      case "pipeline": {
        const width = firstWidth(step.steps);
        if (width !== null) return width;
        continue;
      }
      case "standard_scaler":
        return step.mean?.length ?? step.scale?.length ?? null;
      case "simple_imputer":
        return step.fill.length;
      case "pca":
        return step.mean.length;
      case "column_parts":
        return step.width;
      default:
        return step.categories.length;
    }
  }
  return null;
}

/** A member's own steps (a scaler before a logistic regression in a vote), on numbers. */
function compilePipeline(estimator: Extract<Estimator, { kind: "pipeline" }>, where: string): CompiledEstimator {
  const inner = compileEstimator(estimator.estimator, `${where} pipeline`);
  const steps = compileTransform({ kind: "pipeline", steps: estimator.steps });
  const nFeatures = firstWidth(estimator.steps) ?? inner.nFeatures;
  const kinds = steps.kinds(new Array(nFeatures).fill("number"));
  if (kinds.length !== inner.nFeatures || kinds.some((kind) => kind !== "number")) invalidModel(`${where}: langkah pipeline menghasilkan ${kinds.length} fitur, estimator menerima ${inner.nFeatures}`);
  // Scalers and encoders carry NaN through to an estimator that routes it.
  return compiledEstimator(nFeatures, inner.outputs, inner.acceptsMissing, (x) => {
    if (x.length !== nFeatures) throw new PredictionError(`estimator dibuat untuk ${nFeatures} fitur, menerima ${x.length}`);
    const cells = new Array<number>(x.length);
    for (let index = 0; index < x.length; index++) cells[index] = x[index]!;
    return inner.predict(Float64Array.from(steps.apply(cells) as number[]));
  });
}

/** `np.asarray([...]).T` of per-output predictions: one common dtype for all columns. */
function unifyTypes(values: EstimatorOutput[]): EstimatorOutput[] {
  if (values.every((value) => value.type === values[0]!.type)) return values;
  if (values.some((value) => value.type === "string")) return values.map((value) => ({ ...value, value: formatClassValue(value), type: "string" }));
  return values.map((value) => ({ ...value, type: "float" }));
}
