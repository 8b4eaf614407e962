import type { Command } from "commander";
import { appendAuditRows } from "../src/audit/trail";
import { csvDialects, csvDocument, type CsvCell, type CsvDialect } from "../src/csv";
import { currentReliability } from "../src/db/measures";
import { serializeReliability, type Reliability } from "../src/measurement/reliability";
import type { CalibrationRow, LevelRow, TypeValidation, ValidationReport } from "../src/models/validation";
import { ModelValidator, validationTypes } from "../src/models/validation";
import type { ModelType } from "../src/models/classifier";
import { commandAudit } from "./audit";
import { formatTable, openData, type CommandIo } from "./common";
import { choiceOption } from "./options";
import { writeOutputFile } from "./output";

// Decisions §20 on the command line: `skrining model validate` and `skrining stats
// reliability` (the safety question is cli/safety.ts).

/** A rate or a score for a person: two decimals with the Indonesian comma; "-" where there is none (a denominator of 0). */
const decimal = (value: number | null, digits = 2) => (value === null ? "-" : value.toLocaleString("id-ID", { minimumFractionDigits: digits, maximumFractionDigits: digits }));

const confusionColumns = ["tp", "fp", "fn", "tn", "sensitivitas", "spesifisitas", "ppv", "npv"] as const;

function levelTable(rows: readonly LevelRow[]): string {
  return formatTable(
    ["Tingkat", "Positif bila", "TP", "FP", "FN", "TN", "Sensitivitas", "Spesifisitas", "PPV", "NPV"],
    rows.map((row) => [row.tingkat, row.positif_bila, String(row.tp), String(row.fp), String(row.fn), String(row.tn), decimal(row.sensitivitas), decimal(row.spesifisitas), decimal(row.ppv), decimal(row.npv)]),
  );
}

function calibrationText(rows: readonly CalibrationRow[]): string {
  const lines = rows.map((row) => {
    const bins = row.bin.filter((bin) => bin.n > 0).map((bin) => [`${decimal(bin.dari, 1)}–${decimal(bin.sampai, 1)}`, String(bin.n), decimal(bin.rata_rata_prediksi), decimal(bin.proporsi_ya)]);
    return `Tingkat ${row.tingkat}: skor Brier ${decimal(row.brier, 3)} (${row.n} skrining)\n` + formatTable(["Prediksi", "N", "Rata-rata prediksi", "Proporsi ya"], bins);
  });
  return lines.join("\n");
}

const typeNames: Record<ModelType, string> = { stress: "Stres", motivasi: "Motivasi" };

function typeText(result: TypeValidation): string {
  const parts = [`${typeNames[result.jenis]}: ${result.n} skrining dengan hasil (perlu dukungan: ya ${result.ya}, tidak ${result.tidak})`];
  parts.push(...result.keterangan);
  parts.push(`\nAturan ambang (${result.aturan_ambang.n} skrining):\n${levelTable(result.aturan_ambang.per_tingkat)}`);
  const model = result.model;
  if (model) {
    parts.push(`Model aktif #${model.id} (${model.algoritma} ${model.versi}; ${model.n} skrining yang diklasifikasikannya):\n${levelTable(model.per_tingkat)}`);
    parts.push(...model.keterangan);
    if (model.kalibrasi) parts.push(`Kalibrasi probabilitas model (per tingkat: probabilitas bahwa keputusan ya/tidak-nya benar):\n${calibrationText(model.kalibrasi)}`);
  }
  return parts.join("\n");
}

export function validationText(report: ValidationReport): string {
  const text = [`Validasi lokal terhadap penilaian penangan (perlu_dukungan)\n\nPERHATIAN: ${report.catatan_bias_seleksi}\n`, ...report.jenis.map(typeText)].join("\n");
  // Each table ends its own line: one line end at the end, never an empty line.
  return text.replace(/\n*$/, "\n");
}

