import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { silentLogger } from "../src/logger";
import { QuestionsService } from "../src/modules/questions/service";
import { invalid } from "../src/errors";
import { configOf, type CommandIo } from "./common";

export function registerQuestionCommands(program: Command, io: CommandIo): void {
  const questions = program.command("questions").description("mengelola teks butir kuesioner");

  questions
    .command("import <file>")
    .description("mengganti teks 68 butir kuesioner dengan isi file JSON (divalidasi lebih dulu)")
    .action((file: string, _options: unknown, command: Command) => {
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(file, "utf8"));
      } catch (error) {
        throw invalid(`tidak dapat membaca ${file} sebagai JSON: ${(error as Error).message}`);
      }
      const service = new QuestionsService(configOf(command, io).dataDir, silentLogger);
      const { questions: stored, errors } = service.replace(value);
      if (!stored) {
        for (const error of errors) io.err(`${error}\n`);
        throw invalid(`${errors.length} masalah ditemukan; teks pertanyaan tidak diganti.`);
      }
      io.out(`Teks ${stored.length} butir kuesioner diganti.\n`);
    });

  questions
    .command("export")
    .description("mencetak teks butir kuesioner yang berlaku sebagai JSON (titik awal untuk diubah)")
    .action((_options: unknown, command: Command) => {
      const service = new QuestionsService(configOf(command, io).dataDir, silentLogger);
      io.out(`${JSON.stringify(service.list(), null, 2)}\n`);
    });
}
