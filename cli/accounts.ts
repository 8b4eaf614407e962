import { type Command, Option } from "commander";
import { SingleBar, Presets } from "cli-progress";
import { readFileSync } from "node:fs";
import { parseAccountsCsv } from "../src/accounts/import";
import { AccountsError, AccountsService } from "../src/accounts/service";
import { validateAccountRow, type AccountColumn, type RowError } from "../src/accounts/validation";
import { CliError, openData, readStdin } from "./common";

const roles = ["mahasiswa", "dosen", "admin"] as const;

function reportRowErrors(errors: RowError[]): never {
  for (const error of errors) console.error(`baris ${error.line}: ${error.message}`);
  throw new CliError(`${new Set(errors.map((error) => error.line)).size} baris tidak valid; tidak ada yang disimpan.`);
}

export function registerAccountCommands(program: Command): void {
  const accounts = program.command("accounts").description("mengelola akun");

  accounts
    .command("import <file>")
    .description("membuat atau memperbarui akun dari file CSV")
    .action(async (file: string, _options: unknown, command: Command) => {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (error) {
        throw new CliError(`tidak dapat membaca ${file}: ${(error as Error).message}`);
      }
      const { accounts: rows, errors } = parseAccountsCsv(text);
      const { config, db, writes } = openData(command);
      const service = new AccountsService(db, writes, config.bcryptCost);
      const problems = [...errors, ...service.findConflicts(rows)].sort((a, b) => a.line - b.line);
      if (problems.length > 0) {
        db.$client.close();
        reportRowErrors(problems);
      }

      const bar = process.stderr.isTTY ? new SingleBar({ format: "hashing password {bar} {value}/{total} ({eta}s)", stream: process.stderr }, Presets.shades_classic) : undefined;
      bar?.start(rows.length, 0);
      const started = performance.now();
      try {
        const result = await service.upsert(rows, (done) => bar?.update(done));
        bar?.stop();
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.log(`Impor selesai: ${result.created} akun dibuat, ${result.updated} diperbarui (${seconds} s).`);
      } catch (error) {
        bar?.stop();
        if (error instanceof AccountsError && error.rowErrors.length > 0) reportRowErrors(error.rowErrors);
        throw error;
      } finally {
        db.$client.close();
      }
    });

  accounts
    .command("add")
    .description("membuat satu akun")
    .addOption(new Option("--role <role>", "peran").choices(roles).makeOptionMandatory())
    .requiredOption("--username <username>", "username")
    .requiredOption("--password <password>", "password awal")
    .option("--nim <nim>", "NIM (mahasiswa)")
    .option("--nip <nip>", "NIP (dosen)")
    .option("--nama <nama>", "nama")
    .option("--jurusan <jurusan>", "nama jurusan (dibuat bila baru)")
    .option("--angkatan <angkatan>", "angkatan")
    .option("--kelas <kelas>", "kelas")
    .option("--nip-doswal <nip>", "NIP dosen wali")
    .option("--activated", "langsung aktif")
    .action(async (options: Record<string, string | boolean | undefined>, command: Command) => {
      const cells: Partial<Record<AccountColumn, string>> = {};
      for (const column of ["role", "username", "password", "nim", "nip", "nama", "jurusan", "angkatan", "kelas"] as const) {
        if (typeof options[column] === "string") cells[column] = options[column] as string;
      }
      if (typeof options.nipDoswal === "string") cells.nip_doswal = options.nipDoswal;
      cells.activated = options.activated ? "true" : "false";
      const { account, errors } = validateAccountRow(1, cells);
      if (!account) throw new CliError(errors.join("; "));
      const { config, db, writes } = openData(command);
      try {
        const service = new AccountsService(db, writes, config.bcryptCost);
        if (service.list().some((existing) => existing.username === account.username)) throw new CliError(`username ${account.username} sudah ada`);
        const conflicts = service.findConflicts([account]);
        if (conflicts.length > 0) throw new CliError(conflicts.map((conflict) => conflict.message).join("; "));
        await service.upsert([account]);
        console.log(`Akun ${account.username} (${account.role}) dibuat.`);
      } finally {
        db.$client.close();
      }
    });

  accounts
    .command("list")
    .description("menampilkan akun")
    .addOption(new Option("--role <role>", "hanya peran ini").choices(roles))
    .option("--json", "keluaran JSON")
    .action((options: { role?: (typeof roles)[number]; json?: boolean }, command: Command) => {
      const { config, db, writes } = openData(command);
      const list = new AccountsService(db, writes, config.bcryptCost).list(options.role);
      db.$client.close();
      if (options.json) {
        console.log(JSON.stringify(list, null, 2));
        return;
      }
      const rows = list.map((account) => [String(account.id), account.username, account.role, account.activated ? "ya" : "tidak", account.nim ?? account.nip ?? "", account.nama ?? ""]);
      const header = ["ID", "USERNAME", "ROLE", "AKTIF", "NIM/NIP", "NAMA"];
      const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
      for (const row of [header, ...rows]) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd());
    });

  accounts
    .command("passwd <username>")
    .description("mengganti password (dibaca dari stdin); token lama tidak berlaku lagi")
    .action(async (username: string, _options: unknown, command: Command) => {
      const password = (await readStdin()).replace(/\r?\n$/, "");
      const { config, db, writes } = openData(command);
      try {
        await new AccountsService(db, writes, config.bcryptCost).changePassword(username, password);
        console.log(`Password ${username} diganti.`);
      } catch (error) {
        if (error instanceof AccountsError) throw new CliError(error.message);
        throw error;
      } finally {
        db.$client.close();
      }
    });
}
