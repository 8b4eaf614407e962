import type { Command } from "commander";
import { checkDatabase } from "../src/db";
import { invalid } from "../src/errors";
import { openData, type CommandIo } from "./common";

export function registerCheckCommand(program: Command, io: CommandIo): void {
  program
    .command("check")
    .description("memeriksa kerusakan basis data (quick_check; --full: integrity_check, lebih lama)")
    .option("--full", "pemeriksaan penuh: juga setiap indeks terhadap tabelnya")
    .action((options: { full?: boolean }, command: Command) => {
      // Damage is looked for at any schema level, without changing it.
      const { config, db } = openData(command, io, "existing", "as-is");
      let problems: string[];
      try {
        problems = checkDatabase(db, options.full === true);
      } finally {
        db.$client.close();
      }
      const kind = options.full ? "integrity_check" : "quick_check";
      if (problems.length === 0) {
        io.out(`Basis data ${config.databasePath} baik (${kind}).\n`);
        return;
      }
      for (const problem of problems) io.err(`${problem}\n`);
      throw invalid(
        `Basis data ${config.databasePath} rusak (${kind}: ${problems.length} masalah). Hentikan skrining dan pulihkan cadangan terakhir (docs/operations.md).`,
      );
    });
}
