// How the pages show a level: its colour says whether it is good news or a concern, which
// depends on the measure (high stress is a concern, high motivation is good news), and the
// charts' scales and bands come from the service's own rules (src/screening/scoring.ts).
import { sdiScale, stressScale } from "../screening/scoring";
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

/** The levels of a measure as a chart's series (legend and bars), in the order of `levels`. */
export const levelSeries = (measure: Measure) => levels.map((level) => ({ label: common.levels[level]!, tone: toneOf(measure, level) }));

export const scales: Record<Measure, Scale> = {
  stres: {
    min: stressScale.min,
    max: stressScale.max,
    ticks: [stressScale.min, stressScale.sedangAbove, stressScale.tinggiAbove, stressScale.max],
    bands: [
      { from: stressScale.min, to: stressScale.sedangAbove, label: common.levels.Rendah!, tone: tones.stres.Rendah },
      { from: stressScale.sedangAbove, to: stressScale.tinggiAbove, label: common.levels.Sedang!, tone: tones.stres.Sedang },
      { from: stressScale.tinggiAbove, to: stressScale.max, label: common.levels.Tinggi!, tone: tones.stres.Tinggi },
    ],
    note: common.bandsNote,
  },
  motivasi: {
    min: sdiScale.min,
    max: sdiScale.max,
    ticks: [sdiScale.min, sdiScale.sedangFrom, sdiScale.tinggiFrom, sdiScale.max],
    bands: [
      { from: sdiScale.min, to: sdiScale.sedangFrom, label: common.levels.Rendah!, tone: tones.motivasi.Rendah },
      { from: sdiScale.sedangFrom, to: sdiScale.tinggiFrom, label: common.levels.Sedang!, tone: tones.motivasi.Sedang },
      { from: sdiScale.tinggiFrom, to: sdiScale.max, label: common.levels.Tinggi!, tone: tones.motivasi.Tinggi },
    ],
    note: common.bandsNote,
  },
};
