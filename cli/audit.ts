import { type Command, InvalidArgumentError, Option } from "commander";
import { auditCsv, checkAuditFilter, displayedAuditRow, selectAuditRows, verificationLines, type DisplayedAuditRow } from "../src/audit/listing";
import { commandActor } from "../src/audit/trail";
import { auditAnchor, formatAnchor, parseAnchor, verifyAuditChain } from "../src/audit/verify";
import type { CommandAudit } from "../src/accounts/service";
import { csvDialects, type CsvDialect } from "../src/csv";
import { auditActions, type AuditAction } from "../src/db/schema";
import { invalid } from "../src/errors";
import { openData, printTable, type CommandIo } from "./common";
import { choiceOption } from "./options";
import { writeOutputFile } from "./output";
import { fitTable } from "./table";

/**
 * The audit row's actor and target for a command: the operating-system account that ran
 * it, and the command's words (`skrining accounts passwd`), never its arguments.
 */
export function commandAudit(command: Command): CommandAudit {
  const words: string[] = [];
  for (let current: Command | null = command; current; current = current.parent) words.unshift(current.name());
  return { actor: commandActor(), target: words.join(" ") };
}

/** A calendar date as the options take it; anything else is refused before the database is opened. */
export function calendarDate(value: string): string {
  const date = value.trim();
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : null;
  if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
    throw new InvalidArgumentError("tanggal harus YYYY-MM-DD, misalnya 2026-03-01.");
  }
  return date;
}

interface ListOptions {
  nim?: string;
  user?: string;
  action?: AuditAction;
  since?: string;
  until?: string;
  format: "table" | "csv" | "json";
  csv?: CsvDialect;
  out?: string;
  force?: boolean;
}

/** The width a table fits when the output is not a terminal whose width is known. */
const tableWidth = 100;

function tableText(rows: DisplayedAuditRow[], width: number): string[][] {
  const header = ["ID", "WAKTU", "PERAN", "PENGGUNA", "ALAMAT", "AKSI", "NIM", "TARGET", "KETERANGAN"];
  const cells = rows.map((row) => [
    String(row.id),
    String(row.waktu).slice(0, 19).replace("T", " "),
    String(row.peran),
    row.pengguna === null ? "" : String(row.pengguna),
    row.alamat === null ? "" : String(row.alamat),
    // A row that counts repeated reads says how many; the table has no room for a column of ones.
    row.kali === 1 ? String(row.aksi) : `${row.aksi} ×${row.kali}`,
    row.nim === null ? "" : String(row.nim),
    String(row.target),
    row.keterangan === null ? "" : String(row.keterangan),
  ]);
  // The user, address, target and detail give up width first and go on over more lines.
  return fitTable([header, ...cells], width, [3, 4, 7, 8]);
}

export function registerAuditCommands(program: Command, io: CommandIo): void {
  const audit = program.command("audit").description("jejak audit: siapa melihat atau mengubah data mahasiswa");

  audit
    .command("verify")
    .description("memeriksa rantai hash jejak audit dalam satu potret: baris yang diubah atau dihapus langsung di file basis data, dan pemicu atau view asing, disebutkan")
    .option("--anchor <ID:HASH>", "juga memastikan baris ini (dari skrining audit anchor) masih ada dengan hash yang sama; hash saja (dicetak versi lama) dicari menurut hash-nya")
    .action((options: { anchor?: string }, command: Command) => {
      const anchor = options.anchor === undefined ? undefined : parseAnchor(options.anchor);
      const { db } = openData(command, io);
      try {
        const { rows, anchor: newest, anchorFound, problems } = verifyAuditChain(db.$client, anchor);
        const lines = verificationLines(problems);
        if (lines.length > 0) throw invalid(`Jejak audit tidak utuh: ${lines.length} masalah (${rows} baris diperiksa).`, { lines });
        io.out(`Jejak audit utuh: ${rows} baris${anchorFound ? `, termasuk jangkar ${anchorFound.id}` : ""}; jangkar terbaru ${newest ? formatAnchor(newest) : "(belum ada baris)"}\n`);
        io.out(`Simpan jangkar terbaru ini di luar server (misalnya di buku catatan admin): pemeriksaan berikutnya dengan --anchor harus menemukannya lagi.\n`);
      } finally {
        db.$client.close();
      }
    });

  audit
    .command("anchor")
    .description("mencetak id dan hash baris terbaru (ID:HASH) untuk disimpan di luar server")
    .action((_options: unknown, command: Command) => {
      const { db } = openData(command, io);
      try {
        const newest = auditAnchor(db.$client);
        if (!newest) throw invalid("Jejak audit masih kosong: belum ada jangkar.");
        io.out(`${formatAnchor(newest)}\n`);
      } finally {
        db.$client.close();
      }
    });

  audit
    .command("list")
    .description("menampilkan baris jejak audit, yang terlama dahulu")
    .option("--nim <nim>", "hanya tentang mahasiswa ini")
    .option("--user <username>", "hanya oleh pengguna ini (username akun, atau akun sistem operasi untuk perintah)")
    .addOption(choiceOption("--action <aksi>", "hanya aksi ini", auditActions))
    .addOption(new Option("--since <tanggal>", "sejak hari ini (YYYY-MM-DD, waktu setempat fakultas)").argParser(calendarDate))
    .addOption(new Option("--until <tanggal>", "sampai akhir hari ini (YYYY-MM-DD, waktu setempat fakultas)").argParser(calendarDate))
    .addOption(choiceOption("--format <format>", "format keluaran", ["table", "csv", "json"]).default("table"))
    .addOption(choiceOption("--csv <jenis>", "jenis CSV (bawaan dari SKRINING_CSV, atau excel-id)", csvDialects))
    .option("--out <file>", "tulis ke file ini (bawaan: layar)")
    .option("--force", "timpa file --out yang sudah ada")
    .action((options: ListOptions, command: Command) => {
      checkAuditFilter(options);
      const { config, db } = openData(command, io);
      let rows: DisplayedAuditRow[];
      try {
        rows = selectAuditRows(db.$client, options, config.timeZone).map((row) => displayedAuditRow(row, config.timeZone));
      } finally {
        db.$client.close();
      }
      let text: string;
      if (options.format === "json") {
        text = `${JSON.stringify(rows, null, 2)}\n`;
      } else if (options.format === "csv") {
        text = auditCsv(rows, options.csv ?? config.csvDialect);
      } else {
        const [header, ...fitted] = tableText(rows, options.out === undefined ? (io.outColumns ?? tableWidth) : tableWidth);
        const lines: string[] = [];
        printTable({ ...io, out: (line) => void lines.push(line) }, header!, fitted);
        text = lines.join("") + (rows.length === 0 ? "Tidak ada baris yang cocok.\n" : "");
      }
      if (options.out === undefined) io.out(text);
      else writeOutputFile(options.out, text, options.force === true);
    });
}
