import type { Command } from "commander";
import { readFileSync } from "node:fs";
import type { ReplaceableFile } from "../src/konten/replaceable-file";
import { invalid } from "../src/errors";
import { silentLogger } from "../src/logger";
import { KontenService } from "../src/modules/konten/service";
import { QuestionsService } from "../src/modules/questions/service";
import { replaceText, textSubjects } from "../src/konten/texts";
import { commandAudit } from "./audit";
import { configOf, openData, type CommandIo } from "./common";

interface ReplaceableCommands<T> {
  name: string;
  /** What the group manages, for `--help`. */
  subject: string;
  open(dataDir: string): Pick<ReplaceableFile<T>, "current" | "replace">;
  /** The line printed after a successful import; `previous` is what was in force before it. */
  replaced(value: T, previous: T): string;
}

/**
 * `<name> import <file>` and `<name> export` for a data file the faculty may replace: the
 * import validates first and changes nothing on any problem (every problem is listed);
 * the export prints what is in force, as a starting point.
 */
function registerReplaceable<T>(program: Command, io: CommandIo, commands: ReplaceableCommands<T>): void {
  const group = program.command(commands.name).description(`mengelola ${commands.subject}`);

  group
    .command("import <file>")
    .description(`mengganti ${commands.subject} dengan isi file JSON (divalidasi lebih dulu)`)
    .action(async (file: string, _options: unknown, command: Command) => {
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(file, "utf8"));
      } catch (error) {
        throw invalid(`tidak dapat membaca ${file} sebagai JSON: ${(error as Error).message}`);
      }
      const { config, db, writes } = openData(command, io);
      try {
        const { stored, previous } = await replaceText({ file: commands.open(config.dataDir), subject: commands.subject, value, source: commandAudit(command), writes, sqlite: db.$client });
        io.out(`${commands.replaced(stored, previous)}\n`);
      } finally {
        db.$client.close();
      }
    });

  group
    .command("export")
    .description(`mencetak ${commands.subject} yang berlaku sebagai JSON (titik awal untuk diubah)`)
    .action((_options: unknown, command: Command) => {
      io.out(`${JSON.stringify(commands.open(configOf(command, io).dataDir).current(), null, 2)}\n`);
    });
}

export function registerContentCommands(program: Command, io: CommandIo): void {
  registerReplaceable(program, io, {
    name: "questions",
    subject: textSubjects.questions,
    open: (dataDir) => {
      const service = new QuestionsService(dataDir, silentLogger);
      return { current: () => service.list(), replace: (value) => service.replace(value) };
    },
    replaced: (questions) => `Teks ${questions.length} butir kuesioner diganti.`,
  });
  registerReplaceable(program, io, {
    name: "contact",
    subject: textSubjects.help,
    open: (dataDir) => new KontenService(dataDir, silentLogger).help,
    replaced: (help) => `Teks bantuan "${help.title}" dipasang.`,
  });
  registerReplaceable(program, io, {
    name: "notice",
    subject: textSubjects.privacyNotice,
    open: (dataDir) => new KontenService(dataDir, silentLogger).privacyNotice,
    // Students are asked again only for a new version: the line says which case this was.
    replaced: (notice, previous) =>
      notice.version === previous.version
        ? `Pemberitahuan privasi versi ${notice.version} dipasang. Versinya sama dengan sebelumnya: mahasiswa yang sudah menyetujui versi ini tidak diminta menyetujui lagi (ganti "version" bila isinya berubah berarti).`
        : `Pemberitahuan privasi versi ${notice.version} dipasang (sebelumnya ${previous.version}). Setiap mahasiswa diminta menyetujuinya saat masuk berikutnya.`,
  });
}
