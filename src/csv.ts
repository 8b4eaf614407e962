/**
 * CSV fields as RFC 4180 has them and as spreadsheet programs open them safely; every CSV
 * the project writes (`stats export`, `model predict`) goes through here.
 */

/** A cell: a text, a number or boolean written as is, or null for an empty cell. */
export type CsvCell = string | number | boolean | null;

/**
 * One field: quoted when it holds a comma, a quote or a line break; quotes doubled. A text
 * a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return) gets a leading `'` (decisions §10); numbers are written as numbers.
 */
export function csvField(value: CsvCell): string {
  const text = value === null ? "" : typeof value === "string" && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
