import { phoneNumberPattern } from "./konten/help-phone";
import { parseDecimal, readInteger } from "./numbers";

// The student profile's values (decisions §4 and §8), one rule for the profile route and
// the account import: both store a known spelling (`L`, `perempuan`) as the value the
// models know. The route keeps accepting unknown `gender` and `angkatan` texts (older
// clients send variants); the import, which writes whole rosters at once, refuses what the
// prediction models cannot use.

export const profileFieldMessages = {
  usiaNotNumber: "Usia harus berupa angka.",
  usiaRange: "Usia harus antara 10 dan 100.",
  ipkNotNumber: "IPK harus berupa angka.",
  ipkRange: "IPK harus antara 0.00 dan 4.00",
} as const;

/** A value read from a body or a cell: the value, or the one message that refuses it. */
export type FieldReading<T> = { value: T } | { error: string };

/**
 * Below this age a student is a child in Indonesian law, and UU 27/2022 (Art. 25) asks for
 * a parent's or guardian's consent to process their data: such students are marked for the admin.
 */
export const adultAge = 18;

/** Whether the stored `usia` makes the student a minor; an unknown age is not marked. */
export const isMinor = (usia: number | null | undefined): boolean => typeof usia === "number" && usia < adultAge;

/** `usia`: an integer (a digit string is accepted) from 10 to 100. */
export function readUsia(value: unknown): FieldReading<number> {
  const usia = readInteger(value);
  if (usia === null) return { error: profileFieldMessages.usiaNotNumber };
  if (usia < 10 || usia > 100) return { error: profileFieldMessages.usiaRange };
  return { value: usia };
}

/** `IPK`: a finite number or numeric string from 0 to 4; booleans, `NaN`, `Infinity` and words are not numbers. */
export function readIpk(value: unknown): FieldReading<number> {
  const ipk = typeof value === "number" ? (Number.isFinite(value) ? value : undefined) : typeof value === "string" ? parseDecimal(value) : undefined;
  if (ipk === undefined) return { error: profileFieldMessages.ipkNotNumber };
  if (ipk < 0 || ipk > 4) return { error: profileFieldMessages.ipkRange };
  return { value: ipk };
}

/** The gender values the faculty's forms and the prediction models use, as stored. */
export const genders = ["Laki-laki", "Perempuan"] as const;
export type Gender = (typeof genders)[number];

/** Spellings a roster may use, compared without case: the stored value and its initial. */
const genderSpellings = new Map<string, Gender>([
  ["laki-laki", "Laki-laki"],
  ["l", "Laki-laki"],
  ["perempuan", "Perempuan"],
  ["p", "Perempuan"],
]);

/** `gender` as the models know it: `Laki-laki` or `Perempuan`, also `L`/`P`, in any case. */
export function readGender(text: string): FieldReading<Gender> {
  const gender = genderSpellings.get(text.trim().toLowerCase());
  return gender ? { value: gender } : { error: `gender harus ${genders.join(" atau ")} (boleh L/P)` };
}

/** `gender` as the profile route stores it: a known spelling as the import stores it, any other text as given (trimmed). */
export function genderAsStored(text: string): string {
  const reading = readGender(text);
  return "value" in reading ? reading.value : text.trim();
}

/** The first intake year a roster may name; no student enrolled earlier is still studying. */
export const firstAngkatan = 1990;

/**
 * `angkatan`: the intake year, four digits from 1990 to next year (a roster for the coming
 * intake is prepared before the year starts). The models read it as a number (§8).
 */
export function readAngkatan(text: string, now: Date = new Date()): FieldReading<string> {
  const year = text.trim();
  const last = now.getUTCFullYear() + 1;
  if (!/^\d{4}$/.test(year) || Number(year) < firstAngkatan || Number(year) > last) {
    return { error: `angkatan harus tahun 4 angka, ${firstAngkatan} sampai ${last}` };
  }
  return { value: year };
}

export const teleponMessage = "telepon harus nomor telepon: angka, boleh diawali + dan berisi spasi, tanda kurung atau -, paling banyak 24 karakter.";

/**
 * A lecturer's `telepon` (decisions §19), from the profile route or a roster cell: trimmed;
 * empty (or null) clears it; otherwise a number as the help contact's numbers are written.
 */
export function readTelepon(value: unknown): FieldReading<string | null> {
  if (value === null || value === undefined) return { value: null };
  if (typeof value !== "string") return { error: teleponMessage };
  const text = value.trim();
  if (text === "") return { value: null };
  return phoneNumberPattern.test(text) ? { value: text } : { error: teleponMessage };
}
