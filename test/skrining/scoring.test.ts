import { describe, expect, test } from "bun:test";
import { fallbackMotivationLevel, fallbackStressLevel, readAnswers, scoreSdi, scoreStress, sdiScale, stressScale } from "../../src/skrining/scoring";
import { jawaban } from "../helpers";

// The web interface draws its chart scales and bands from these constants, so they must
// be the scores' true ends and the rules' true edges.
describe("the scales the charts draw", () => {
  const answers = (stress: number, motivation: (item: number) => number) => {
    const all = jawaban(stress, 1);
    for (let item = 1; item <= 28; item++) all[`M${item}`] = motivation(item);
    return readAnswers(all);
  };
  // Items 1–12 are intrinsic, 13–16 identified, 17–24 introjected and external, 25–28 amotivation.
  const mostSelfDetermined = (item: number) => (item <= 16 ? 7 : 1);
  const leastSelfDetermined = (item: number) => (item <= 16 ? 1 : 7);

  test("stress: every item 1 is the minimum, every item 5 the maximum", () => {
    expect(scoreStress(answers(1, mostSelfDetermined))).toBe(stressScale.min);
    expect(scoreStress(answers(5, mostSelfDetermined))).toBe(stressScale.max);
  });

  test("SDI: the most and the least self-determined answers are its ends", () => {
    expect(scoreSdi(answers(3, mostSelfDetermined))).toBe(sdiScale.max);
    expect(scoreSdi(answers(3, leastSelfDetermined))).toBe(sdiScale.min);
  });

  test.each([
    [stressScale.sedangAbove, "Rendah"],
    [stressScale.sedangAbove + 1, "Sedang"],
    [stressScale.tinggiAbove, "Sedang"],
    [stressScale.tinggiAbove + 1, "Tinggi"],
  ] as const)("stress %d is %s", (score, level) => expect(fallbackStressLevel(score)).toBe(level));

  test.each([
    [sdiScale.sedangFrom - 0.0001, "Rendah"],
    [sdiScale.sedangFrom, "Sedang"],
    [sdiScale.tinggiFrom - 0.0001, "Sedang"],
    [sdiScale.tinggiFrom, "Tinggi"],
  ] as const)("SDI %d is %s", (sdi, level) => expect(fallbackMotivationLevel(sdi)).toBe(level));
});
