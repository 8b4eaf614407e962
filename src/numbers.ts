// Reading numbers out of text, shared by the profile route, the model inputs of
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
