import { describe, expect, test } from "bun:test";
import { addScreening, sumsLength, sumsOf } from "../../src/db/measures";
import { brierScore, calibrationBins, confusion } from "../../src/measurement/agreement";
import { NormCounts, minimumNormStudents, normHorizon, percentileRank } from "../../src/measurement/norms";
import { changeDirection, computedReliability, fixedReliability, reliabilityOf, reliableChangeIndex, type StressSums } from "../../src/measurement/reliability";
import { judgeValidity } from "../../src/measurement/validity";
import expected from "./fixtures/expected.json";

// The statistics of decisions §20 against values computed another way: by hand here, and
// by numpy, scipy and scikit-learn in fixtures/expected.json (fixtures/make.py; Python is
// never run by the tests). docs/measurement.md has the formulas.

/** The running sums the job keeps (src/db/measures.ts), over answer sets of any number of items. */
function runningSums(answers: readonly (readonly number[])[]): StressSums {
  const items = answers[0]!.length;
  if (items === 40) {
    const values = new Float64Array(sumsLength);
    for (const row of answers) addScreening(values, row.reduce((sum, value) => sum + value, 0), row);
    return sumsOf(values, new Float64Array(sumsLength));
  }
  const sums = { screenings: 0, totalSum: 0, totalSquares: 0, itemSums: Array<number>(items).fill(0), itemSquares: Array<number>(items).fill(0) };
  for (const row of answers) {
    const total = row.reduce((sum, value) => sum + value, 0);
    sums.screenings++;
    sums.totalSum += total;
    sums.totalSquares += total * total;
    row.forEach((value, index) => {
      sums.itemSums[index]! += value;
      sums.itemSquares[index]! += value * value;
    });
  }
  return sums;
}

describe("Cronbach's α, the SD and reliable change", () => {
  test("by hand: items (1,2), (2,3), (3,3): item variances 1 and 1/3, total 7/3, α = 2 · (1 − (4/3)/(7/3)) = 6/7", () => {
    const computed = computedReliability(runningSums([[1, 2], [2, 3], [3, 3]]))!;
    expect(computed.alpha).toBeCloseTo(6 / 7, 12);
    expect(computed.sd).toBeCloseTo(Math.sqrt(7 / 3), 12);
  });

  test.each(expected.reliability.map((set) => [set.name, set] as const))("%s: as numpy's covariance matrix gives them", (_, set) => {
    const sums = runningSums(set.answers);
    const reliability = reliabilityOf(sums, 150);
    expect(reliability.source).toBe("dihitung");
    expect(reliability.alpha).toBeCloseTo(set.alpha, 10);
    expect(reliability.sd).toBeCloseTo(set.sd, 10);
    expect(reliability.smallestReliableChange).toBeCloseTo(set.smallest_reliable_change, 9);
    for (const change of set.changes) expect(reliableChangeIndex(change.previous, change.current, reliability)).toBeCloseTo(change.rc, 10);
  });

  test("below 100 students the documented fixed values (α 0.90, SD 20: 17.5 points), whatever the sums say", () => {
    const set = expected.reliability[1]!;
    const reliability = reliabilityOf(runningSums(set.answers), 99);
    expect(reliability).toMatchObject({ ...fixedReliability, source: "tetap", fixedBecause: "mahasiswa_kurang", screenings: 30, students: 99 });
    expect(reliability.smallestReliableChange).toBeCloseTo(1.96 * Math.SQRT2 * 20 * Math.sqrt(0.1), 12);
    expect(reliabilityOf(runningSums(set.answers), 100).source).toBe("dihitung");
  });

  test("no spread (every screening the same, or one screening): the fixed values, and why", () => {
    const same = Array.from({ length: 120 }, () => Array.from({ length: 40 }, (_, index) => 1 + (index % 5)));
    expect(computedReliability(runningSums(same))).toBeNull();
    expect(reliabilityOf(runningSums(same), 120)).toMatchObject({ source: "tetap", fixedBecause: "tanpa_variansi", alpha: 0.9, sd: 20 });
    expect(computedReliability(runningSums([same[0]!]))).toBeNull();
  });

  test.each([
    [100, 117, "tetap"],
    [100, 118, "memburuk"],
    [118, 100, "membaik"],
    [100, 100, "tetap"],
    [150, 133, "tetap"],
  ] as const)("with the fixed values, %d → %d is %s (|RC| ≥ 1.96 is reliable)", (previous, current, direction) => {
    expect(changeDirection(previous, current, fixedReliability)).toBe(direction);
  });
});

