import { type Command, InvalidArgumentError, Option } from "commander";
import { accessSync, constants, statSync } from "node:fs";
import { resolve } from "node:path";
import { parseDuration } from "../src/backup/automatic";
import { checkBackupFolder } from "../src/backup/backup-folder";
import { dataFolderIdentity, resolveIdentity } from "../src/backup/folder-identity";
import { differencesFromManifest, differsFromManifest, manifestTotal } from "../src/backup/manifest";
import { checkNewPassphrase, encryptionExpected, encryptionMessages } from "../src/backup/encryption";
import { appendAuditRows } from "../src/audit/trail";
import { foreignOwner, keepOwner } from "../src/backup/ownership";
import { accountName } from "../src/command-line";
import { newerSchemaText } from "../src/db/migrate";
import { migrations } from "../src/db/migrations";
import { invalid } from "../src/errors";
import { fileSize } from "../src/file-size";
import { endEverySession } from "../src/auth/sessions";
import { commandAudit } from "./audit";
import { dataDirOf, newDataFolderLine, openData, type CommandIo } from "./common";
import { newPassphrase, passphraseGiven, passphraseOf, readPassphraseFile } from "./passphrase";

export interface AutomaticBackupFlags {
  backupDir?: string;
  backupEvery?: number;
  backupKeep?: number;
  backupPassphraseFile?: string;
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
export const backupPassphraseFileOption = () =>
  new Option("--backup-passphrase-file <file>", "mengenkripsi cadangan otomatis dengan passphrase di file ini (satu baris, minimal 12 karakter; bawaan: tidak terenkripsi)");

/** What the refusal of a missing passphrase file of `serve` says: how to make one. */
const createPassphraseFile =
  "buat dulu file itu berisi satu baris passphrase (minimal 12 karakter) yang hanya dapat dibaca pengguna yang menjalankan skrining, lalu mulai lagi " +
  '(docs/operations.md, bagian "Encrypted backups"); simpan juga salinan passphrase-nya di luar PC ini.';

/**
 * The automatic backups `serve` was asked for, or none. The folder must exist and be
 * writable: a mistyped folder (or a backup disk not mounted) is refused at start rather
 * than discovered at the first backup. It must be outside the data folder and not another
 * data folder's (src/backup/backup-folder.ts).
 */
export function automaticBackupsOf(flags: AutomaticBackupFlags, dataDir: string): { folder: string; everyMilliseconds: number; keep: number; passphrase?: string } | undefined {
  if (flags.backupDir === undefined) {
    if (flags.backupEvery !== undefined || flags.backupKeep !== undefined || flags.backupPassphraseFile !== undefined) {
      throw invalid("--backup-every, --backup-keep dan --backup-passphrase-file hanya berlaku bersama --backup-dir.");
    }
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
  // Read once, at start: a missing or unreadable file stops the start rather than every backup.
  const passphrase = flags.backupPassphraseFile === undefined ? undefined : checkNewPassphrase(readPassphraseFile(flags.backupPassphraseFile, createPassphraseFile));
  return { folder, everyMilliseconds: flags.backupEvery ?? 24 * 3_600_000, keep: flags.backupKeep ?? 14, ...(passphrase === undefined ? {} : { passphrase }) };
}

interface BackupFlags {
  encrypt?: boolean;
  passphraseFile?: string;
  check?: boolean;
}

export function registerBackupCommands(program: Command, io: CommandIo): void {
  program
    .command("backup <file>")
    .description("satu arsip .tar.gz seluruh folder data (basis data, foto, model, secret, file data), aman saat server berjalan; diperiksa sebelum diberi nama")
    .option("--encrypt", "mengenkripsi arsip (AES-256-GCM) dengan passphrase: untuk salinan yang dibawa keluar PC ini")
    .option("--passphrase-file <file>", "file berisi passphrase (satu baris; bawaan: SKRINING_BACKUP_PASSPHRASE, atau ditanyakan di terminal)")
    .option("--check", "tidak membuat cadangan: memeriksa arsip <file> yang ada (terenkripsi atau tidak) tanpa menulis apa pun")
    .action(async (file: string, options: BackupFlags, command: Command) => {
      if (options.check) {
        if (options.encrypt) throw invalid("--check dan --encrypt tidak dipakai bersama: --check hanya membaca arsip.");
        return await checkArchive(io, file, options.passphraseFile);
      }
      if (options.passphraseFile !== undefined && !options.encrypt) throw invalid("--passphrase-file saat membuat cadangan hanya berlaku bersama --encrypt.");
      // Any schema this version knows, as it is: a backup before `migrate` is what an upgrade asks for.
      const { config, db } = openData(command, io, "existing", "as-is");
      try {
        const passphrase = options.encrypt ? await newPassphrase(io, options.passphraseFile) : undefined;
        // The manifest names the folder by its identity: automatic backups rotate only their own folder's archives.
        const { id } = dataFolderIdentity(config.dataDir);
        // The archive code (tar) is loaded by the commands that write or read one, not by every `serve`.
        const { writeBackup } = await import("../src/backup/archive");
        const manifest = await writeBackup({ sqlite: db.$client, dataDir: config.dataDir, dataFolderId: id, target: file, ...(passphrase === undefined ? {} : { encryption: { passphrase, kdfCost: config.backupKdfCost } }) });
        const size = `${manifest.files.length} file, ${fileSize(manifestTotal(manifest))} sebelum dimampatkan`;
        io.out(
          passphrase === undefined
            ? `Cadangan tersimpan di ${resolve(file)} (${size}; diperiksa utuh).\n`
            : `Cadangan terenkripsi tersimpan di ${resolve(file)} (${size}; didekripsi dan diperiksa utuh). Tanpa passphrase-nya arsip ini tidak dapat dibuka: simpan passphrase itu (docs/operations.md).\n`,
        );
      } finally {
        db.$client.close();
      }
    });

  program
    .command("restore <file>")
    .description("memulihkan arsip cadangan ke folder data setelah memeriksanya; folder yang tidak kosong hanya dengan --force (isinya dipindahkan ke samping)")
    .option("--force", "folder data yang tidak kosong: pindahkan isinya ke <data>.before-restore-<waktu>, lalu pulihkan")
    .option("--passphrase-file <file>", "file berisi passphrase arsip terenkripsi (bawaan: SKRINING_BACKUP_PASSPHRASE, atau ditanyakan di terminal)")
    .option("--allow-plain", "menerima arsip tidak terenkripsi walau namanya berakhiran .enc atau passphrase diberikan")
    .option("--keep-sessions", "mempertahankan kunci token cadangan (sesi login tetap berlaku); hanya saat memulihkan ke folder data asal cadangan itu di PC yang sama")
    .action(async (file: string, options: { force?: boolean; passphraseFile?: string; allowPlain?: boolean; keepSessions?: boolean }, command: Command) => {
      const { restoreBackup } = await import("../src/backup/restore");
      const result = await restoreBackup({
        archive: file,
        dataDir: dataDirOf(command, io),
        force: options.force === true,
        passphrase: passphraseOf(io, options.passphraseFile, file),
        passphraseGiven: passphraseGiven(io, options.passphraseFile),
        allowPlain: options.allowPlain === true,
        keepSessions: options.keepSessions === true,
        created: (dataDir) => io.out(newDataFolderLine(dataDir)),
      });
      for (const folder of result.leftStagingRemoved) io.out(`Sisa restore yang terputus dihapus: ${folder}\n`);
      if (result.movedAsideTo) io.out(`Isi lama folder data dipindahkan ke ${result.movedAsideTo} (tidak dihapus).\n`);
      io.out(`Cadangan ${file} (dibuat ${result.manifest.createdAt} oleh ${result.manifest.program}, ${result.manifest.files.length} file) dipulihkan ke ${result.dataDir}.\n`);
      if (!result.encrypted) io.out(`${plainArchiveNote}\n`);
      if (result.pendingMigrations > 0) io.out(`Skema basis data cadangan itu lebih lama: dimigrasi sekarang ke versi ini, setelah salinannya disimpan di backups/.\n`);
      io.out(result.sessionsKept ? `${sessionsKeptNote}\n` : `${sessionsEndedNote}\n`);
      await recordRestore(
        command,
        io,
        `dari ${resolve(file)} (dibuat ${result.manifest.createdAt})${result.movedAsideTo ? `; isi lama, termasuk jejak audit sesudah cadangan itu, ada di ${result.movedAsideTo}` : ""}; ` +
          (result.sessionsKept ? "sesi login dipertahankan (--keep-sessions)" : "kunci token baru, semua sesi login berakhir"),
        result.sessionsKept,
      );
      io.out(ownershipKept(result.dataDir, result.movedAsideTo));
    });
}

/**
 * Issue 44, item 4: restore run as root into a folder the service's account owns gives what
 * it wrote (the restored files, the WAL of its audit row, a copy before a migration) to that
 * owner, or the service would meet root's files at its start (EPERM, exit 3). Said in one line.
 */
function ownershipKept(dataDir: string, movedAside: string | null): string {
  const owner = foreignOwner(dataDir);
  if (!owner) return "";
  const name = accountName(owner.uid);
  let changed: number;
  try {
    changed = keepOwner(dataDir, [dataDir, ...(movedAside ? [movedAside] : [])]);
  } catch (error) {
    throw invalid(
      `Data dipulihkan, tetapi kepemilikan file-nya tidak dapat dikembalikan ke ${name} (pemilik ${dataDir}): ${(error as Error).message}. ` +
        `Jalankan 'chown -R ${name}: ${dataDir}', dan lain kali jalankan restore sebagai pemiliknya: sudo -u ${name} skrining --data ${dataDir} restore ….`,
    );
  }
  return (
    `Dijalankan sebagai root: ${changed} file dan folder yang ditulis restore diberikan kepada ${name}, pemilik ${dataDir}, agar layanan dapat membukanya. ` +
    `Lain kali jalankan sebagai pemiliknya: sudo -u ${name} skrining --data ${dataDir} restore ….\n`
  );
}

/** Decisions §21: what a restore did to the signed-in users. */
const sessionsEndedNote = "Kunci token baru dibuat: semua sesi login berakhir, setiap pengguna login lagi (restore --keep-sessions mempertahankannya, hanya ke folder asal cadangan).";
const sessionsKeptNote =
  "Kunci token cadangan dipertahankan (--keep-sessions): sesi login saat cadangan dibuat berlaku lagi, termasuk yang sudah diakhiri sesudahnya, sampai kedaluwarsa.";

/** What a plain archive cannot show: who wrote it. */
const plainArchiveNote =
  "Arsip ini tidak terenkripsi: isinya cocok dengan manifestnya, tetapi siapa pun yang memegang salinannya dapat mengubah keduanya tanpa ketahuan. Salinan yang dibawa keluar PC sebaiknya dibuat dengan --encrypt.";

/**
 * `backup --check`: the first reading of a restore, which writes nothing: an encrypted
 * archive authenticated whole, every file's checksum against the manifest, nothing missing
 * or extra. (The database in it is the snapshot that passed `quick_check` when it was
 * written: its checksum shows that, without unpacking it anywhere.)
 */
async function checkArchive(io: CommandIo, file: string, passphraseFile: string | undefined): Promise<void> {
  const archive = resolve(file);
  const { readArchive } = await import("../src/backup/archive-reader");
  const { manifest, found, encrypted } = await readArchive(archive, passphraseOf(io, passphraseFile, file));
  const problems = differencesFromManifest(manifest, found);
  if (problems.length > 0) throw differsFromManifest(archive, problems);
  // Decisions §21: what restore refuses (without --allow-plain), the check does not call whole.
  const expected = encrypted ? null : encryptionExpected(archive, passphraseGiven(io, passphraseFile));
  if (expected !== null) throw invalid(encryptionMessages.plainWhereEncrypted(archive, expected));
  io.out(
    `Arsip ${archive} utuh: ${manifest.files.length} file, ${fileSize(manifestTotal(manifest))}, dibuat ${manifest.createdAt} oleh ${manifest.program} dari folder data ${manifest.dataDir}; ` +
      (encrypted ? "terenkripsi, setiap bytenya terautentikasi dengan passphrase itu.\n" : "tidak terenkripsi.\n"),
  );
  if (!encrypted) io.out(`${plainArchiveNote}\n`);
  if ((manifest.schema.lastMigrationCreatedAt ?? 0) > migrations.at(-1)!.createdAt) io.out(`Basis datanya: ${newerSchemaText(manifest.schema.migrations, migrations)}; pulihkan dengan ${manifest.program} atau yang lebih baru.\n`);
}

/**
 * The restored trail continues from the archive's last row; the first row after it says
 * that the data went back to the backup's time (a student erased since then is back).
 * A backup of an older version is migrated now (restore checked that no process has the
 * folder open), so the folder is ready for this version.
 */
async function recordRestore(command: Command, io: CommandIo, detail: string, sessionsKept: boolean): Promise<void> {
  const { actor, target } = commandAudit(command);
  const { db, writes } = openData(command, io, "existing", "migrate", { source: { actor, target } });
  try {
    await writes.run(() => {
      // The new key already refuses every earlier token; the sessions end too, so that a key
      // given by SKRINING_SECRET (which restore cannot change) opens none of them either.
      if (!sessionsKept) endEverySession(db);
      appendAuditRows(db.$client, [{ actor, target, action: "update", detail: `pemulihan cadangan ${detail}` }]);
    });
  } finally {
    db.$client.close();
  }
}
