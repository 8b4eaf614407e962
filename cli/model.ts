import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { invalid } from "../src/errors";
import { decodeSpreadsheetText } from "../src/spreadsheet-input";
import { formatLocalTimestamp } from "../src/local-time";
import { readModelSource } from "../src/models/files";
import { ModelRegistry, type ModelRecord } from "../src/models/registry";
import type { Config } from "../src/config";
import { openData, printTable, type CommandIo } from "./common";
import { commandAudit } from "./audit";
import { choiceOption } from "./options";
import { writeOutputFile } from "./output";
import { fitTable } from "./table";
import { registerModelValidateCommand } from "./measurement";

const types = ["stress", "motivasi"] as const;

function modelId(value: string): number {
  const id = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1) throw invalid(`id model harus bilangan bulat positif, bukan ${JSON.stringify(value)}`);
  return id;
}

async function withRegistry<T>(command: Command, io: CommandIo, use: (registry: ModelRegistry, config: Config) => T | Promise<T>): Promise<T> {
  const { config, db, writes } = openData(command, io);
  try {
    return await use(new ModelRegistry(db, writes, config.dataDir, config.modelsDir), config);
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

/** The width of the terminal the table must fit without wrapping. */
const tableWidth = 100;

/**
 * One line a model, fitted to 100 columns: the time in the faculty's zone to the minute,
 * the file by its name in models/; a long algorithm, version or file name goes on over
 * more lines of its column (`model list --json` has every field on one line).
 */
function printRecords(io: CommandIo, records: ModelRecord[], timeZone: string): void {
  const rows = records.map((record) => [
    String(record.id),
    record.type,
    record.isActive ? "ya" : "tidak",
    formatLocalTimestamp(record.createdAt, timeZone).slice(0, 16).replace("T", " "),
    record.algorithm,
    record.version,
    basename(record.filePath),
  ]);
  const [header, ...fitted] = fitTable([["ID", "JENIS", "AKTIF", "DIBUAT", "ALGORITMA", "VERSI", "FILE"], ...rows], io.outColumns ?? tableWidth, [4, 5, 6]);
  printTable(io, header!, fitted);
}

export function registerModelCommands(program: Command, io: CommandIo): void {
  const model = program.command("model").description("mengelola model prediksi");

  model
    .command("add")
    .description("mendaftarkan model (JSON proyek atau joblib scikit-learn); mencetak id-nya")
    .addOption(choiceOption("--type <jenis>", "jenis model", types).makeOptionMandatory())
    .requiredOption("--file <file>", "file model")
    .option("--activate", "langsung aktifkan")
    .action(async (options: { type: (typeof types)[number]; file: string; activate?: boolean }, command: Command) => {
      const { record } = await withRegistry(command, io, (registry) => registry.add({ ...options, audit: commandAudit(command) }));
      io.out(`${record.id}\n`);
    });

  model
    .command("list")
    .description("menampilkan model yang terdaftar")
    .option("--json", "keluaran JSON")
    .action(async (options: { json?: boolean }, command: Command) => {
      await withRegistry(command, io, (registry, config) => {
        const records = registry.list();
        if (options.json) io.out(`${JSON.stringify(records.map(serializeRecord), null, 2)}\n`);
        else printRecords(io, records, config.timeZone);
      });
    });

  model
    .command("activate <id>")
    .description("mengaktifkan model (model lain sejenis dinonaktifkan)")
    .action(async (id: string, _options: unknown, command: Command) => {
      const record = await withRegistry(command, io, (registry) => registry.activate(modelId(id), commandAudit(command)));
      io.out(`Model ${record.id} (${record.type}) aktif.\n`);
    });

  model
    .command("deactivate <id>")
    .description("menonaktifkan model; skrining memakai ambang batas")
    .action(async (id: string, _options: unknown, command: Command) => {
      const record = await withRegistry(command, io, (registry) => registry.deactivate(modelId(id), commandAudit(command)));
      io.out(`Model ${record.id} (${record.type}) tidak aktif.\n`);
    });

  model
    .command("remove <id>")
    .description("menghapus model yang tidak aktif beserta filenya")
    .option("--force", "hapus walau sudah dipakai skrining (rujukannya dikosongkan)")
    .action(async (id: string, options: { force?: boolean }, command: Command) => {
      const { record, screenings } = await withRegistry(command, io, (registry) => registry.remove(modelId(id), { ...options, audit: commandAudit(command) }));
      io.out(`Model ${record.id} (${record.type}) dihapus${screenings > 0 ? `; ${screenings} skrining tidak lagi merujuk model` : ""}.\n`);
    });

  model
    .command("predict")
    .description("prediksi massal dari CSV tanpa mendaftarkan model")
    .requiredOption("--file <file>", "file model (JSON proyek atau joblib)")
    .requiredOption("--input <csv>", "CSV masukan (header = nama fitur)")
    .option("--out <file>", "CSV keluaran (bawaan: layar)")
    .option("--force", "timpa file --out yang sudah ada")
    .addOption(choiceOption("--type <jenis>", "hanya keluaran ini (wajib untuk model satu keluaran)", types))
    .option("--proba", "tulis juga probabilitas setiap kelas (proba_<keluaran>_<label>)")
    .action(async (options: { file: string; input: string; out?: string; force?: boolean; type?: (typeof types)[number]; proba?: boolean }) => {
      let input: Uint8Array;
      try {
        input = readFileSync(options.input);
      } catch (error) {
        throw invalid(`tidak dapat membaca ${options.input}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      // The batch reader is loaded by this command only, not by every `serve`.
      const { predictCsv } = await import("../src/models/batch");
      const output = predictCsv(readModelSource(options.file).model, decodeSpreadsheetText(input), { type: options.type, probabilities: options.proba === true });
      if (options.out) writeOutputFile(options.out, output, options.force === true);
      else io.out(output);
    });

  registerModelValidateCommand(model, io);
}
