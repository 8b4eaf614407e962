import { ModelFormatError, type CategoryValue, type ClassList } from "./format";
import { InvalidInput } from "../errors";

/** What goes into a compiled model and what comes out of it, and how each is refused. */

/** One input value: a number, a text, or null when unknown. */
export type Cell = number | string | null;

/** One output: a class value and how sklearn would type it. */
export interface ClassValue {
  value: CategoryValue;
  type: ClassList["type"];
}

/** One output of an estimator: its class, and each class's probability when the kind has them. */
export interface EstimatorOutput extends ClassValue {
  probabilities: Float64Array | null;
}

/** A row the model cannot take (a missing or mistyped value, an unknown category). */
export class PredictionError extends InvalidInput {}

/** A document whose sizes or references do not fit together: refused when it is compiled. */
/** A value a preprocessing part hands to the estimator: a number (an input one part imputes may reach another part unimputed). */
export function estimatorInput(value: Cell): number {
  if (typeof value !== "number") throw new PredictionError("nilai kosong atau teks sampai ke estimator");
  return value;
}

export function invalidModel(message: string): never {
  throw new ModelFormatError(message);
}

/** Python's `repr` of a float: shortest digits, exponent outside 1e-4 ≤ |x| < 1e16. */
export function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa, exponentText] = value.toExponential().split("e") as [string, string];
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) return `${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  const text = String(value);
  return text.includes(".") ? text : `${text}.0`;
}

/** A class value as pandas would write it to CSV. */
export function formatClassValue(value: ClassValue): string {
  if (typeof value.value === "string") return value.value;
  return value.type === "float" ? pythonFloat(value.value) : String(value.value);
}
