import type { Command } from "commander";
import { chmodSync, existsSync } from "node:fs";
import { resolve } from "node:path";
import { CliError, openData } from "./common";

export function registerBackupCommand(program: Command): void {
  program
    .command("backup <file>")
    .description("salinan basis data yang konsisten, aman saat server berjalan")
    .action((file: string, _options: unknown, command: Command) => {
      const target = resolve(file);
      if (existsSync(target)) throw new CliError(`${target} sudah ada; pilih nama file lain.`);
      const { db } = openData(command);
      // VACUUM INTO reads one snapshot inside a read transaction, so writes that the server
      // commits meanwhile neither block it nor tear the copy.
      db.$client.run("VACUUM INTO ?", [target]);
      db.$client.close();
      chmodSync(target, 0o600);
      console.log(`Cadangan tersimpan di ${target}`);
    });
}
