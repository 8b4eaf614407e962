import { describe, expect, test } from "bun:test";
import { defaultQuestions, validateQuestions, type Question } from "../../src/skrining/questions";
import { levels, suggestionsFor } from "../../src/skrining/suggestions";
import { itemKeys } from "../helpers";

/** A deep copy, so a test can break it without touching the shared defaults. */
const copy = (): Question[] => structuredClone(defaultQuestions);

function rejects(value: unknown, needle: string): void {
  const result = validateQuestions(value);
  expect(result.value).toBeUndefined();
  expect(result.errors.some((error) => error.includes(needle))).toBe(true);
}

describe("questions", () => {
  test("the shipped questions pass validation", () => {
    const result = validateQuestions(defaultQuestions);
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual(defaultQuestions);
  });

  test("68 items in order S1..S40, M1..M28 with their scales and groups", () => {
    expect(defaultQuestions.map((question) => question.key)).toEqual(itemKeys);
    for (const question of defaultQuestions) {
      const stress = question.key.startsWith("S");
      expect(question.group).toBe(stress ? "stress" : "motivasi");
      expect(question.scale).toEqual({ min: 1, max: stress ? 5 : 7 });
      expect(question.text.trim().length).toBeGreaterThan(0);
      expect(question.text.length).toBeLessThanOrEqual(120);
    }
    expect(new Set(defaultQuestions.map((question) => question.text)).size).toBe(68);
  });

  test("a shuffled but complete file comes back in canonical order", () => {
    const result = validateQuestions(copy().reverse());
    expect(result.errors).toEqual([]);
    expect(result.value?.map((question) => question.key)).toEqual(itemKeys);
  });

  test("a missing S7 is named", () => {
    rejects(copy().filter((question) => question.key !== "S7"), "Butir S7 ");
  });

  test("a duplicate M3 is named", () => {
    const questions = copy();
    questions.push({ ...questions.find((question) => question.key === "M3")! });
    rejects(questions, "(M3)");
  });

  test("a wrong scale is named", () => {
    const questions = copy();
    questions[4]!.scale = { min: 1, max: 7 };
    rejects(questions, "(S5)");
    const motivation = copy();
    motivation[40]!.scale = { min: 0, max: 7 };
    rejects(motivation, "(M1)");
  });

  test("an empty text is named", () => {
    const questions = copy();
    questions[49]!.text = "   ";
    rejects(questions, "(M10)");
  });

  test("a text over 500 characters is named", () => {
    const questions = copy();
    questions[0]!.text = "a".repeat(501);
    rejects(questions, "(S1)");
  });

  test("an extra item is named", () => {
    rejects([...copy(), { key: "S41", text: "Tambahan", scale: { min: 1, max: 5 }, group: "stress" }], "(S41)");
    rejects([...copy(), "bukan objek"], "ke-69");
  });

  test("an extra property or a wrong group is named", () => {
    const extra = copy();
    Object.assign(extra[2]!, { catatan: "x" });
    rejects(extra, "(S3)");
    const group = copy();
    group[60]!.group = "stress";
    rejects(group, "(M21)");
  });

  test("a non-array is rejected", () => {
    for (const value of [null, {}, "S1", 68, { questions: defaultQuestions }]) {
      const result = validateQuestions(value);
      expect(result.value).toBeUndefined();
      expect(result.errors).toEqual(["Daftar pertanyaan harus berupa array."]);
    }
  });
});

describe("suggestions", () => {
  const pairs = levels.flatMap((stress) => levels.map((motivation) => [stress, motivation] as const));

  test("each of the nine pairs has its own saran and 4-6 suggestions", () => {
    expect(pairs).toHaveLength(9);
    const sarans = new Set<string>();
    for (const [stress, motivation] of pairs) {
      const { saran, detailed_suggestions } = suggestionsFor(stress, motivation);
      expect(saran.trim().length).toBeGreaterThan(0);
      expect(detailed_suggestions.length).toBeGreaterThanOrEqual(4);
      expect(detailed_suggestions.length).toBeLessThanOrEqual(6);
      for (const line of detailed_suggestions) expect(line.trim().length).toBeGreaterThan(0);
      sarans.add(saran);
    }
    sarans.add(suggestionsFor("?", "?").saran);
    expect(sarans.size).toBe(10);
  });

  test("high stress points to campus counselling and the academic advisor", () => {
    for (const motivation of levels) {
      const { detailed_suggestions } = suggestionsFor("Tinggi", motivation);
      const text = detailed_suggestions.join(" ");
      expect(text).toContain("layanan konseling kampus");
      expect(text).toContain("dosen wali");
    }
  });

  test("unknown pairs get the fallback", () => {
    const fallback = suggestionsFor("Tidak diketahui", "Sedang");
    expect(fallback.detailed_suggestions.length).toBeGreaterThanOrEqual(4);
    expect(fallback.detailed_suggestions.length).toBeLessThanOrEqual(6);
    for (const [stress, motivation] of [["Sedang", ""], ["tinggi", "Tinggi"], ["constructor", "Rendah"], ["Rendah", "toString"]]) {
      expect(suggestionsFor(stress!, motivation!)).toEqual(fallback);
    }
    expect(pairs.some(([stress, motivation]) => suggestionsFor(stress, motivation).saran === fallback.saran)).toBe(false);
  });

  test("mutating a result does not change the next one", () => {
    for (const [stress, motivation] of [...pairs, ["x", "y"] as const]) {
      const first = suggestionsFor(stress, motivation);
      const original = [...first.detailed_suggestions];
      first.detailed_suggestions.length = 0;
      first.detailed_suggestions.push("diubah");
      expect(suggestionsFor(stress, motivation).detailed_suggestions).toEqual(original);
    }
  });
});
