import { invalid } from "../errors";

export type Level = "Rendah" | "Sedang" | "Tinggi";

export const stressKeys = Array.from({ length: 40 }, (_, index) => `S${index + 1}`);
export const motivationKeys = Array.from({ length: 28 }, (_, index) => `M${index + 1}`);

export interface Answers {
  /** S1..S40, in order. */
  stress: number[];
  /** M1..M28, in order. */
  motivation: number[];
}

function answerValue(value: unknown): number | null {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\d{1,3}$/.test(value)) return Number(value);
  return null;
}

/**
 * Reads the 68 items of `jawaban`; the first missing or out-of-range item (S1..S40, then
 * M1..M28) is named in a 400. Other keys are not looked at here.
 */
export function readAnswers(jawaban: Record<string, unknown>): Answers {
  const read = (keys: string[], max: number) =>
    keys.map((key) => {
      if (!(key in jawaban) || jawaban[key] === null || jawaban[key] === "") throw invalid(`Jawaban ${key} wajib diisi.`);
      const value = answerValue(jawaban[key]);
      if (value === null || value < 1 || value > max) throw invalid(`Jawaban ${key} harus bilangan bulat 1-${max}.`);
      return value;
    });
  return { stress: read(stressKeys, 5), motivation: read(motivationKeys, 7) };
}

/** The raw stress score: the sum of S1..S40 (40 to 200). */
export function scoreStress(answers: Answers): number {
  return answers.stress.reduce((sum, value) => sum + value, 0);
}

/**
 * The Self-Determination Index, SDI = 2·IM + identified − CE − 2·amotivation, where IM is
 * the mean of the three intrinsic subscales and CE of introjected and external. Over
 * subscale sums of four items it is an exact fraction N/24, rounded here to 4 decimals.
 */
export function scoreSdi(answers: Answers): number {
  const subscale = (first: number) => answers.motivation.slice(first, first + 4).reduce((sum, value) => sum + value, 0);
  const [know, accomplish, stimulation, identified, introjected, external, amotivation] = [0, 4, 8, 12, 16, 20, 24].map(subscale) as [
    number, number, number, number, number, number, number,
  ];
  const numerator = 4 * (know + accomplish + stimulation) + 6 * identified - 3 * (introjected + external) - 12 * amotivation;
  return Math.round((numerator * 10000) / 24) / 10000;
}

/** The stress score's range (40 items answered 1–5) and interface rule 7's thresholds: Sedang above `sedangAbove`, Tinggi above `tinggiAbove`. */
export const stressScale = { min: 40, max: 200, sedangAbove: 60, tinggiAbove: 120 } as const;

/** The SDI's range (item means 1–7 in the formula above) and interface rule 7's thresholds: Sedang from `sedangFrom`, Tinggi from `tinggiFrom`. */
export const sdiScale = { min: -18, max: 18, sedangFrom: 0, tinggiFrom: 3 } as const;

/** Interface rule 7, used when no model classifies. */
export function fallbackStressLevel(score: number): Level {
  if (score <= stressScale.sedangAbove) return "Rendah";
  if (score <= stressScale.tinggiAbove) return "Sedang";
  return "Tinggi";
}

export function fallbackMotivationLevel(sdi: number): Level {
  if (sdi >= sdiScale.tinggiFrom) return "Tinggi";
  if (sdi >= sdiScale.sedangFrom) return "Sedang";
  return "Rendah";
}
