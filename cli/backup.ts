import { type Command, InvalidArgumentError, Option } from "commander";
import { accessSync, constants, statSync } from "node:fs";
import { resolve } from "node:path";
import { writeBackup } from "../src/backup/archive";
import { parseDuration } from "../src/backup/automatic";
import { checkBackupFolder } from "../src/backup/backup-folder";
import { dataFolderIdentity, resolveIdentity } from "../src/backup/folder-identity";
import { restoreBackup } from "../src/backup/restore";
import { appendAuditRows } from "../src/audit/trail";
import { invalid } from "../src/errors";
import { commandAudit } from "./audit";
import { dataDirOf, newDataFolderLine, openData, type CommandIo } from "./common";

export interface AutomaticBackupFlags {
  backupDir?: string;
  backupEvery?: number;
  backupKeep?: number;
}

function duration(value: string): number {
  const milliseconds = parseDuration(value);
  if (milliseconds === null) throw new InvalidArgumentError("lama harus seperti 30m, 6h, 24h atau 7d.");
  return milliseconds;
}

function keepCount(value: string): number {
  const number = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || number < 1 || number > 1000) throw new InvalidArgumentError("jumlah harus bilangan bulat 1–1000.");
  return number;
}

// The options of `serve` for automatic backups; none are taken without --backup-dir.
export const backupDirOption = () => new Option("--backup-dir <folder>", "membuat cadangan otomatis ke folder ini selama server berjalan (bawaan: tidak)");
export const backupEveryOption = () => new Option("--backup-every <lama>", "selang cadangan otomatis: 30m, 6h, 24h, 7d (bawaan: 24h)").argParser(duration);
export const backupKeepOption = () => new Option("--backup-keep <jumlah>", "jumlah cadangan otomatis terbaru yang disimpan (bawaan: 14)").argParser(keepCount);

/**
 * The automatic backups `serve` was asked for, or none. The folder must exist and be
 * writable: a mistyped folder (or a backup disk not mounted) is refused at start rather
 * than discovered at the first backup. It must be outside the data folder and not another
 * data folder's (src/backup/backup-folder.ts).
 */
export function automaticBackupsOf(flags: AutomaticBackupFlags, dataDir: string): { folder: string; everyMilliseconds: number; keep: number } | undefined {
  if (flags.backupDir === undefined) {
    if (flags.backupEvery !== undefined || flags.backupKeep !== undefined) throw invalid("--backup-every dan --backup-keep hanya berlaku bersama --backup-dir.");
    return undefined;
  }
  const folder = resolve(flags.backupDir);
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw invalid(`Folder cadangan ${folder} tidak ada; buat folder itu dulu atau periksa --backup-dir.`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw invalid(`Folder cadangan ${folder} tidak dapat ditulis oleh pengguna yang menjalankan skrining; periksa izinnya.`);
  }
  // Inside the data folder, or another data folder's: refused before anything is created.
  checkBackupFolder(folder, dataDir, resolveIdentity(dataDir).identity);
  return { folder, everyMilliseconds: flags.backupEvery ?? 24 * 3_600_000, keep: flags.backupKeep ?? 14 };
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export function registerBackupCommands(program: Command, io: CommandIo): void {
  program
    .command("backup <file>")
    .description("satu arsip .tar.gz seluruh folder data (basis data, foto, model, secret, file data), aman saat server berjalan; diperiksa sebelum diberi nama")
    .action(async (file: string, _options: unknown, command: Command) => {
      // Any schema this version knows, as it is: a backup before `migrate` is what an upgrade asks for.
      const { config, db } = openData(command, io, "existing", "as-is");
      try {
        // The manifest names the folder by its identity: automatic backups rotate only their own folder's archives.
        const { id } = dataFolderIdentity(config.dataDir);
        const manifest = await writeBackup({ sqlite: db.$client, dataDir: config.dataDir, dataFolderId: id, target: file });
        const total = manifest.files.reduce((sum, entry) => sum + entry.size, 0);
        io.out(`Cadangan tersimpan di ${resolve(file)} (${manifest.files.length} file, ${megabytes(total)} sebelum dimampatkan; diperiksa utuh).\n`);
      } finally {
        db.$client.close();
      }
    });

  program
    .command("restore <file>")
    .description("memulihkan arsip cadangan ke folder data setelah memeriksanya; folder yang tidak kosong hanya dengan --force (isinya dipindahkan ke samping)")
    .option("--force", "folder data yang tidak kosong: pindahkan isinya ke <data>.before-restore-<waktu>, lalu pulihkan")
    .action(async (file: string, options: { force?: boolean }, command: Command) => {
      const result = await restoreBackup({
        archive: file,
        dataDir: dataDirOf(command, io),
        force: options.force === true,
        created: (dataDir) => io.out(newDataFolderLine(dataDir)),
      });
      if (result.movedAsideTo) io.out(`Isi lama folder data dipindahkan ke ${result.movedAsideTo} (tidak dihapus).\n`);
      io.out(`Cadangan ${file} (dibuat ${result.manifest.createdAt} oleh ${result.manifest.program}, ${result.manifest.files.length} file) dipulihkan ke ${result.dataDir}.\n`);
      if (result.pendingMigrations > 0) io.out(`Skema basis data cadangan itu lebih lama: dimigrasi sekarang ke versi ini, setelah salinannya disimpan di backups/.\n`);
      await recordRestore(command, io, `dari ${resolve(file)} (dibuat ${result.manifest.createdAt})${result.movedAsideTo ? `; isi lama, termasuk jejak audit sesudah cadangan itu, ada di ${result.movedAsideTo}` : ""}`);
    });
}

/**
 * The restored trail continues from the archive's last row; the first row after it says
 * that the data went back to the backup's time (a student erased since then is back).
 * A backup of an older version is migrated now (restore checked that no process has the
 * folder open), so the folder is ready for this version.
 */
async function recordRestore(command: Command, io: CommandIo, detail: string): Promise<void> {
  const { db, writes } = openData(command, io, "existing", "migrate");
  try {
    const { actor, target } = commandAudit(command);
    await writes.run(() => appendAuditRows(db.$client, [{ actor, target, action: "update", detail: `pemulihan cadangan ${detail}` }]));
  } finally {
    db.$client.close();
  }
}
