import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { loadConfig } from "../src/config";
import { silentLogger } from "../src/logger";
import { QuestionsService } from "../src/modules/kuesioner/service";
import { CliError, dataDirOf } from "./common";

export function registerQuestionCommands(program: Command): void {
  const questions = program.command("questions").description("mengelola teks butir kuesioner");

  questions
    .command("import <file>")
    .description("mengganti teks 68 butir kuesioner dengan isi file JSON (divalidasi lebih dulu)")
    .action((file: string, _options: unknown, command: Command) => {
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(file, "utf8"));
      } catch (error) {
        throw new CliError(`tidak dapat membaca ${file} sebagai JSON: ${(error as Error).message}`);
      }
      const service = new QuestionsService(loadConfig(dataDirOf(command)).dataDir, silentLogger);
      const { questions: stored, errors } = service.replace(value);
      if (!stored) {
        for (const error of errors) console.error(error);
        throw new CliError(`${errors.length} masalah ditemukan; teks pertanyaan tidak diganti.`);
      }
      console.log(`Teks ${stored.length} butir kuesioner diganti.`);
    });

  questions
    .command("export")
    .description("mencetak teks butir kuesioner yang berlaku sebagai JSON (titik awal untuk diubah)")
    .action((_options: unknown, command: Command) => {
      const service = new QuestionsService(loadConfig(dataDirOf(command)).dataDir, silentLogger);
      console.log(JSON.stringify(service.list(), null, 2));
    });
}
