import type { CategoryValue } from "../format";
import { NdArray } from "./numpy";
import { PyObject, describe } from "./pickle-values";
import { InvalidInput } from "../../errors";

/**
 * Typed reads of the values a scikit-learn pickle holds; anything of another shape is
 * refused with what it was and where it was found.
 */

/** A file whose model cannot be reproduced exactly. */
class ConversionError extends InvalidInput {}

export function fail(message: string): never {
  throw new ConversionError(message);
}

export function isObject(value: unknown, ...classNames: string[]): value is PyObject {
  return value instanceof PyObject && (classNames.length === 0 || classNames.includes(value.className));
}

export function attribute(object: PyObject, key: string): unknown {
  if (!object.has(key)) fail(`${object.className} tidak punya atribut ${key} (belum dilatih?)`);
  return object.get(key);
}

export function sequence(value: unknown, what: string): unknown[] {
  if (value instanceof NdArray) return value.toList();
  if (Array.isArray(value)) return value;
  return fail(`${what} berupa ${describe(value)}, bukan daftar`);
}

export function finiteNumbers(value: unknown, what: string): number[] {
  return sequence(value, what).map((item) => (typeof item === "number" && Number.isFinite(item) ? item : fail(`${what} berisi ${describe(item)} yang bukan angka berhingga`)));
}

export function integer(value: unknown, what: string): number {
  return Number.isSafeInteger(value) ? (value as number) : fail(`${what} bukan bilangan bulat`);
}

export function text(value: unknown, what: string): string {
  return typeof value === "string" ? value : fail(`${what} bukan teks`);
}

export function matrix(value: unknown, what: string): number[][] {
  if (!(value instanceof NdArray) || value.shape.length !== 2 || !value.numbers) fail(`${what} bukan matriks angka`);
  const [rows, columns] = value.shape as [number, number];
  const numbers = Array.from(value.numbers);
  if (!numbers.every(Number.isFinite)) fail(`${what} berisi nilai tidak berhingga`);
  return Array.from({ length: rows }, (_, row) => numbers.slice(row * columns, (row + 1) * columns));
}

/** Category values: texts, or numbers that match numerically. Missing values are refused. */
export function categories(value: unknown, what: string): CategoryValue[] {
  return sequence(value, what).map((item) => {
    if (typeof item === "string") return item;
    if (typeof item === "number" && Number.isFinite(item)) return item;
    return fail(`${what} berisi ${typeof item === "number" ? String(item) : describe(item)}; kategori kosong (NaN/None) tidak didukung`);
  });
}

/** "1.6.1" → [1, 6]; the pickling version decides a few stored layouts. */
export function sklearnVersion(object: PyObject): [number, number] {
  const version = object.has("_sklearn_version") ? object.get("_sklearn_version") : undefined;
  const match = typeof version === "string" ? /^(\d+)\.(\d+)/.exec(version) : null;
  if (!match) return fail(`${object.className} tanpa _sklearn_version`);
  return [Number(match[1]), Number(match[2])];
}

export function atLeast(version: [number, number], major: number, minor: number): boolean {
  return version[0] > major || (version[0] === major && version[1] >= minor);
}
