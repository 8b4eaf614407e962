import type { Command } from "commander";
import { diagnose } from "../src/diagnosis/doctor";
import { invalid } from "../src/errors";
import { dataDirOf, type CommandIo } from "./common";

/**
 * `skrining doctor` (issue 44, item 6): the installation as an IT person needs to see it,
 * read without changing anything: each part in one line, each problem with what to do. Exit
 * code 1 when a problem needs action (MASALAH); advice (SARAN) leaves it 0.
 */
export function registerDoctorCommand(program: Command, io: CommandIo): void {
  program
    .command("doctor")
    .description(
      "memeriksa instalasi tanpa mengubah apa pun: versi, skema, folder data dan pemiliknya, ruang disk, server dan port, konsol admin, cadangan, sertifikat; " +
        "setiap masalah dengan tindakannya (kode keluar 1 bila ada masalah yang perlu tindakan)",
    )
    .action(async (_options: unknown, command: Command) => {
      const sections = await diagnose(dataDirOf(command, io));
      let problems = 0;
      let advice = 0;
      for (const section of sections) {
        io.out(`${section.topic}: ${section.text}\n`);
        for (const finding of section.findings) {
          if (finding.severity === "masalah") problems++;
          else advice++;
          io.out(`  ${finding.severity === "masalah" ? "MASALAH" : "SARAN"}: ${finding.what}\n    Tindakan: ${finding.action}\n`);
        }
      }
      const summary = `${problems} masalah perlu tindakan, ${advice} saran.`;
      if (problems > 0) throw invalid(`${summary} Lihat MASALAH di atas.`);
      io.out(`Hasil: ${summary}\n`);
    });
}
