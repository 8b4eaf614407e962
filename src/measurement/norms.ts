// Decisions §20, norms: where a score sits among the faculty's own students (the latest
// screening of every student in the last 365 days). Both scores take few values — the
// stress score an integer 40–200, the SDI a multiple of 1/24 in −18…18 — so a count per
// value is exact, and a percentile is a walk over at most 865 counts.

/** Percentiles are given once at least this many students are in the norm group; null below. */
export const minimumNormStudents = 100;

/** How far back a student's latest screening counts in the norm group. */
export const normWindowDays = 365;

const stressRange = { min: 40, max: 200 } as const;
/** The SDI in 24ths: −432…432 (src/skrining/scoring.ts, scoreSdi). */
const sdiRange = { min: -432, max: 432 } as const;

/** A value's place in a count array, or -1 outside the scale (a row written by hand). */
function slot(value: number, range: { min: number; max: number }): number {
  if (!Number.isInteger(value) || value < range.min || value > range.max) return -1;
  return value - range.min;
}

const stressSlot = (score: number) => slot(score, stressRange);
const sdiSlot = (sdi: number) => slot(Math.round(sdi * 24), sdiRange);

/**
 * The percentile rank of a value in a distribution given as counts per value, with ties
 * counted half: 100 · (below + equal / 2) / n (the mid-rank definition of test norms;
 * docs/measurement.md), rounded to a whole number. Null for an empty distribution or a
 * value outside it.
 */
export function percentileRank(counts: ArrayLike<number>, index: number, total: number): number | null {
  if (total <= 0 || index < 0 || index >= counts.length) return null;
  let below = 0;
  for (let position = 0; position < index; position++) below += counts[position]!;
  return Math.round((100 * (below + counts[index]! / 2)) / total);
}

/** The norm group as counts per value of each score. */
export class NormCounts {
  readonly stress = new Int32Array(stressRange.max - stressRange.min + 1);
  readonly motivation = new Int32Array(sdiRange.max - sdiRange.min + 1);
  students = 0;

  /** Adds (1) or removes (-1) one student's latest screening; a score outside its scale is not counted. */
  change(scoreStress: number, scoreSdi: number, sign: 1 | -1): void {
    const stress = stressSlot(scoreStress);
    const motivation = sdiSlot(scoreSdi);
    if (stress === -1 || motivation === -1) return;
    this.stress[stress]! += sign;
    this.motivation[motivation]! += sign;
    this.students += sign;
  }

  /** The percentiles of a screening in the group (which holds it), or null while the group has fewer than `minimumNormStudents`. */
  percentiles(scoreStress: number, scoreSdi: number): { stres: number | null; motivasi: number | null } | null {
    if (this.students < minimumNormStudents) return null;
    return { stres: percentileRank(this.stress, stressSlot(scoreStress), this.students), motivasi: percentileRank(this.motivation, sdiSlot(scoreSdi), this.students) };
  }
}

/** The first moment a latest screening counts in the norm group at `now`: 00:00 UTC of the day `normWindowDays` ago. */
export function normHorizon(now: number): string {
  const day = new Date(now - normWindowDays * 24 * 3600 * 1000);
  return `${day.toISOString().slice(0, 10)}T00:00:00.000Z`;
}
