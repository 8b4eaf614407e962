// Reading numbers out of text and JSON values, shared by the routes, the model inputs of
// `model predict` and the account import.

/**
 * A decimal number: digits with an optional fraction (or a fraction alone), an optional
 * sign and exponent. Written so that every character can match in only one way, so a
 * test takes time linear in the text: the ambiguous `\d+\.?\d*` takes quadratic time on a
 * long run of digits (decisions §10).
 */
const decimalPattern = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A decimal number as text (surrounding white space allowed), correctly rounded (JS `Number`), or undefined. */
export function parseDecimal(text: string): number | undefined {
  const trimmed = text.trim();
  return decimalPattern.test(trimmed) ? Number(trimmed) : undefined;
}

/**
 * An integer given as a JSON number or as a string of decimal digits (`"4"`), decisions
 * §4. Fractions, booleans, words and exponent forms are not integers. The result may lie
 * outside the safe range (a 30-digit string); callers compare it against their bounds.
 */
export function readInteger(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) ? value : null;
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value);
  return null;
}
