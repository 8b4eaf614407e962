import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { clearUnshownPassword } from "../src/accounts/first-admin";
import { commandOn } from "../src/command-line";
import { breaksPasswordRule, passwordRule } from "../src/accounts/password-rule";
import type { ImportResult, MinorStudent } from "../src/accounts/import-result";
import { AccountsService } from "../src/accounts/service";
import { validateAccountRow, type AccountColumn } from "../src/accounts/validation";
import { invalid } from "../src/errors";
import { commandAudit } from "./audit";
import { openData, printTable, type CommandIo } from "./common";
import { choiceOption } from "./options";

const roles = ["mahasiswa", "dosen", "admin"] as const;

export function registerAccountCommands(program: Command, io: CommandIo): void {
  const accounts = program.command("accounts").description("mengelola akun");

  accounts
    .command("import <file>")
    .description("membuat atau memperbarui akun dari file CSV (UTF-8, UTF-16 atau Windows-1252; pemisah , atau ;)")
    .option("--reset-passwords", "akun yang sudah ada juga mendapat password dari file; semua sesinya berakhir")
    .action(async (file: string, options: { resetPasswords?: boolean }, command: Command) => {
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(file);
      } catch (error) {
        throw invalid(`tidak dapat membaca ${file}: ${(error as Error).message}`);
      }
      // The CSV reader and the progress bar are loaded by this command only, not by every `serve`.
      const [{ readRoster }, { SingleBar, Presets }] = await Promise.all([import("../src/accounts/import"), import("cli-progress")]);
      const roster = readRoster(bytes);
      const { config, db, writes } = openData(command, io, "may-create-if-named");
      try {
        const service = new AccountsService(db, writes, config.bcryptCost);
        const bar = io.errIsTerminal ? new SingleBar({ format: "membuat hash password {bar} {value}/{total} ({eta} s)", stream: process.stderr }, Presets.shades_classic) : undefined;
        const started = performance.now();
        let result: ImportResult;
        try {
          result = await service.importRoster(roster, {
            resetPasswords: options.resetPasswords === true,
            source: commandAudit(command),
            onHashed: (done, total) => (done === 0 ? bar?.start(total, 0) : bar?.update(done)),
          });
        } finally {
          bar?.stop();
        }
        io.out(importSummary(result, (performance.now() - started) / 1000, config.dataDir));
        io.out(minorsNotice(service.minorsAmong(roster.accounts.flatMap((row) => (row.nim === undefined ? [] : [row.nim])))));
      } finally {
        db.$client.close();
      }
    });

  accounts
    .command("add")
    .description("membuat satu akun")
    .addOption(choiceOption("--role <peran>", "peran", roles).makeOptionMandatory())
    .requiredOption("--username <username>", "username")
    .requiredOption("--password <password>", "password awal")
    .option("--nim <nim>", "NIM (mahasiswa)")
    .option("--nip <nip>", "NIP (dosen)")
    .option("--nama <nama>", "nama")
    .option("--jurusan <jurusan>", "nama jurusan (dibuat bila baru)")
    .option("--angkatan <tahun>", "tahun angkatan (4 angka)")
    .option("--kelas <kelas>", "kelas")
    .option("--nip-doswal <nip>", "NIP dosen wali")
    .option("--telepon <nomor>", "nomor telepon/WhatsApp dosen, ditampilkan kepada mahasiswa bimbingannya")
    .option("--activated", "langsung aktif")
    .action(async (options: Record<string, string | boolean | undefined>, command: Command) => {
      const cells: Partial<Record<AccountColumn, string>> = {};
      for (const column of ["role", "username", "password", "nim", "nip", "nama", "jurusan", "angkatan", "kelas", "telepon"] as const) {
        if (typeof options[column] === "string") cells[column] = options[column] as string;
      }
      if (typeof options.nipDoswal === "string") cells.nip_doswal = options.nipDoswal;
      cells.activated = options.activated ? "true" : "false";
      // Refused before the data folder is opened (or created): a bad row starts no installation.
      const { account: checked, errors } = validateAccountRow(1, cells);
      if (!checked) throw invalid(errors.join("; "));
      const { config, db, writes } = openData(command, io, "may-create-if-named");
      try {
        const account = await new AccountsService(db, writes, config.bcryptCost).addOne(cells, commandAudit(command));
        io.out(
          account.activated
            ? `Akun ${account.username} (${account.role}) dibuat, sudah aktif.\n`
            : `Akun ${account.username} (${account.role}) dibuat, belum aktif: pemiliknya mengaktifkan sendiri dengan password awal, ` +
                `atau jalankan "${commandOn(config.dataDir, `accounts activate ${account.username}`)}".\n`,
        );
      } finally {
        db.$client.close();
      }
    });

  accounts
    .command("list")
    .description("menampilkan akun")
    .addOption(choiceOption("--role <peran>", "hanya peran ini", roles))
    .option("--json", "keluaran JSON")
    .action((options: { role?: (typeof roles)[number]; json?: boolean }, command: Command) => {
      const { config, db, writes } = openData(command, io);
      const list = new AccountsService(db, writes, config.bcryptCost).list(options.role);
      db.$client.close();
      if (options.json) {
        io.out(`${JSON.stringify(list, null, 2)}\n`);
        return;
      }
      const rows = list.map((account) => [
        String(account.id),
        account.username,
        account.role,
        account.disabled ? "nonaktif" : account.activated ? "ya" : "tidak",
        account.nim ?? account.nip ?? "",
        account.under_18 ? "ya" : "",
        account.nama ?? "",
      ]);
      printTable(io, ["ID", "USERNAME", "ROLE", "AKTIF", "NIM/NIP", "<18", "NAMA"], rows);
      const minors = list.filter((account) => account.under_18).length;
      if (minors > 0) io.out(`${minors} mahasiswa berusia di bawah 18 tahun (kolom <18): ${guardianConsent}\n`);
    });

  accounts
    .command("passwd <username>")
    .description("mengganti password (ditanyakan dua kali di terminal, atau dibaca dari stdin); semua sesi akun itu berakhir")
    .option("--one-time", "buat password sekali pakai yang ditampilkan sekali; pemiliknya harus menggantinya saat masuk berikutnya")
    .action(async (username: string, options: { oneTime?: boolean }, command: Command) => {
      const { config, db, writes } = openData(command, io);
      try {
        const service = new AccountsService(db, writes, config.bcryptCost);
        if (options.oneTime) {
          const password = await service.resetPassword(username, commandAudit(command));
          clearUnshownPassword(config.dataDir, username);
          io.out(`Password sekali pakai untuk ${username}: ${password}\n`);
          io.out(`Berikan kepada pemiliknya (hanya ditampilkan sekali); ia harus menggantinya saat masuk berikutnya. Semua sesinya berakhir.\n`);
          return;
        }
        // An unknown account is refused before anyone types a password for it.
        service.accountId(username);
        const password = io.inIsTerminal ? await askNewPassword(io) : (await io.readStdin()).replace(/\r?\n$/, "");
        await service.changePassword(username, password, commandAudit(command));
        // An admin whose first password was never shown has one now.
        clearUnshownPassword(config.dataDir, username);
        io.out(`Password ${username} diganti; semua sesinya berakhir.\n`);
      } finally {
        db.$client.close();
      }
    });

  accounts
    .command("activate <username>")
    .description("mengaktifkan akun: pemiliknya bisa login tanpa aktivasi; juga mengakhiri penonaktifan")
    .action(async (username: string, _options: unknown, command: Command) => {
      const { config, db, writes } = openData(command, io);
      try {
        const changed = await new AccountsService(db, writes, config.bcryptCost).setActivated(username, true, commandAudit(command));
        io.out(changed ? `Akun ${username} diaktifkan.\n` : `Akun ${username} sudah aktif.\n`);
      } finally {
        db.$client.close();
      }
    });

  accounts
    .command("deactivate <username>")
    .description("menonaktifkan akun: semua sesinya berakhir, login dan aktivasi ditolak sampai akun diaktifkan lagi oleh admin")
    .action(async (username: string, _options: unknown, command: Command) => {
      const { config, db, writes } = openData(command, io);
      try {
        const changed = await new AccountsService(db, writes, config.bcryptCost).setActivated(username, false, commandAudit(command));
        io.out(
          changed
            ? `Akun ${username} dinonaktifkan; semua sesinya berakhir. Login dan aktivasi ditolak sampai admin menjalankan "${commandOn(config.dataDir, `accounts activate ${username}`)}".\n`
            : `Akun ${username} sudah dinonaktifkan; semua sesinya berakhir.\n`,
        );
      } finally {
        db.$client.close();
      }
    });
}

