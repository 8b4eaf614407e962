import { Database } from "bun:sqlite";
import type { Command } from "commander";
import { schemaChanges } from "../src/db/migrate";
import { migrations } from "../src/db/migrations";
import { commandAudit } from "./audit";
import { configOf, openData, type CommandIo } from "./common";

/**
 * `skrining migrate`: brings the database's schema to this version after an upgrade, the
 * one command besides `serve` that does (every other refuses an older schema and names
 * this one). Refused while another process has the database open (src/db/index.ts); a
 * database that holds data is copied to backups/ first.
 */
export function registerMigrateCommand(program: Command, io: CommandIo): void {
  program
    .command("migrate")
    .description("memigrasi skema basis data ke versi program ini setelah pembaruan (salinan lama disimpan di backups/ lebih dulu); ditolak selama program lain membukanya")
    .action(async (_options: unknown, command: Command) => {
      const config = configOf(command, io);
      const before = levelOf(config.databasePath);
      if (!before.changes) {
        io.out(`Skema basis data ${config.databasePath} sudah sesuai versi ini (${before.to}); tidak ada yang diubah.\n`);
        return;
      }
      // The audit row is written by the migration itself, in its exclusive hold, as serve's is.
      const { db } = openData(command, io, "existing", "migrate", { source: commandAudit(command) });
      db.$client.close();
      io.out(`Skema basis data ${config.databasePath} dimigrasi: ${before.from} → ${before.to}.\n`);
    });
}

/** What migrating would change, read without changing anything. */
function levelOf(path: string) {
  const sqlite = new Database(path, { readonly: true });
  try {
    return schemaChanges(sqlite, migrations);
  } finally {
    sqlite.close();
  }
}
