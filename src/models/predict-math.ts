/**
 * The arithmetic of scikit-learn's probability functions, in the order numpy and scipy
 * do it, so that labels decided by a probability (and the probabilities themselves)
 * come out as scikit-learn's.
 */

/** numpy's `np.sum` of a float64 row: 8 running sums in blocks of up to 128, halves above that. */
export function pairwiseSum(values: ArrayLike<number>, start: number, count: number): number {
  if (count < 8) {
    let sum = 0;
    for (let index = 0; index < count; index++) sum += values[start + index]!;
    return sum;
  }
  if (count <= 128) {
    let r0 = values[start]!, r1 = values[start + 1]!, r2 = values[start + 2]!, r3 = values[start + 3]!;
    let r4 = values[start + 4]!, r5 = values[start + 5]!, r6 = values[start + 6]!, r7 = values[start + 7]!;
    const blocked = count - (count % 8);
    let index = 8;
    for (; index < blocked; index += 8) {
      const at = start + index;
      r0 += values[at]!;
      r1 += values[at + 1]!;
      r2 += values[at + 2]!;
      r3 += values[at + 3]!;
      r4 += values[at + 4]!;
      r5 += values[at + 5]!;
      r6 += values[at + 6]!;
      r7 += values[at + 7]!;
    }
    let sum = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; index < count; index++) sum += values[start + index]!;
    return sum;
  }
  let half = Math.floor(count / 2);
  half -= half % 8;
  return pairwiseSum(values, start, half) + pairwiseSum(values, start + half, count - half);
}

/** scipy's `expit`: 1 / (1 + exp(−x)). */
export function expit(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

function maximum(values: ArrayLike<number>): number {
  let max = values[0]!;
  for (let index = 1; index < values.length; index++) if (values[index]! > max) max = values[index]!;
  return max;
}

/** `softmax` of scikit-learn (utils.extmath and the losses' Cython): exp(x − max) / Σ, the sum in class order. */
export function softmax(scores: ArrayLike<number>): Float64Array {
  const max = maximum(scores);
  const result = new Float64Array(scores.length);
  let sum = 0;
  for (let index = 0; index < scores.length; index++) {
    result[index] = Math.exp(scores[index]! - max);
    sum += result[index]!;
  }
  for (let index = 0; index < result.length; index++) result[index]! /= sum;
  return result;
}

/** scipy's `logsumexp` of one row: log(Σ exp(x − max)) + max. */
export function logSumExp(scores: ArrayLike<number>): number {
  const max = maximum(scores);
  if (!Number.isFinite(max)) return max;
  const shifted = new Float64Array(scores.length);
  for (let index = 0; index < scores.length; index++) shifted[index] = Math.exp(scores[index]! - max);
  return Math.log(pairwiseSum(shifted, 0, shifted.length)) + max;
}

/** Probabilities as `exp(x − logsumexp(x))` (GaussianNB, and boosters before scikit-learn 1.4). */
export function normalizedExp(scores: ArrayLike<number>): Float64Array {
  const total = logSumExp(scores);
  return Float64Array.from(scores, (score) => {
    const value = Math.exp(score - total);
    return Number.isNaN(value) ? 0 : value;
  });
}

/** numpy's argmax: the first of equal maxima; NaN wins, as numpy's does. */
export function argmax(values: ArrayLike<number>, offset = 0, count = values.length - offset): number {
  let best = 0;
  for (let index = 1; index < count; index++) {
    const value = values[offset + index]!;
    if (Number.isNaN(values[offset + best]!)) break;
    if (value > values[offset + best]! || Number.isNaN(value)) best = index;
  }
  return best;
}
