import { type Command, InvalidArgumentError } from "commander";
import { rmSync } from "node:fs";
import { appendAuditRows, type AuditSource } from "../src/audit/trail";
import type { Config } from "../src/config";
import type { DatabaseClient } from "../src/db";
import type { WriteQueue } from "../src/db/write-queue";
import { invalid } from "../src/errors";
import { DiaryService } from "../src/modules/diary/service";
import { MoodService } from "../src/modules/mood/service";
import { CatatanService } from "../src/modules/catatan/service";
import { ProfilService } from "../src/modules/profil/service";
import { PhotoStore } from "../src/photos/storage";
import { StudentDataDocuments } from "../src/modules/data-saya/document";
import { PrivasiRequestService, privasiRequestMessages, type Aftermath, type Erasure, type TableCounts } from "../src/privasi/service";
import { AdvisorScope } from "../src/privasi/advisor-scope";
import { ProcessingRestriction } from "../src/privasi/restriction";
import { commandAudit } from "./audit";
import { openData, type CommandIo } from "./common";
import { writeOutputFile } from "./output";

interface Opened {
  config: Config;
  db: DatabaseClient;
  writes: WriteQueue;
  photos: PhotoStore;
  privacy: PrivasiRequestService;
}

/** Opens the data folder for one privacy command and closes it whatever happens. */
async function withPrivacy<T>(command: Command, io: CommandIo, work: (opened: Opened) => Promise<T>): Promise<T> {
  const { config, db, writes } = openData(command, io);
  const photos = new PhotoStore(config.dataDir, config.photosDir);
  try {
    return await work({ config, db, writes, photos, privacy: new PrivasiRequestService(db.$client, writes, photos, config.timeZone) });
  } finally {
    db.$client.close();
  }
}

const dryRunLine = "Uji coba (--dry-run): tidak ada yang diubah.\n";

/** Rows per table, one indented line each, in the order given. */
function printCounts(io: CommandIo, rows: TableCounts): void {
  const width = Math.max(...Object.keys(rows).map((table) => table.length));
  for (const [table, count] of Object.entries(rows)) io.out(`  ${table.padEnd(width)}  ${count}\n`);
}

function printErasure(io: CommandIo, erasure: Erasure): void {
  printCounts(io, erasure.rows);
  if (erasure.files.length === 0) io.out("  file foto: tidak ada\n");
  for (const file of erasure.files) io.out(`  file foto: ${file}\n`);
}

/**
 * What happened after the commit: the WAL left for SQLite's next checkpoint is worth a
 * line; a photo file that could not be removed is a failure the admin must finish by hand.
 */
function reportAftermath(io: CommandIo, aftermath: Partial<Aftermath>): void {
  if (aftermath.walEmptied === false) io.out("Catatan: file WAL belum dapat dikosongkan karena sedang dibaca; SQLite mengosongkannya pada checkpoint berikutnya.\n");
  const failures = aftermath.fileFailures ?? [];
  if (failures.length > 0) {
    throw invalid(`data di basis data sudah dihapus, tetapi ${failures.length} file foto tidak dapat dihapus; hapus dengan tangan.`, { lines: failures });
  }
}

function requiredNim(value: string | undefined): string {
  const nim = value?.trim() ?? "";
  if (nim === "") throw invalid("--nim wajib diisi.");
  return nim;
}

/** A calendar date as `--before` takes it; refused before the database is opened. */
function calendarDate(value: string): string {
  const date = value.trim();
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : null;
  if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
    throw new InvalidArgumentError("tanggal harus YYYY-MM-DD, misalnya 2020-08-31.");
  }
  return date;
}