describe("percentile ranks (ties counted half)", () => {
  test.each(expected.percentiles.map((set) => [set.name, set] as const))("%s: as scipy's percentileofscore(kind='mean')", (_, set) => {
    const counts = new NormCounts();
    for (const value of set.values) set.scale === "stress" ? counts.change(value, 0, 1) : counts.change(120, value, 1);
    expect(counts.students).toBe(set.values.length);
    for (const { value, percentile } of set.expected) {
      const answered = set.scale === "stress" ? counts.percentiles(value, 0)!.stres : counts.percentiles(120, value)!.motivasi;
      expect({ value, percentile: answered }).toEqual({ value, percentile });
    }
  });

  test("by hand: 100 below a value and 100 at it → 75; alone at the top → 100 less half a share", () => {
    expect(percentileRank([100, 100], 1, 200)).toBe(75);
    expect(percentileRank([199, 1], 1, 200)).toBe(100);
    expect(percentileRank([0, 0], 0, 0)).toBeNull();
  });

  test("null below 100 students; a score outside its scale is not counted; removal takes a student out", () => {
    const counts = new NormCounts();
    for (let index = 0; index < minimumNormStudents - 1; index++) counts.change(40 + index, 0, 1);
    expect(counts.percentiles(100, 0)).toBeNull();
    counts.change(30, 0, 1);
    counts.change(100, 19, 1);
    expect(counts.students).toBe(99);
    counts.change(200, 18, 1);
    expect(counts.percentiles(200, 18)).toEqual({ stres: 100, motivasi: 100 });
    counts.change(200, 18, -1);
    expect(counts.percentiles(200, 18)).toBeNull();
  });

  test("the norm group's horizon: 00:00 UTC of the day 365 days before", () => {
    expect(normHorizon(Date.parse("2026-12-05T23:59:00.000Z"))).toBe("2025-12-05T00:00:00.000Z");
    expect(normHorizon(Date.parse("2025-03-01T00:00:00.000Z"))).toBe("2024-03-01T00:00:00.000Z");
  });
});

describe("agreement with the handlers' judgements", () => {
  test.each(expected.confusion.map((set) => [set.name, set] as const))("%s: as scikit-learn's confusion_matrix, recall and precision", (_, set) => {
    const answered = confusion(set.predicted.map((predicted, index) => ({ predicted: predicted === 1, actual: set.actual[index] === 1 })));
    const { sensitivitas, spesifisitas, ppv, npv, ...counts } = set.expected;
    expect(answered).toMatchObject(counts);
    for (const [key, value] of Object.entries({ sensitivitas, spesifisitas, ppv, npv })) {
      if (value === null) expect({ key, value: answered[key as keyof typeof answered] }).toEqual({ key, value: null });
      else expect(answered[key as keyof typeof answered] as number).toBeCloseTo(value, 12);
    }
  });

  test("no outcomes at all: zeros and null rates", () => {
    expect(confusion([])).toEqual({ tp: 0, fp: 0, fn: 0, tn: 0, sensitivitas: null, spesifisitas: null, ppv: null, npv: null });
  });

  test("the Brier score and the calibration bins: as brier_score_loss and calibration_curve (an edge belongs to the bin below)", () => {
    const set = expected.calibration[0]!;
    const forecasts = set.probabilities.map((probability, index) => ({ probability, actual: set.actual[index] === 1 }));
    expect(brierScore(forecasts)!).toBeCloseTo(set.brier, 12);
    const bins = calibrationBins(forecasts);
    expect(bins.map((bin) => [bin.dari, bin.sampai])).toEqual([[0, 0.2], [0.2, 0.4], [0.4, 0.6], [0.6, 0.8], [0.8, 1]]);
    for (const bin of set.bins) {
      const answered = bins[bin.bin]!;
      expect(answered.n).toBe(bin.n);
      expect(answered.rata_rata_prediksi!).toBeCloseTo(bin.rata_rata_prediksi, 12);
      expect(answered.proporsi_ya!).toBeCloseTo(bin.proporsi_ya, 12);
    }
    expect(bins.reduce((sum, bin) => sum + bin.n, 0)).toBe(forecasts.length);
  });

  test("by hand: forecasts 1, 0 and 0.5 of yes, no, yes: Brier (0 + 0 + 0.25) / 3; no forecasts: null and empty bins", () => {
    expect(brierScore([{ probability: 1, actual: true }, { probability: 0, actual: false }, { probability: 0.5, actual: true }])).toBeCloseTo(0.25 / 3, 15);
    expect(brierScore([])).toBeNull();
    expect(calibrationBins([]).every((bin) => bin.n === 0 && bin.rata_rata_prediksi === null && bin.proporsi_ya === null)).toBe(true);
  });
});

describe("validity", () => {
  const stress = (value: number) => Array<number>(40).fill(value);
  const motivation = (value: number) => Array<number>(28).fill(value);
  const alternating = (length: number) => Array.from({ length }, (_, index) => 1 + (index % 2));
  /** Alternating answers with one value over `run` items from the third on. */
  const withRun = (length: number, run: number) => alternating(length).map((value, index) => (index >= 2 && index < 2 + run ? 4 : value));

  test.each([
    ["every answer varied, no duration", [alternating(40), alternating(28)], null, []],
    ["stress all 3", [stress(3), alternating(28)], null, ["jawaban_seragam"]],
    ["motivation all 7", [alternating(40), motivation(7)], null, ["jawaban_seragam"]],
    ["stress: one answer over 20 items", [withRun(40, 20), alternating(28)], null, ["pola_berulang"]],
    ["stress: over 19 items", [withRun(40, 19), alternating(28)], null, []],
    ["motivation: over 26 items", [alternating(40), withRun(28, 26)], null, ["pola_berulang"]],
    ["135.9 seconds for 68 items", [alternating(40), alternating(28)], 135.9, ["terlalu_cepat"]],
    ["136 seconds for 68 items", [alternating(40), alternating(28)], 136, []],
    ["all of them: the reasons in their order", [stress(5), withRun(28, 20)], 60, ["jawaban_seragam", "terlalu_cepat", "pola_berulang"]],
  ] as const)("%s", (_, scales, duration, reasons) => {
    expect(judgeValidity(scales, duration)).toEqual({ status: reasons.length === 0 ? "baik" : "hati_hati", alasan: [...reasons] });
  });
});
