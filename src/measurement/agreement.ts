// Decisions §20, local validation: how binary calls and probabilities agree with the
// handlers' judgements. Plain definitions (docs/measurement.md): a rate whose denominator
// is 0 is null, never 0 or 1.

export interface Confusion {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  sensitivitas: number | null;
  spesifisitas: number | null;
  ppv: number | null;
  npv: number | null;
}

const rate = (numerator: number, denominator: number) => (denominator === 0 ? null : numerator / denominator);

/** The confusion counts and rates of calls (`predicted`: the call is positive) against outcomes (`actual`: perlu_dukungan = ya). */
export function confusion(pairs: readonly { predicted: boolean; actual: boolean }[]): Confusion {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const { predicted, actual } of pairs) {
    if (predicted && actual) tp++;
    else if (predicted) fp++;
    else if (actual) fn++;
    else tn++;
  }
  return { tp, fp, fn, tn, sensitivitas: rate(tp, tp + fn), spesifisitas: rate(tn, tn + fp), ppv: rate(tp, tp + fp), npv: rate(tn, tn + fn) };
}

/** Forecasts of the outcome (0–1) with what happened. */
export interface Forecast {
  probability: number;
  actual: boolean;
}

/** The Brier score: the mean squared difference between forecast and outcome (0 perfect, 0.25 a coin's 0.5 throughout); null without forecasts. */
export function brierScore(forecasts: readonly Forecast[]): number | null {
  if (forecasts.length === 0) return null;
  let sum = 0;
  for (const { probability, actual } of forecasts) sum += (probability - (actual ? 1 : 0)) ** 2;
  return sum / forecasts.length;
}

/**
 * Calibration bins: [0, 0.2], (0.2, 0.4], … (0.8, 1], an edge in the bin below it, as
 * scikit-learn's calibration_curve bins them; five, because a faculty's few outcomes fill ten
 * bins too thinly to read.
 */
export const calibrationBinCount = 5;

export interface CalibrationBin {
  /** The bin's range of forecasts: (dari, sampai], the first one closed. */
  dari: number;
  sampai: number;
  n: number;
  /** The mean forecast in the bin, and the share of outcomes that were `ya`; null in an empty bin. */
  rata_rata_prediksi: number | null;
  proporsi_ya: number | null;
}

export function calibrationBins(forecasts: readonly Forecast[], binCount = calibrationBinCount): CalibrationBin[] {
  const bins = Array.from({ length: binCount }, () => ({ n: 0, forecast: 0, yes: 0 }));
  for (const { probability, actual } of forecasts) {
    let index = 0;
    while (index < binCount - 1 && (index + 1) / binCount < probability) index++;
    const bin = bins[index]!;
    bin.n++;
    bin.forecast += probability;
    if (actual) bin.yes++;
  }
  // Edges as decimals a person writes (0.6, not 0.6000000000000001).
  const edge = (index: number) => Math.round((index / binCount) * 1e9) / 1e9;
  return bins.map((bin, index) => ({
    dari: edge(index),
    sampai: edge(index + 1),
    n: bin.n,
    rata_rata_prediksi: bin.n === 0 ? null : bin.forecast / bin.n,
    proporsi_ya: bin.n === 0 ? null : bin.yes / bin.n,
  }));
}