/** One row per type, source and level: the confusion table with the model's Brier score beside its rows (the calibration bins are in the text and JSON). */
export function validationCsv(report: ValidationReport, dialect: CsvDialect): string {
  const rows: CsvCell[][] = [];
  for (const result of report.jenis) {
    const row = (source: string, modelId: number | null, level: LevelRow, brier: number | null): CsvCell[] => [
      result.jenis,
      source,
      modelId,
      level.tingkat,
      level.positif_bila,
      ...confusionColumns.map((column) => level[column]),
      brier,
    ];
    for (const level of result.aturan_ambang.per_tingkat) rows.push(row("aturan_ambang", null, level, null));
    const model = result.model;
    if (model) {
      for (const level of model.per_tingkat) rows.push(row("model", model.id, level, model.kalibrasi?.find((entry) => entry.tingkat === level.tingkat)?.brier ?? null));
    }
  }
  return csvDocument(["jenis", "sumber", "id_model", "tingkat", "positif_bila", ...confusionColumns, "brier"], rows, dialect);
}

export function reliabilityText(reliability: Reliability): string {
  const source =
    reliability.source === "dihitung"
      ? "dihitung dari skrining yang tersimpan"
      : reliability.fixedBecause === "mahasiswa_kurang"
        ? "nilai tetap: belum 100 mahasiswa punya skrining"
        : "nilai tetap: skor yang tersimpan belum bervariasi";
  return (
    formatTable(
      ["Ukuran", "Nilai"],
      [
        ["Alfa Cronbach", decimal(reliability.alpha, 3)],
        ["Simpangan baku skor stres", decimal(reliability.sd, 2)],
        ["Skrining (n)", String(reliability.screenings)],
        ["Mahasiswa dengan skrining", String(reliability.students)],
        ["Perubahan andal terkecil (poin)", decimal(reliability.smallestReliableChange, 1)],
      ],
    ) + `Sumber: ${source}.\n`
  );
}

interface ValidateOptions {
  type?: ModelType;
  format: "text" | "csv" | "json";
  csv?: CsvDialect;
  out?: string;
  force?: boolean;
}

export function registerModelValidateCommand(model: Command, io: CommandIo): void {
  model
    .command("validate")
    .description("membandingkan model aktif dan aturan ambang dengan penilaian penangan tindak lanjut (perlu_dukungan)")
    .addOption(choiceOption("--type <jenis>", "hanya jenis ini (bawaan: keduanya)", validationTypes))
    .addOption(choiceOption("--format <format>", "format keluaran", ["text", "csv", "json"]).default("text"))
    .addOption(choiceOption("--csv <jenis>", "jenis CSV; bawaan dari SKRINING_CSV, atau excel-id", csvDialects))
    .option("--out <file>", "tulis ke file ini (bawaan: layar)")
    .option("--force", "timpa file --out yang sudah ada")
    .action(async (options: ValidateOptions, command: Command) => {
      const { config, db, writes } = openData(command, io);
      try {
        const report = new ModelValidator(db.$client).validate(options.type ? [options.type] : validationTypes);
        const text =
          options.format === "json"
            ? JSON.stringify(report, null, 2) + "\n"
            : options.format === "csv"
              ? validationCsv(report, options.csv ?? config.csvDialect)
              : validationText(report);
        if (options.out === undefined) io.out(text);
        else writeOutputFile(options.out, text, options.force === true);
        // Aggregates over every student with an outcome: one row without a student, as `followup report` leaves.
        const { actor, target } = commandAudit(command);
        const detail = `validasi model ${options.type ?? "stress dan motivasi"}; ${options.format}${options.out === undefined ? "" : ` ke ${options.out}`}`;
        await writes.run(() => appendAuditRows(db.$client, [{ actor, target, action: "export", nim: null, detail }]));
      } finally {
        db.$client.close();
      }
    });
}

export function registerReliabilityCommand(stats: Command, io: CommandIo): void {
  stats
    .command("reliability")
    .description("reliabilitas skor stres: alfa Cronbach, simpangan baku, n, dan perubahan andal terkecil dalam poin")
    .option("--json", "keluaran JSON")
    .action((options: { json?: boolean }, command: Command) => {
      const { db } = openData(command, io);
      try {
        const reliability = currentReliability(db.$client);
        io.out(options.json ? `${JSON.stringify(serializeReliability(reliability), null, 2)}\n` : reliabilityText(reliability));
      } finally {
        db.$client.close();
      }
    });
}