/** The new password, typed twice without echo; the rule is checked before the second prompt. */
async function askNewPassword(io: CommandIo): Promise<string> {
  const password = await io.readSecret("Password baru: ");
  if (breaksPasswordRule(password)) throw invalid(passwordRule);
  if ((await io.readSecret("Ulangi password baru: ")) !== password) throw invalid("kedua password tidak sama; password tidak diganti.");
  return password;
}

const guardianConsent = "UU 27/2022 meminta persetujuan orang tua atau wali untuk memproses data mereka; mintalah dan simpan buktinya (docs/privasi.md).";

/** A line per student of the import who is under 18 by the stored `usia`, under what the law asks for them. */
function minorsNotice(minors: readonly MinorStudent[]): string {
  if (minors.length === 0) return "";
  const lines = minors.map((student) => `  ${student.nim}${student.nama ? ` ${student.nama}` : ""} (usia ${student.usia})\n`);
  return `Perhatian: ${minors.length} mahasiswa berusia di bawah 18 tahun. ${guardianConsent}\n${lines.join("")}`;
}

/** The import's one-line summary, and a hint when rows asked for an activation the import does not do. */
function importSummary(result: ImportResult, seconds: number, dataDir: string): string {
  const reset = result.passwordsReset > 0 ? `; password ${result.passwordsReset} akun lama diganti dan sesinya diakhiri` : "";
  let text = `Impor selesai: ${result.created} akun dibuat, ${result.updated} diperbarui, ${result.unchanged} tidak berubah${reset} (${seconds.toFixed(1)} s).\n`;
  if (result.leftInactive > 0) {
    text +=
      `Catatan: ${result.leftInactive} akun lama tetap belum aktif atau tetap dinonaktifkan walau kolom activated bernilai ya; impor tidak mengubah status aktif akun lama. ` +
      `Aktifkan dengan "${commandOn(dataDir, "accounts activate <username>")}".\n`;
  }
  return text;
}
