import { type Command, Option } from "commander";
import { readFileSync, writeFileSync } from "node:fs";
import { BatchError, predictCsv } from "../src/models/batch";
import { ModelFileError, readModelSource } from "../src/models/files";
import { ModelFormatError } from "../src/models/format";
import { PredictionError } from "../src/models/predict";
import { ModelRegistry, ModelRegistryError, type ModelRecord } from "../src/models/registry";
import { ConversionError } from "../src/models/sklearn/convert";
import { PickleError } from "../src/models/sklearn/pickle";
import { CliError, openData } from "./common";

const types = ["stress", "motivasi"] as const;

/** Failures of reading, converting or using a model become one-line CLI errors. */
const modelErrors = [ModelRegistryError, ModelFileError, ModelFormatError, ConversionError, PickleError, PredictionError, BatchError];

function modelId(value: string): number {
  const id = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1) throw new CliError(`id model harus bilangan bulat positif, bukan ${JSON.stringify(value)}`);
  return id;
}

function withRegistry<T>(command: Command, run: (registry: ModelRegistry) => T): T {
  const { config, db } = openData(command);
  try {
    return run(new ModelRegistry(db, config.dataDir, config.modelsDir));
  } catch (error) {
    if (modelErrors.some((type) => error instanceof type)) throw new CliError((error as Error).message);
    throw error;
  } finally {
    db.$client.close();
  }
}

/** The record as stored, with the table's column names. */
function serializeRecord(record: ModelRecord) {
  return {
    id: record.id,
    type: record.type,
    file_path: record.filePath,
    is_active: record.isActive,
    thresholds: record.thresholds,
    algorithm: record.algorithm,
    version: record.version,
    metrics: record.metrics,
    input_features: record.inputFeatures,
    categories: record.categories,
    source_sha256: record.sourceSha256,
    created_at: record.createdAt,
  };
}

function printTable(records: ModelRecord[]): void {
  const rows = records.map((record) => [String(record.id), record.type, record.isActive ? "ya" : "tidak", record.algorithm, record.version, record.createdAt, record.filePath]);
  const header = ["ID", "JENIS", "AKTIF", "ALGORITMA", "VERSI", "DIBUAT", "FILE"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd());
}

export function registerModelCommands(program: Command): void {
  const model = program.command("model").description("mengelola model prediksi");

  model
    .command("add")
    .description("mendaftarkan model (JSON proyek atau joblib scikit-learn); mencetak id-nya")
    .addOption(new Option("--type <type>", "jenis model").choices(types).makeOptionMandatory())
    .requiredOption("--file <file>", "file model")
    .option("--activate", "langsung aktifkan")
    .action((options: { type: (typeof types)[number]; file: string; activate?: boolean }, command: Command) => {
      const { record } = withRegistry(command, (registry) => registry.add(options));
      console.log(record.id);
    });

  model
    .command("list")
    .description("menampilkan model yang terdaftar")
    .option("--json", "keluaran JSON")
    .action((options: { json?: boolean }, command: Command) => {
      const records = withRegistry(command, (registry) => registry.list());
      if (options.json) console.log(JSON.stringify(records.map(serializeRecord), null, 2));
      else printTable(records);
    });

  model
    .command("activate <id>")
    .description("mengaktifkan model (model lain sejenis dinonaktifkan)")
    .action((id: string, _options: unknown, command: Command) => {
      const record = withRegistry(command, (registry) => registry.activate(modelId(id)));
      console.log(`Model ${record.id} (${record.type}) aktif.`);
    });

  model
    .command("deactivate <id>")
    .description("menonaktifkan model; skrining memakai ambang batas")
    .action((id: string, _options: unknown, command: Command) => {
      const record = withRegistry(command, (registry) => registry.deactivate(modelId(id)));
      console.log(`Model ${record.id} (${record.type}) tidak aktif.`);
    });

  model
    .command("remove <id>")
    .description("menghapus model yang tidak aktif beserta filenya")
    .option("--force", "hapus walau sudah dipakai skrining (rujukannya dikosongkan)")
    .action((id: string, options: { force?: boolean }, command: Command) => {
      const { record, screenings } = withRegistry(command, (registry) => registry.remove(modelId(id), options));
      console.log(`Model ${record.id} (${record.type}) dihapus${screenings > 0 ? `; ${screenings} skrining tidak lagi merujuk model` : ""}.`);
    });

  model
    .command("predict")
    .description("prediksi massal dari CSV tanpa mendaftarkan model")
    .requiredOption("--file <file>", "file model (JSON proyek atau joblib)")
    .requiredOption("--input <csv>", "CSV masukan (header = nama fitur)")
    .option("--out <file>", "CSV keluaran (default: stdout)")
    .action((options: { file: string; input: string; out?: string }) => {
      let input: string;
      try {
        input = readFileSync(options.input, "utf8");
      } catch (error) {
        throw new CliError(`tidak dapat membaca ${options.input}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      let output: string;
      try {
        output = predictCsv(readModelSource(options.file).model, input);
      } catch (error) {
        if (modelErrors.some((type) => error instanceof type)) throw new CliError((error as Error).message);
        throw error;
      }
      if (options.out) writeFileSync(options.out, output, { mode: 0o600 });
      else process.stdout.write(output);
    });
}
