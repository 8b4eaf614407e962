import { type Command, Option } from "commander";
import { readFileSync, writeFileSync } from "node:fs";
import { invalid } from "../src/errors";
import { predictCsv } from "../src/models/batch";
import { readModelSource } from "../src/models/files";
import { ModelRegistry, type ModelRecord } from "../src/models/registry";
import { openData, printTable, type CommandIo } from "./common";

const types = ["stress", "motivasi"] as const;

function modelId(value: string): number {
  const id = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1) throw invalid(`id model harus bilangan bulat positif, bukan ${JSON.stringify(value)}`);
  return id;
}

function withRegistry<T>(command: Command, io: CommandIo, use: (registry: ModelRegistry) => T): T {
  const { config, db } = openData(command, io);
  try {
    return use(new ModelRegistry(db, config.dataDir, config.modelsDir));
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

function printRecords(io: CommandIo, records: ModelRecord[]): void {
  const rows = records.map((record) => [String(record.id), record.type, record.isActive ? "ya" : "tidak", record.algorithm, record.version, record.createdAt, record.filePath]);
  printTable(io, ["ID", "JENIS", "AKTIF", "ALGORITMA", "VERSI", "DIBUAT", "FILE"], rows);
}

export function registerModelCommands(program: Command, io: CommandIo): void {
  const model = program.command("model").description("mengelola model prediksi");

  model
    .command("add")
    .description("mendaftarkan model (JSON proyek atau joblib scikit-learn); mencetak id-nya")
    .addOption(new Option("--type <type>", "jenis model").choices(types).makeOptionMandatory())
    .requiredOption("--file <file>", "file model")
    .option("--activate", "langsung aktifkan")
    .action((options: { type: (typeof types)[number]; file: string; activate?: boolean }, command: Command) => {
      const { record } = withRegistry(command, io, (registry) => registry.add(options));
      io.out(`${record.id}\n`);
    });

  model
    .command("list")
    .description("menampilkan model yang terdaftar")
    .option("--json", "keluaran JSON")
    .action((options: { json?: boolean }, command: Command) => {
      const records = withRegistry(command, io, (registry) => registry.list());
      if (options.json) io.out(`${JSON.stringify(records.map(serializeRecord), null, 2)}\n`);
      else printRecords(io, records);
    });

  model
    .command("activate <id>")
    .description("mengaktifkan model (model lain sejenis dinonaktifkan)")
    .action((id: string, _options: unknown, command: Command) => {
      const record = withRegistry(command, io, (registry) => registry.activate(modelId(id)));
      io.out(`Model ${record.id} (${record.type}) aktif.\n`);
    });

  model
    .command("deactivate <id>")
    .description("menonaktifkan model; skrining memakai ambang batas")
    .action((id: string, _options: unknown, command: Command) => {
      const record = withRegistry(command, io, (registry) => registry.deactivate(modelId(id)));
      io.out(`Model ${record.id} (${record.type}) tidak aktif.\n`);
    });

  model
    .command("remove <id>")
    .description("menghapus model yang tidak aktif beserta filenya")
    .option("--force", "hapus walau sudah dipakai skrining (rujukannya dikosongkan)")
    .action((id: string, options: { force?: boolean }, command: Command) => {
      const { record, screenings } = withRegistry(command, io, (registry) => registry.remove(modelId(id), options));
      io.out(`Model ${record.id} (${record.type}) dihapus${screenings > 0 ? `; ${screenings} skrining tidak lagi merujuk model` : ""}.\n`);
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
        throw invalid(`tidak dapat membaca ${options.input}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      const output = predictCsv(readModelSource(options.file).model, input);
      if (options.out) writeFileSync(options.out, output, { mode: 0o600 });
      else io.out(output);
    });
}
