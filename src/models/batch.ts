import { parse } from "csv-parse/sync";
import { parseDecimal } from "../numbers";
import type { CompiledModel } from "./predict";
import { PredictionError, type Cell } from "./predict-values";
import { csvField } from "../csv";
import { InvalidInput } from "../errors";

/**
 * `model predict`: rows of a CSV file (model inputs matched by header name, in any order,
 * other columns ignored) to a CSV of labels with the header `stress,motivasi`. Empty cells
 * are missing values, which only an imputing model accepts. Labels and text classes are
 * written as CSV texts (csv.ts), numeric classes as pandas writes them.
 */

class BatchError extends InvalidInput {}

export function predictCsv(model: CompiledModel, csvText: string): string {
  if (model.nOutputs !== 2) throw new BatchError(`model ini memprediksi ${model.nOutputs} keluaran; model predict butuh dua (stress, motivasi)`);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(csvText, { bom: true, info: true, skip_empty_lines: true }) as unknown as typeof records;
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

  const lines = ["stress,motivasi"];
  for (const { record, info } of rows) {
    const row = positions.map((position, index): Cell => {
      const text = record[position]!;
      if (text.trim() === "") return null;
      if (model.inputTypes[index] === "string") return text;
      const value = parseDecimal(text);
      if (value === undefined || !Number.isFinite(value)) throw new BatchError(`baris ${info.lines}: ${model.inputNames[index]} bukan angka: ${JSON.stringify(text)}`);
      return value;
    });
    try {
      // A number in Python's notation needs no quotes and is no formula.
      lines.push(model.predictOutputs(row).map((output) => (output.isNumber ? output.text : csvField(output.text))).join(","));
    } catch (error) {
      if (error instanceof PredictionError) throw new BatchError(`baris ${info.lines}: ${error.message}`);
      throw error;
    }
  }
  return lines.join("\n") + "\n";
}
