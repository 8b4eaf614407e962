// Decisions §20, reliable change of the stress score (Jacobson & Truax, 1991): whether a
// student's score moved by more than the scale's own unreliability explains. Cronbach's α
// and the SD come from running sums over every stored screening (src/modules/skrining/
// measures.ts keeps them); docs/measurement.md has the formulas and their sources.

/** The running sums the statistics are computed from: screenings counted, the total score's sum and sum of squares, each item's. */
export interface StressSums {
  screenings: number;
  totalSum: number;
  totalSquares: number;
  itemSums: ArrayLike<number>;
  itemSquares: ArrayLike<number>;
}

/**
 * The values used until the faculty's own data can stand for its students: at least
 * `minimumStudents` students with a screening. α 0.90 is what published 40-item, 5-point
 * stress inventories report for students (0.88–0.95); an SD of 20 points is half a point
 * per item, the spread such scales show (docs/measurement.md).
 */
export const fixedReliability = { alpha: 0.9, sd: 20 } as const;
export const minimumStudents = 100;

/** |RC| at or above this is a reliable change (p < .05, two-sided). */
export const reliableChangeCriterion = 1.96;

export type ReliabilitySource = "dihitung" | "tetap";

/** Why the fixed values are in use: too few students, or no spread to compute from. */
export type FixedBecause = "mahasiswa_kurang" | "tanpa_variansi";

export interface Reliability {
  alpha: number;
  sd: number;
  /** Screenings and students the sums hold (whatever values are used). */
  screenings: number;
  students: number;
  source: ReliabilitySource;
  fixedBecause: FixedBecause | null;
  /** The smallest change in score points that is reliable: 1.96 · √2 · SD · √(1 − α). */
  smallestReliableChange: number;
}

/** Sum of squared deviations from the mean, from a sum and a sum of squares over n values. */
const deviations = (sum: number, squares: number, n: number) => squares - (sum * sum) / n;

/** Cronbach's α and the sample SD of the total from the sums, or null when there is no spread to compute them from. */
export function computedReliability(sums: StressSums): { alpha: number; sd: number } | null {
  const n = sums.screenings;
  const items = sums.itemSums.length;
  if (n < 2 || items < 2) return null;
  const total = deviations(sums.totalSum, sums.totalSquares, n);
  if (!(total > 0)) return null;
  let itemTotal = 0;
  for (let index = 0; index < items; index++) itemTotal += deviations(sums.itemSums[index]!, sums.itemSquares[index]!, n);
  const alpha = (items / (items - 1)) * (1 - itemTotal / total);
  const sd = Math.sqrt(total / (n - 1));
  if (!Number.isFinite(alpha) || !(alpha < 1) || !(sd > 0)) return null;
  return { alpha, sd };
}

const smallestChange = (alpha: number, sd: number) => reliableChangeCriterion * Math.SQRT2 * sd * Math.sqrt(1 - alpha);

/** The values in force for these sums and this many students with a screening. */
export function reliabilityOf(sums: StressSums, students: number): Reliability {
  const computed = students >= minimumStudents ? computedReliability(sums) : null;
  const fixedBecause: FixedBecause | null = computed ? null : students < minimumStudents ? "mahasiswa_kurang" : "tanpa_variansi";
  const { alpha, sd } = computed ?? fixedReliability;
  return { alpha, sd, screenings: sums.screenings, students, source: computed ? "dihitung" : "tetap", fixedBecause, smallestReliableChange: smallestChange(alpha, sd) };
}

export const changeDirections = ["memburuk", "membaik", "tetap"] as const;
export type ChangeDirection = (typeof changeDirections)[number];

/** RC = (x2 − x1) / (√2 · SD · √(1 − α)). */
export const reliableChangeIndex = (previous: number, current: number, reliability: Pick<Reliability, "alpha" | "sd">) =>
  (current - previous) / (Math.SQRT2 * reliability.sd * Math.sqrt(1 - reliability.alpha));

/** A higher stress score is worse: a reliable rise is `memburuk`, a reliable fall `membaik`, anything smaller `tetap`. */
export function changeDirection(previous: number, current: number, reliability: Pick<Reliability, "alpha" | "sd">): ChangeDirection {
  const index = reliableChangeIndex(previous, current, reliability);
  if (index >= reliableChangeCriterion) return "memburuk";
  if (index <= -reliableChangeCriterion) return "membaik";
  return "tetap";
}

/** The values as the command's JSON and the console answer them. */
export const serializeReliability = (reliability: Reliability) => ({
  alfa: reliability.alpha,
  simpangan_baku: reliability.sd,
  n: reliability.screenings,
  mahasiswa: reliability.students,
  perubahan_andal_terkecil: reliability.smallestReliableChange,
  sumber: reliability.source,
  alasan_nilai_tetap: reliability.fixedBecause,
});
