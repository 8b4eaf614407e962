import type { Command } from "commander";
import { rollBack, rollbackLines } from "../src/backup/rollback";
import { dataDirOf, type CommandIo } from "./common";

/**
 * `skrining rollback [copy]` (issue 44, item 1): after an upgrade that failed, the database
 * as it was before the migration, put back without losing what the new version wrote (moved
 * aside whole, with its WAL files). It stops nothing: a server holding the database refuses it.
 */
export function registerRollbackCommand(program: Command, io: CommandIo): void {
  program
    .command("rollback [salinan]")
    .description(
      "mengembalikan basis data ke salinan sebelum migrasi terakhir (backups/skrining-before-migration-…db) setelah pembaruan gagal; " +
        "basis data sekarang dan file WAL-nya dipindahkan ke backups/ (tidak dihapus); ditolak selama server membukanya",
    )
    .action((chosen: string | undefined, _options: unknown, command: Command) => {
      const dataDir = dataDirOf(command, io);
      const result = rollBack(dataDir, chosen === undefined ? {} : { chosen });
      for (const line of rollbackLines(dataDir, result)) io.out(`${line}\n`);
    });
}
