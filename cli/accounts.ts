import { type Command, Option } from "commander";
import { SingleBar, Presets } from "cli-progress";
import { readFileSync } from "node:fs";
import { parseAccountsCsv } from "../src/accounts/import";
import { AccountsService, rowsRefused } from "../src/accounts/service";
import { validateAccountRow, type AccountColumn } from "../src/accounts/validation";
import { conflict, invalid } from "../src/errors";
import { openData, printTable, type CommandIo } from "./common";

const roles = ["mahasiswa", "dosen", "admin"] as const;

export function registerAccountCommands(program: Command, io: CommandIo): void {
  const accounts = program.command("accounts").description("mengelola akun");

  accounts
    .command("import <file>")
    .description("membuat atau memperbarui akun dari file CSV")
    .action(async (file: string, _options: unknown, command: Command) => {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (error) {
        throw invalid(`tidak dapat membaca ${file}: ${(error as Error).message}`);
      }
      const { accounts: rows, errors } = parseAccountsCsv(text);
      const { config, db, writes } = openData(command, io);
      try {
        const service = new AccountsService(db, writes, config.bcryptCost);
        const problems = [...errors, ...service.findConflicts(rows)];
        if (problems.length > 0) throw rowsRefused(problems);

        const bar = io.errIsTerminal ? new SingleBar({ format: "hashing password {bar} {value}/{total} ({eta}s)", stream: process.stderr }, Presets.shades_classic) : undefined;
        bar?.start(rows.length, 0);
        const started = performance.now();
        try {
          const result = await service.upsert(rows, (done) => bar?.update(done));
          const seconds = ((performance.now() - started) / 1000).toFixed(1);
          io.out(`Impor selesai: ${result.created} akun dibuat, ${result.updated} diperbarui (${seconds} s).\n`);
        } finally {
          bar?.stop();
        }
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
      if (!account) throw invalid(errors.join("; "));
      const { config, db, writes } = openData(command, io);
      try {
        const service = new AccountsService(db, writes, config.bcryptCost);
        if (service.list().some((existing) => existing.username === account.username)) throw conflict(`username ${account.username} sudah ada`);
        const conflicts = service.findConflicts([account]);
        if (conflicts.length > 0) throw invalid(conflicts.map((problem) => problem.message).join("; "));
        await service.upsert([account]);
        io.out(`Akun ${account.username} (${account.role}) dibuat.\n`);
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
      const { config, db, writes } = openData(command, io);
      const list = new AccountsService(db, writes, config.bcryptCost).list(options.role);
      db.$client.close();
      if (options.json) {
        io.out(`${JSON.stringify(list, null, 2)}\n`);
        return;
      }
      const rows = list.map((account) => [String(account.id), account.username, account.role, account.activated ? "ya" : "tidak", account.nim ?? account.nip ?? "", account.nama ?? ""]);
      printTable(io, ["ID", "USERNAME", "ROLE", "AKTIF", "NIM/NIP", "NAMA"], rows);
    });

  accounts
    .command("passwd <username>")
    .description("mengganti password (dibaca dari stdin); semua sesi akun itu berakhir")
    .action(async (username: string, _options: unknown, command: Command) => {
      const password = (await io.readStdin()).replace(/\r?\n$/, "");
      const { config, db, writes } = openData(command, io);
      try {
        await new AccountsService(db, writes, config.bcryptCost).changePassword(username, password);
        io.out(`Password ${username} diganti.\n`);
      } finally {
        db.$client.close();
      }
    });
}
