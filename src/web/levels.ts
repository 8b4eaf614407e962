// How the pages show a level: its colour says how worrying it is, one meaning per colour
// on every page and chart (green: not worrying, amber: to watch, red: needs attention). Which
// level that is depends on the measure (high stress is a concern, high motivation is good
// news). The charts' scales and bands come from the service's own rules (src/skrining/scoring.ts).
import { sdiScale, stressScale } from "../skrining/scoring";
import type { Scale } from "./components/charts";
import { common } from "./strings";
import type { Level } from "./types";

export type Measure = "stres" | "motivasi";

export const levels: readonly Level[] = ["Rendah", "Sedang", "Tinggi"];

export type Tone = "tone-good" | "tone-watch" | "tone-concern";

const tones: Record<Measure, Record<Level, Tone>> = {
  stres: { Rendah: "tone-good", Sedang: "tone-watch", Tinggi: "tone-concern" },
  motivasi: { Rendah: "tone-concern", Sedang: "tone-watch", Tinggi: "tone-good" },
};

/** The colour class of a level of a measure; an unknown level (not from this service) is neutral. */
export const toneOf = (measure: Measure, level: string): Tone | "tone-neutral" => tones[measure][level as Level] ?? "tone-neutral";

/** The level of a measure that needs attention: stress Tinggi, motivation Rendah. */
export const concernLevel = (measure: Measure): Level => levels.find((level) => tones[measure][level] === "tone-concern")!;

/**
 * The levels of a measure as a chart's series, the most worrying first (a stacked bar puts it
 * at the bottom, where weeks compare best), each with its colour's meaning in words.
 */
export const levelSeries = (measure: Measure) =>
  (["tone-concern", "tone-watch", "tone-good"] as const).map((tone) => {
    const level = levels.find((each) => tones[measure][each] === tone)!;
    return { level, label: common.levels[level]!, meaning: common.toneWords[tone], tone };
  });

/** A measure's scale: its ticks at the ends and at the two level boundaries, one band per level. */
function scaleOf(measure: Measure, min: number, sedangFrom: number, tinggiFrom: number, max: number): Scale {
  const bounds = [min, sedangFrom, tinggiFrom, max];
  return {
    min,
    max,
    ticks: bounds,
    bands: levels.map((level, index) => ({ from: bounds[index]!, to: bounds[index + 1]!, label: common.levels[level]!, tone: tones[measure][level] })),
    note: common.bandsNote,
  };
}

export const scales: Record<Measure, Scale> = {
  stres: scaleOf("stres", stressScale.min, stressScale.sedangAbove, stressScale.tinggiAbove, stressScale.max),
  motivasi: scaleOf("motivasi", sdiScale.min, sdiScale.sedangFrom, sdiScale.tinggiFrom, sdiScale.max),
};
