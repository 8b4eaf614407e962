import type { Command } from "commander";
import { SafetyQuestionService } from "../src/modules/keselamatan/service";
import { safetyQuestion } from "../src/skrining/safety-question";
import { formatLocalTimestamp } from "../src/local-time";
import { commandAudit } from "./audit";
import { openData, type CommandIo } from "./common";

/**
 * Decisions §20: `skrining safety on|off|status`, the optional safety question (the console's
 * Teks page does the same). Changes leave an `update` row, as the texts' imports do.
 */
export function registerSafetyCommands(program: Command, io: CommandIo): void {
  const safety = program.command("safety").description("pertanyaan keselamatan opsional setelah 68 butir kuesioner (bawaan: nonaktif)");

  const withService = async <T>(command: Command, work: (service: SafetyQuestionService, timeZone: string) => Promise<T> | T): Promise<T> => {
    const { config, db, writes } = openData(command, io);
    try {
      return await work(new SafetyQuestionService(db, writes), config.timeZone);
    } finally {
      db.$client.close();
    }
  };

  safety
    .command("on")
    .description("mengaktifkan pertanyaan keselamatan dengan kontak yang menjawab pada hari yang sama")
    .requiredOption("--contact <nama>", "orang atau layanan yang menjawab pada hari yang sama (mis. \"Konselor fakultas, Ibu Rina\")")
    .requiredOption("--phone <nomor>", "nomor telepon/WhatsApp kontak itu")
    .action(async (options: { contact: string; phone: string }, command: Command) => {
      const { message } = await withService(command, (service) => service.turnOn(options.contact, options.phone, commandAudit(command)));
      io.out(`${message}\n`);
    });

  safety
    .command("off")
    .description("menonaktifkan pertanyaan keselamatan (kontaknya disimpan)")
    .action(async (_options: unknown, command: Command) => {
      const { message } = await withService(command, (service) => service.turnOff(commandAudit(command)));
      io.out(`${message}\n`);
    });

  safety
    .command("status")
    .description("menampilkan apakah pertanyaan keselamatan aktif, pertanyaannya, dan kontaknya")
    .action(async (_options: unknown, command: Command) => {
      const lines = await withService(command, (service, timeZone) => {
        const state = service.current();
        const contact = state.nama_kontak === null ? "belum ada" : `${state.nama_kontak} (${state.telepon_kontak})`;
        return [
          `Pertanyaan keselamatan: ${state.aktif ? "aktif" : "nonaktif"}`,
          `Kontak: ${contact}`,
          ...(state.diubah_pada ? [`Diubah: ${formatLocalTimestamp(state.diubah_pada, timeZone)}`] : []),
          `Pertanyaan: ${safetyQuestion.text}`,
          `Jawaban ${safetyQuestion.criticalFrom} atau lebih (skala ${safetyQuestion.scale.min}-${safetyQuestion.scale.max}) membuka tindak lanjut mendesak.`,
        ];
      });
      io.out(`${lines.join("\n")}\n`);
    });
}
