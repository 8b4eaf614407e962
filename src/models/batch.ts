import { parse } from "csv-parse/sync";
import { parseDecimal } from "../numbers";
import type { CompiledModel } from "./predict";
import { PredictionError, pythonFloat, type Cell } from "./predict-values";
import type { ModelType } from "./classifier";
import { csvField } from "../csv";
import { InvalidInput } from "../errors";
import { separatorOf } from "../spreadsheet-input";

/**
 * `model predict`: rows of a CSV file (model inputs matched by header name, in any order,
 * other columns ignored) to a CSV of labels with the header `stress,motivasi` (one column
 * with `type`, which a one-output model needs), and on request each class's probability.
 * The input may come from an Indonesian spreadsheet (decisions §12): `,`, `;` or tab
 * between fields, found from the header, and with `;` or tab the decimal comma (`3,45`).
 * Empty cells are missing values, which only an imputing model, or one that routes them
 * (HistGradientBoosting), accepts. Labels and text classes are written as CSV texts
 * (csv.ts), numeric classes and probabilities as Python writes them.
 */

class BatchError extends InvalidInput {}

/** Column names that identify a row (any case), carried to the output when they are no model input. */
const identifyingColumns = ["id", "nim"];

/** At most this many bad rows are listed; the count says how many there are in all. */
const listedBadRows = 100;

export interface BatchOptions {
  /** Only this output: required for a one-output model, a column of a two-output one otherwise. */
  type?: ModelType;
  /** Also each class's probability, `proba_<output>_<label>` after the labels. */
  probabilities?: boolean;
}

/** The output columns to write: both of a two-output model, or the one `type` names. */
function outputColumns(model: CompiledModel, type: ModelType | undefined): { name: ModelType; column: number }[] {
  if (model.nOutputs === 1) {
    if (!type) throw new BatchError("model ini memprediksi satu keluaran; sebutkan --type stress atau --type motivasi");
    return [{ name: type, column: 0 }];
  }
  const both = [{ name: "stress" as const, column: 0 }, { name: "motivasi" as const, column: 1 }];
  return type ? both.filter((output) => output.name === type) : both;
}

export function predictCsv(model: CompiledModel, csvText: string, options: BatchOptions = {}): string {
  const outputs = outputColumns(model, options.type);
  const probabilityHeader = options.probabilities
    ? outputs.flatMap((output) => model.classLabels(output.column).map((label) => csvField(`proba_${output.name}_${label}`)))
    : [];
  let records: { record: string[]; info: { lines: number } }[];
  const delimiter = separatorOf(csvText);
  // With `,` between fields a comma cannot be the decimal mark.
  const decimalComma = delimiter !== ",";
  try {
    // Rows of another length are reported with the other bad rows, not as a parse failure.
    records = parse(csvText, { bom: true, delimiter, info: true, skip_empty_lines: true, relax_column_count: true }) as unknown as typeof records;
  } catch (error) {
    throw new BatchError(`CSV tidak dapat dibaca: ${(error as Error).message}`);
  }
  const [header, ...rows] = records;
  if (!header) throw new BatchError("file CSV kosong: baris pertama harus header");
  const names = header.record.map((name) => name.trim());
  const duplicated = names.filter((name, index) => names.indexOf(name) !== index);
  if (duplicated.length > 0) throw new BatchError(`kolom ganda: ${[...new Set(duplicated)].join(", ")}`);
  const missing = model.inputNames.filter((name) => !names.includes(name));
  if (missing.length > 0) throw new BatchError(`kolom masukan model tidak ada: ${missing.join(", ")}`);
  const positions = model.inputNames.map((name) => names.indexOf(name));
  const idColumn = names.findIndex((name) => identifyingColumns.includes(name.toLowerCase()) && !model.inputNames.includes(name));

  const lines = [[...(idColumn === -1 ? [] : [csvField(names[idColumn]!)]), ...outputs.map((output) => output.name), ...probabilityHeader].join(",")];
  const badRows: string[] = [];
  for (const { record, info } of rows) {
    if (record.length !== names.length) {
      badRows.push(`baris ${info.lines}: ${record.length} kolom, header ${names.length} kolom`);
      continue;
    }
    const problems: string[] = [];
    const row = positions.map((position, index): Cell => {
      const text = record[position]!;
      if (text.trim() === "") return null;
      if (model.inputTypes[index] === "string") return text;
      const value = parseDecimal(decimalComma && /^\s*[+-]?\d+,\d+\s*$/.test(text) ? text.replace(",", ".") : text);
      if (value !== undefined && Number.isFinite(value)) return value;
      problems.push(`${model.inputNames[index]} bukan angka: ${JSON.stringify(text)}`);
      return null;
    });
    if (problems.length > 0) {
      badRows.push(`baris ${info.lines}: ${problems.join("; ")}`);
      continue;
    }
    try {
      const predicted = model.predictOutputs(row);
      // A number in Python's notation needs no quotes and is no formula.
      const labels = outputs.map(({ column }) => (predicted[column]!.isNumber ? predicted[column]!.text : csvField(predicted[column]!.text)));
      const probabilities = options.probabilities
        ? outputs.flatMap(({ column }) => {
            const values = predicted[column]!.probabilities;
            // A kind without probabilities (hard voting) leaves its cells empty.
            return model.classLabels(column).map((_, index) => (values ? pythonFloat(values[index]!) : ""));
          })
        : [];
      lines.push([...(idColumn === -1 ? [] : [csvField(record[idColumn]!)]), ...labels, ...probabilities].join(","));
    } catch (error) {
      if (!(error instanceof PredictionError)) throw error;
      badRows.push(`baris ${info.lines}: ${error.message}`);
    }
  }
  if (badRows.length > 0) {
    const listed = badRows.slice(0, listedBadRows);
    if (badRows.length > listed.length) listed.push(`... dan ${badRows.length - listed.length} baris lain`);
    throw new BatchError(`${badRows.length} baris tidak dapat diprediksi; tidak ada keluaran yang ditulis.`, { lines: listed });
  }
  return lines.join("\n") + "\n";
}
