import { invalid } from "../../errors";
import type { JsonObject } from "../../requests/values";
import { readAnswers, type Answers } from "../../skrining/scoring";
import { safetyQuestion } from "../../skrining/safety-question";

// What a questionnaire submission carries, read by interface rules 5–6 and decisions §3 and
// §20 in their order: `jawaban` (the items and the habits), then the top-level `durasi_detik`
// and, while the safety question is on, `jawaban_keselamatan`. Every check runs before the
// job writes anything.

export const answerMessages = {
  jawabanNotObject: "jawaban harus berupa objek.",
  durasi: "durasi_detik harus angka detik, 0 atau lebih.",
  keselamatan: `jawaban_keselamatan harus bilangan bulat ${safetyQuestion.scale.min}-${safetyQuestion.scale.max}.`,
} as const;

/** The habits a questionnaire may carry, which the student's profile takes over. */
export const habitKeys = ["freq_olahraga", "durasi_tidur"] as const;

function optionalProfileText(jawaban: JsonObject, key: (typeof habitKeys)[number]): string | undefined {
  if (!(key in jawaban)) return undefined;
  const value = jawaban[key];
  if (typeof value !== "string" || value.length > 50) throw invalid(`${key} harus teks maksimal 50 karakter.`);
  return value;
}

/** The questionnaire's answers and habits. */
export interface ReadAnswers {
  jawaban: JsonObject;
  answers: Answers;
  freqOlahraga: string | undefined;
  durasiTidur: string | undefined;
}

export function readQuestionnaire(jawaban: unknown): ReadAnswers {
  if (jawaban === null || typeof jawaban !== "object" || Array.isArray(jawaban)) throw invalid(answerMessages.jawabanNotObject);
  const object = jawaban as JsonObject;
  return {
    jawaban: object,
    answers: readAnswers(object),
    freqOlahraga: optionalProfileText(object, "freq_olahraga"),
    durasiTidur: optionalProfileText(object, "durasi_tidur"),
  };
}

/** The top-level values beside `jawaban` (decisions §20), as they came. */
export interface SubmissionExtras {
  durasiDetik?: unknown;
  jawabanKeselamatan?: unknown;
}

/** A number as JSON sends it, or as a decimal text (`"312.5"`). */
const numberFrom = (value: unknown) => (typeof value === "number" ? value : typeof value === "string" && /^\d{1,9}(\.\d{1,6})?$/.test(value) ? Number(value) : Number.NaN);

/** `durasi_detik`: seconds from the first item to sending, optional; absent or null is unknown. */
export function readDuration(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  const seconds = numberFrom(value);
  if (!Number.isFinite(seconds) || seconds < 0) throw invalid(answerMessages.durasi);
  return seconds;
}

/**
 * `jawaban_keselamatan` while the safety question is on: an integer 1–5 (a string of digits
 * too, as for the items), or absent or null when the client did not ask it (an app that does
 * not know the question still submits; docs/decisions.md). While it is off the value is not
 * read at all.
 */
export function readSafetyAnswer(value: unknown, asked: boolean): number | null {
  if (!asked || value === undefined || value === null) return null;
  const answer = typeof value === "number" ? value : typeof value === "string" && /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(answer) || answer < safetyQuestion.scale.min || answer > safetyQuestion.scale.max) throw invalid(answerMessages.keselamatan);
  return answer;
}