export function registerPrivacyCommands(program: Command, io: CommandIo): void {
  const privacy = program
    .command("privacy")
    .description("hak mahasiswa atas datanya (UU PDP): ekspor, penghapusan, pembatasan pemrosesan, pembersihan data lama");

  privacy
    .command("export")
    .description("menulis seluruh data satu mahasiswa (dokumen data-saya dan fotonya) sebagai satu arsip .tar.gz")
    .option("--nim <nim>", "NIM mahasiswa")
    .option("--out <file>", "file arsip yang ditulis (.tar.gz)")
    .option("--force", "timpa file --out yang sudah ada")
    .option("--dry-run", "hanya tampilkan apa yang akan ditulis")
    .action(async (options: { nim?: string; out?: string; force?: boolean; dryRun?: boolean }, command: Command) => {
      const nim = requiredNim(options.nim);
      if (options.out === undefined || options.out.trim() === "") throw invalid("--out wajib diisi.");
      const out = options.out;
      await withPrivacy(command, io, async ({ db, writes, photos }) => {
        const restriction = new ProcessingRestriction(db);
        const documents = new StudentDataDocuments(db, {
          profil: new ProfilService(db, writes),
          mood: new MoodService(db, writes, restriction),
          diary: new DiaryService(db, writes, restriction, Number.MAX_SAFE_INTEGER),
          notes: new CatatanService(db, writes, new AdvisorScope(db.$client), restriction),
        });
        // The archive writer (tar) is loaded by this command only, not by every `serve`.
        const { exportAuditEntry, planStudentExport } = await import("../src/modules/data-saya/export");
        const plan = planStudentExport(documents, photos, nim, privasiRequestMessages.studentUnknown(nim));
        const { archive, summary } = plan;
        if (options.dryRun) {
          io.out(dryRunLine);
          io.out(`Akan ditulis ke ${out}: data mahasiswa ${nim}\n`);
          printCounts(io, summary);
          for (const entry of archive.entries) io.out(`  isi arsip: ${entry}\n`);
          return;
        }
        const written = writeOutputFile(out, archive.bytes, options.force === true);
        try {
          await writes.run(() => appendAuditRows(db.$client, [exportAuditEntry(commandAudit(command), plan)]));
        } catch (error) {
          // An export the audit trail does not show must not exist.
          rmSync(written, { force: true });
          throw error;
        }
        io.out(`Data mahasiswa ${nim} ditulis ke ${written}:\n`);
        printCounts(io, summary);
        for (const entry of archive.entries) io.out(`  isi arsip: ${entry}\n`);
      });
    });

  privacy
    .command("erase")
    .description("menghapus seluruh data pribadi satu mahasiswa: akun, profil, skrining, mood, jurnal, catatan, sesi, foto (jejak audit tetap)")
    .option("--nim <nim>", "NIM mahasiswa")
    .option("--dry-run", "hanya tampilkan apa yang akan dihapus")
    .action(async (options: { nim?: string; dryRun?: boolean }, command: Command) => {
      const nim = requiredNim(options.nim);
      await withPrivacy(command, io, async ({ privacy }) => {
        if (options.dryRun) {
          io.out(dryRunLine);
          io.out(`Akan dihapus untuk mahasiswa ${nim} (baris per tabel):\n`);
          printErasure(io, privacy.planErase(nim));
          return;
        }
        const erased = await privacy.erase(nim, commandAudit(command));
        io.out(`Data mahasiswa ${nim} dihapus (baris per tabel):\n`);
        printErasure(io, erased);
        reportAftermath(io, erased);
      });
    });

  /** restrict and unrestrict: the same options, the change (or its dry run) and one line about it. */
  const restrictionCommand = (
    name: string,
    description: string,
    change: (privacy: PrivasiRequestService, nim: string, audit: AuditSource, dryRun: boolean) => Promise<{ line: string; dryRunLine: string }>,
  ) =>
    privacy
      .command(name)
      .description(description)
      .option("--nim <nim>", "NIM mahasiswa")
      .option("--dry-run", "hanya tampilkan apa yang akan berubah")
      .action(async (options: { nim?: string; dryRun?: boolean }, command: Command) => {
        const nim = requiredNim(options.nim);
        await withPrivacy(command, io, async ({ privacy }) => {
          const dryRun = options.dryRun === true;
          const said = await change(privacy, nim, commandAudit(command), dryRun);
          io.out(dryRun ? `${dryRunLine}${said.dryRunLine}\n` : `${said.line}\n`);
        });
      });

  restrictionCommand(
    "restrict",
    "membatasi pemrosesan data satu mahasiswa: dosen dan admin tidak lagi melihatnya, statistik dan ekspor tidak menghitungnya",
    async (privacy, nim, audit, dryRun) => {
      const { screeningsLeftOut, since } = await privacy.restrict(nim, audit, dryRun);
      return {
        dryRunLine: `Akan dibatasi: mahasiswa ${nim}; ${screeningsLeftOut} skrining keluar dari statistik.`,
        line: `Pemrosesan data mahasiswa ${nim} dibatasi sejak ${since}; ${screeningsLeftOut} skrining keluar dari statistik.`,
      };
    },
  );

  restrictionCommand("unrestrict", "mengakhiri pembatasan pemrosesan data satu mahasiswa", async (privacy, nim, audit, dryRun) => {
    const { screeningsCountedAgain, since } = await privacy.unrestrict(nim, audit, dryRun);
    return {
      dryRunLine: `Akan diakhiri: pembatasan mahasiswa ${nim} (sejak ${since}); ${screeningsCountedAgain} skrining kembali dihitung dalam statistik.`,
      line: `Pembatasan pemrosesan data mahasiswa ${nim} (sejak ${since}) diakhiri; ${screeningsCountedAgain} skrining kembali dihitung dalam statistik.`,
    };
  });

  privacy
    .command("purge")
    .description(
      "menghapus skrining, mood dan jurnal sebelum tanggal (hari lokal) dari semua mahasiswa; dengan --angkatan: menghapus seluruh data mahasiswa angkatan itu yang tidak aktif sejak tanggal itu",
    )
    .requiredOption("--before <YYYY-MM-DD>", "batas tanggal (hari lokal di zona waktu fakultas; data sebelum hari ini dihapus)", calendarDate)
    .option("--angkatan <tahun>", "seluruh mahasiswa angkatan ini yang tidak aktif sejak --before dihapus seperti erase")
    .option("--dry-run", "hanya tampilkan apa yang akan dihapus")
    .action(async (options: { before: string; angkatan?: string; dryRun?: boolean }, command: Command) => {
      await withPrivacy(command, io, async ({ privacy }) => {
        const dryRun = options.dryRun === true;
        if (dryRun) io.out(dryRunLine);
        if (options.angkatan === undefined) {
          const purged = await privacy.purgeBefore(options.before, commandAudit(command), dryRun);
          io.out(`${dryRun ? "Akan dihapus" : "Dihapus"}: data sebelum ${purged.before} (baris per tabel):\n`);
          printCounts(io, purged.rows);
          reportAftermath(io, purged);
          return;
        }
        const purged = await privacy.purgeCohort(options.before, options.angkatan, commandAudit(command), dryRun);
        io.out(`${dryRun ? "Akan dihapus" : "Dihapus"}: ${purged.erased.length} mahasiswa angkatan ${purged.angkatan} yang tidak aktif sejak ${purged.before}.\n`);
        for (const erasure of purged.erased) {
          io.out(`${erasure.nim}:\n`);
          printErasure(io, erasure);
        }
        if (purged.kept.length > 0) io.out(`Tetap disimpan (masih aktif sejak ${purged.before}): ${purged.kept.join(", ")}\n`);
        reportAftermath(io, purged);
      });
    });
}
