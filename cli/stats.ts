import type { Command } from "commander";
import { csvDialects, type CsvDialect } from "../src/csv";
import { invalid } from "../src/errors";
import { StatisticsExporter, statisticsExportAudit } from "../src/modules/dosen/export";
import { StatisticsService } from "../src/modules/dosen/statistics";
import { TindakLanjutFiguresReader } from "../src/modules/tindak-lanjut/figures";
import { appendAuditRows } from "../src/audit/trail";
import { commandAudit } from "./audit";
import { openData, type CommandIo } from "./common";
import { choiceOption } from "./options";
import { writeOutputFile } from "./output";
import { registerReliabilityCommand } from "./measurement";

interface ExportOptions {
  nip?: string;
  format: "csv" | "json";
  csv?: CsvDialect;
  out?: string;
  force?: boolean;
  students?: boolean;
}

export function registerStatsCommands(program: Command, io: CommandIo): void {
  const stats = program.command("stats").description("statistik skrining");

  stats
    .command("export")
    .description("statistik per dosen wali dengan angka tindak lanjut (semua dosen tanpa --nip), atau skrining terakhir tiap mahasiswa bimbingan dengan --students")
    .option("--nip <nip>", "hanya dosen ini")
    .addOption(choiceOption("--format <format>", "format keluaran", ["csv", "json"]).default("csv"))
    .addOption(choiceOption("--csv <jenis>", "jenis CSV; excel-id: pemisah ; dan koma desimal (Excel/LibreOffice berbahasa Indonesia), standard: pemisah , dan titik desimal; bawaan dari SKRINING_CSV, atau excel-id", csvDialects))
    .option("--out <file>", "tulis ke file ini (bawaan: layar)")
    .option("--force", "timpa file --out yang sudah ada")
    .option("--students", "per mahasiswa bimbingan: skrining terakhir dan early_warning (perlu --nip)")
    .action(async (options: ExportOptions, command: Command) => {
      if (options.students && options.nip === undefined) throw invalid("--students memerlukan --nip.");
      const { config, db, writes } = openData(command, io);
      try {
        const exporter = new StatisticsExporter(new StatisticsService(db, config.timeZone), new TindakLanjutFiguresReader(db.$client, config.followUpContactDays), config.timeZone);
        const result = exporter.export(options, options.csv ?? config.csvDialect);
        if (options.out === undefined) io.out(result.text);
        else writeOutputFile(options.out, result.text, options.force === true);
        // Written once the export is out.
        const entries = statisticsExportAudit(commandAudit(command), options, result, options.out === undefined ? "" : ` ke ${options.out}`);
        await writes.run(() => appendAuditRows(db.$client, entries));
      } finally {
        db.$client.close();
      }
    });

  registerReliabilityCommand(stats, io);
}
