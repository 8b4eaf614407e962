import type { Command } from "commander";
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { invalid } from "../src/errors";
import { openData, type CommandIo } from "./common";

export function registerBackupCommand(program: Command, io: CommandIo): void {
  program
    .command("backup <file>")
    .description("salinan basis data yang konsisten, aman saat server berjalan")
    .action((file: string, _options: unknown, command: Command) => {
      const target = resolve(file);
      if (existsSync(target)) throw invalid(`${target} sudah ada; pilih nama file lain.`);
      // Written under a temporary name beside the target, checked, then renamed: a backup
      // that fails half way (a full disk) leaves no file that looks like a backup.
      const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
      const { db } = openData(command, io);
      try {
        // VACUUM INTO reads one snapshot inside a read transaction, so writes that the
        // server commits meanwhile neither block it nor tear the copy.
        db.$client.run("VACUUM INTO ?", [temporary]);
        chmodSync(temporary, 0o600);
        const copy = new Database(temporary, { readonly: true });
        try {
          const verdict = copy.query<{ quick_check: string }, []>("PRAGMA quick_check").get();
          if (verdict?.quick_check !== "ok") throw invalid(`salinan tidak utuh (${verdict?.quick_check}); cadangan tidak disimpan.`);
        } finally {
          copy.close();
        }
        renameSync(temporary, target);
      } catch (error) {
        rmSync(temporary, { force: true });
        throw error;
      } finally {
        db.$client.close();
      }
      io.out(`Cadangan tersimpan di ${target}\n`);
    });
}
