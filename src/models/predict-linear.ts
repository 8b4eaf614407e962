import type { Estimator } from "./format";
import { argmax, expit, normalizedExp, pairwiseSum, softmax } from "./predict-math";
import { checkClasses, compiledEstimator, type CompiledEstimator } from "./predict-trees";
import { PredictionError, invalidModel } from "./predict-values";

/**
 * LogisticRegression and GaussianNB. Both read the features in float64, as scikit-learn
 * does; their scores are computed in scikit-learn's order of operations.
 */

function checkFinite(x: Float64Array, nFeatures: number): void {
  if (x.length !== nFeatures) throw new PredictionError(`estimator dibuat untuk ${nFeatures} fitur, menerima ${x.length}`);
  for (let index = 0; index < x.length; index++) {
    if (!Number.isFinite(x[index]!)) throw new PredictionError(`fitur ke-${index + 1} tidak berhingga atau kosong (${x[index]})`);
  }
}

function matrixOf(rows: number[][], columns: number, what: string): Float64Array {
  if (rows.some((row) => row.length !== columns)) invalidModel(`${what}: setiap baris harus berisi ${columns} nilai`);
  return Float64Array.from(rows.flat());
}

/**
 * `decision_function`: X·coefᵀ + intercept, each dot product summed feature by feature.
 * Binary models have one row of coefficients and answer classes[1] when the score is
 * above 0; their probabilities are expit (one-vs-rest) or softmax of (−s, s).
 */
export function compileLinear(estimator: Extract<Estimator, { kind: "linear" }>, where: string): CompiledEstimator {
  const { n_features: nFeatures, outputs, intercept } = estimator;
  checkClasses(outputs, where);
  const classes = outputs[0].values;
  const rows = estimator.coef.length;
  const binary = rows === 1;
  if (binary ? classes.length !== 2 : rows !== classes.length) invalidModel(`${where}: ${rows} baris coef untuk ${classes.length} kelas`);
  if (intercept.length !== rows) invalidModel(`${where}: panjang intercept ${intercept.length}, seharusnya ${rows}`);
  const coef = matrixOf(estimator.coef, nFeatures, where);
  const scores = new Float64Array(rows);
  return compiledEstimator(nFeatures, outputs, false, (x) => {
    checkFinite(x, nFeatures);
    for (let row = 0; row < rows; row++) {
      let dot = 0;
      const base = row * nFeatures;
      for (let feature = 0; feature < nFeatures; feature++) dot += x[feature]! * coef[base + feature]!;
      scores[row] = dot + intercept[row]!;
    }
    let chosen: number;
    let probabilities: Float64Array;
    if (binary) {
      const score = scores[0]!;
      chosen = score > 0 ? 1 : 0;
      if (estimator.probability === "softmax") {
        probabilities = softmax([-score, score]);
      } else {
        const positive = expit(score);
        probabilities = Float64Array.of(1 - positive, positive);
      }
    } else {
      chosen = argmax(scores);
      if (estimator.probability === "softmax") {
        probabilities = softmax(scores);
      } else {
        // One-vs-rest: each class's expit, divided by their sum (liblinear's normalisation).
        probabilities = scores.map(expit);
        let sum = 0;
        for (const value of probabilities) sum += value;
        if (sum === 0 && estimator.all_zero_uniform) probabilities.fill(1 / probabilities.length);
        else for (let index = 0; index < probabilities.length; index++) probabilities[index]! /= sum;
      }
    }
    return [{ value: classes[chosen]!, type: outputs[0].type, probabilities }];
  });
}

/**
 * GaussianNB's joint log likelihood per class: log(prior) + (−½ Σ log(2π·var) − ½ Σ (x − θ)²/var),
 * both sums numpy's pairwise sums; the class with the largest wins.
 */
export function compileGaussianNb(estimator: Extract<Estimator, { kind: "gaussian_nb" }>, where: string): CompiledEstimator {
  const { n_features: nFeatures, outputs } = estimator;
  checkClasses(outputs, where);
  const classes = outputs[0].values;
  const count = classes.length;
  if (estimator.theta.length !== count || estimator.var.length !== count || estimator.class_prior.length !== count) {
    invalidModel(`${where}: theta, var dan class_prior harus berisi ${count} kelas`);
  }
  const theta = matrixOf(estimator.theta, nFeatures, where);
  const variance = matrixOf(estimator.var, nFeatures, where);
  const twoPi = 2.0 * Math.PI;
  const priorLog = estimator.class_prior.map((prior) => Math.log(prior));
  const logTerms = estimator.var.map((row) => -0.5 * pairwiseSum(row.map((value) => Math.log(twoPi * value)), 0, nFeatures));
  const terms = new Float64Array(nFeatures);
  const jll = new Float64Array(count);
  return compiledEstimator(nFeatures, outputs, false, (x) => {
    checkFinite(x, nFeatures);
    for (let index = 0; index < count; index++) {
      const base = index * nFeatures;
      for (let feature = 0; feature < nFeatures; feature++) {
        const difference = x[feature]! - theta[base + feature]!;
        terms[feature] = (difference * difference) / variance[base + feature]!;
      }
      jll[index] = priorLog[index]! + (logTerms[index]! - 0.5 * pairwiseSum(terms, 0, nFeatures));
    }
    return [{ value: classes[argmax(jll)]!, type: outputs[0].type, probabilities: normalizedExp(jll) }];
  });
}
