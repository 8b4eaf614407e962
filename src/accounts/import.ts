import { parse } from "csv-parse/sync";
import { decodeSpreadsheetText, separatorOf } from "../spreadsheet-input";
import { accountColumns, validateAccountRow, type AccountColumn, type AccountInput, type RowError } from "./validation";

const required: readonly AccountColumn[] = ["role", "username", "password"];

/**
 * Reads the text of an accounts CSV (header first; separated by `,`, `;` or tabs, as the
 * header line shows; src/spreadsheet-input.ts decodes a file's bytes) and validates every
 * row on its own. Returns the rows that passed and every problem with its line number, so
 * that the cross-row and database checks can still report on the rows that passed.
 */
export function parseAccountsCsv(text: string): { accounts: AccountInput[]; errors: RowError[] } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // `trim` drops white space around a cell but keeps it inside quotes: a quoted password is taken as written.
    records = parse(text, {
      bom: true,
      delimiter: separatorOf(text),
      info: true,
      skip_empty_lines: true,
      // Spreadsheets write rows that were only formatted as separators alone (`;;;;`).
      skip_records_with_empty_values: true,
      relax_column_count: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return { accounts: [], errors: [{ line, message: `CSV tidak dapat dibaca: ${(error as Error).message}` }] };
  }
  const [header, ...rows] = records;
  if (!header) return { accounts: [], errors: [{ line: 1, message: "file kosong: baris pertama harus header" }] };

  const names = header.record.map((name) => name.trim().toLowerCase());
  const errors: RowError[] = [];
  const unknown = names.filter((name) => !(accountColumns as readonly string[]).includes(name));
  if (unknown.length > 0) errors.push({ line: header.info.lines, message: `kolom tidak dikenal: ${unknown.join(", ")}` });
  const missing = required.filter((name) => !names.includes(name));
  if (missing.length > 0) errors.push({ line: header.info.lines, message: `kolom wajib tidak ada: ${missing.join(", ")}` });
  const duplicated = names.filter((name, index) => names.indexOf(name) !== index);
  if (duplicated.length > 0) errors.push({ line: header.info.lines, message: `kolom ganda: ${duplicated.join(", ")}` });
  if (errors.length > 0) return { accounts: [], errors };

  const accounts: AccountInput[] = [];
  for (const { record, info } of rows) {
    if (record.length !== names.length) {
      errors.push({ line: info.lines, message: `jumlah kolom ${record.length}, seharusnya ${names.length}` });
      continue;
    }
    const cells = Object.fromEntries(names.map((name, index) => [name, record[index]])) as Partial<Record<AccountColumn, string>>;
    const result = validateAccountRow(info.lines, cells);
    if (result.account) accounts.push(result.account);
    for (const message of result.errors) errors.push({ line: info.lines, message });
  }
  if (rows.length === 0) errors.push({ line: header.info.lines, message: "tidak ada baris akun" });
  return { accounts, errors };
}

/** A roster file's bytes as the import reads them: the encoding of a spreadsheet's CSV (decisions §12), then every row checked. */
export function readRoster(bytes: Uint8Array): { accounts: AccountInput[]; errors: RowError[] } {
  return parseAccountsCsv(decodeSpreadsheetText(bytes));
}
