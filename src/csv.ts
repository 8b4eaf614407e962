import { invalid } from "./errors";

/**
 * CSV as RFC 4180 has it and as spreadsheet programs open it safely; every CSV the project
 * writes (`stats export`, `model predict`) goes through here.
 */

/** A cell: a text, a number or boolean written as is, or null for an empty cell. */
export type CsvCell = string | number | boolean | null;

/**
 * How a spreadsheet program expects its CSV (decisions §12): Excel and LibreOffice with
 * Indonesian settings read `;` between fields and `,` as the decimal mark (`excel-id`);
 * with English settings, and every other program, `,` and `.` (`standard`).
 */
export type CsvDialect = "excel-id" | "standard";
export const csvDialects: readonly CsvDialect[] = ["excel-id", "standard"];

const dialects: Record<CsvDialect, { separator: string; decimalMark: string }> = {
  "excel-id": { separator: ";", decimalMark: "," },
  standard: { separator: ",", decimalMark: "." },
};

/** The dialect of `SKRINING_CSV` or an option, any case; a 400/exit 1 naming the choices otherwise. */
export function readCsvDialect(name: string): CsvDialect {
  const dialect = csvDialects.find((each) => each === name.trim().toLowerCase());
  if (!dialect) throw invalid(`Format CSV ${JSON.stringify(name)} tidak dikenal; pilih ${csvDialects.join(" atau ")}.`);
  return dialect;
}

/**
 * One field: quoted when it holds the separator, a quote or a line break; quotes doubled.
 * A text a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or
 * a carriage return) gets a leading `'` (decisions §10); numbers are written as numbers,
 * with the dialect's decimal mark.
 */
export function csvField(value: CsvCell, dialect: CsvDialect = "standard"): string {
  const { separator, decimalMark } = dialects[dialect];
  const text =
    value === null
      ? ""
      : typeof value === "number"
        ? String(value).replace(".", decimalMark)
        : typeof value === "string" && /^[=+\-@\t\r]/.test(value)
          ? `'${value}`
          : String(value);
  return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole file: UTF-8 with a BOM (so spreadsheet programs read names right), CRLF line ends. */
export function csvDocument(header: readonly string[], rows: readonly (readonly CsvCell[])[], dialect: CsvDialect): string {
  const separator = dialects[dialect].separator;
  return "\uFEFF" + [header, ...rows].map((row) => row.map((cell) => csvField(cell, dialect)).join(separator) + "\r\n").join("");
}
