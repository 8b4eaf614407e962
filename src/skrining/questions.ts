import data from "./questions.json";
import { motivationKeys, stressKeys } from "./scoring";

type QuestionGroup = "stress" | "motivasi";

export interface Question {
  key: string;
  text: string;
  scale: { min: number; max: number };
  group: QuestionGroup;
}

const maxTextLength = 500;

/** What each key must carry; the order here is the order every caller gets back. */
const expected = new Map<string, { group: QuestionGroup; max: number }>([
  ...stressKeys.map((key) => [key, { group: "stress" as const, max: 5 }] as const),
  ...motivationKeys.map((key) => [key, { group: "motivasi" as const, max: 7 }] as const),
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasExactly(value: Record<string, unknown>, keys: string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

/**
 * Checks a replacement question file. Everything is reported at once, so an admin can fix
 * the file in one pass; `value` is set only when there is nothing to report.
 */
export function validateQuestions(value: unknown): { value?: Question[]; errors: string[] } {
  if (!Array.isArray(value)) return { errors: ["Daftar pertanyaan harus berupa array."] };

  const errors: string[] = [];
  const found = new Map<string, { question: Question; position: number }>();

  value.forEach((item: unknown, index) => {
    const position = index + 1;
    if (!isRecord(item)) {
      errors.push(`Butir ke-${position} harus berupa objek.`);
      return;
    }
    const key = item.key;
    if (typeof key !== "string") {
      errors.push(`Butir ke-${position}: "key" harus berupa teks.`);
      return;
    }
    const label = `Butir ke-${position} (${key})`;
    const rule = expected.get(key);
    if (!rule) {
      errors.push(`${label}: kunci "${key}" tidak dikenal; yang diterima hanya S1-S40 dan M1-M28.`);
      return;
    }
    const before = found.get(key);
    if (before) {
      errors.push(`${label}: kunci ${key} sudah dipakai oleh butir ke-${before.position}.`);
      return;
    }

    const problems: string[] = [];
    if (!hasExactly(item, ["key", "text", "scale", "group"])) {
      problems.push(`hanya boleh berisi "key", "text", "scale", dan "group"`);
    }
    const { text, scale, group } = item;
    if (typeof text !== "string" || text.trim() === "") problems.push(`"text" harus berupa teks yang tidak kosong`);
    else if (text.length > maxTextLength) problems.push(`"text" paling banyak ${maxTextLength} karakter`);
    if (!isRecord(scale) || !hasExactly(scale, ["min", "max"]) || scale.min !== 1 || scale.max !== rule.max) {
      problems.push(`"scale" harus {"min": 1, "max": ${rule.max}}`);
    }
    if (group !== rule.group) problems.push(`"group" harus "${rule.group}"`);

    if (problems.length > 0) errors.push(`${label}: ${problems.join("; ")}.`);
    // Record the key even when it is faulty, so it is not also reported as missing.
    found.set(key, { question: { key, text: String(text), scale: { min: 1, max: rule.max }, group: rule.group }, position });
  });

  for (const key of expected.keys()) {
    if (!found.has(key)) errors.push(`Butir ${key} tidak ada.`);
  }
  if (errors.length > 0) return { errors };
  return { value: [...expected.keys()].map((key) => found.get(key)!.question), errors };
}

/** The project's own wording; a broken shipped file should stop the service at start-up. */
export const defaultQuestions: Question[] = (() => {
  const { value, errors } = validateQuestions(data);
  if (!value) throw new Error(`questions.json tidak valid: ${errors.join(" ")}`);
  return value;
})();
