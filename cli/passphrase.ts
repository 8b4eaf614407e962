import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { checkNewPassphrase, passphraseVariable } from "../src/backup/encryption";
import { invalid } from "../src/errors";
import type { CommandIo } from "./common";

// Where the passphrase of an encrypted backup comes from (decisions §17), in this order:
// `--passphrase-file F`, the variable SKRINING_BACKUP_PASSPHRASE, a prompt on the terminal
// (twice without echo when a new archive is made, once when one is read). A command
// without a terminal and without either source is refused in one line.

/** A passphrase file is small: one line. */
const maxFileBytes = 4096;

/**
 * The passphrase in a file: its one line, without the line end an editor adds (nor a
 * UTF-8 BOM Notepad may put first). A file every user of the machine can read is refused
 * (POSIX; Windows files are guarded by their folder's ACL): the passphrase is what keeps
 * every archive closed. `missing` is what the refusal of a file that does not exist says.
 */
export function readPassphraseFile(file: string, missing: string): string {
  const path = resolve(file);
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats) throw invalid(`File passphrase cadangan ${path} tidak ada; ${missing}`);
  if (!stats.isFile()) throw invalid(`${path} bukan file; --passphrase-file menunjuk file berisi satu baris passphrase.`);
  if (process.platform !== "win32" && (stats.mode & 0o004) !== 0) {
    throw invalid(`File passphrase cadangan ${path} dapat dibaca semua pengguna (mode ${(stats.mode & 0o777).toString(8).padStart(4, "0")}); batasi dulu: chmod 600 ${path}.`);
  }
  if (stats.size > maxFileBytes) throw invalid(`${path} terlalu besar untuk file passphrase (berisi satu baris saja).`);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw invalid(`File passphrase cadangan ${path} tidak dapat dibaca oleh pengguna yang menjalankan skrining (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); periksa izinnya.`);
  }
  const passphrase = text.replace(/^\uFEFF/, "").replace(/\r?\n$/, "");
  if (passphrase === "") throw invalid(`File passphrase cadangan ${path} kosong.`);
  if (/[\r\n]/.test(passphrase)) throw invalid(`File passphrase cadangan ${path} berisi lebih dari satu baris; tulis passphrase pada satu baris saja.`);
  return passphrase;
}

const howToGive = `beri --passphrase-file <file> atau ${passphraseVariable}, atau jalankan perintah ini di terminal.`;

/** The passphrase a source other than the terminal gives, if any. */
function givenPassphrase(io: CommandIo, file: string | undefined): string | undefined {
  if (file !== undefined) return readPassphraseFile(file, "periksa --passphrase-file.");
  const variable = io.environment[passphraseVariable];
  return variable === undefined || variable === "" ? undefined : variable;
}

/** Whether a passphrase was given without the terminal (`--passphrase-file`, the variable): an encrypted archive is then expected (decisions §21). */
export function passphraseGiven(io: CommandIo, file: string | undefined): boolean {
  return file !== undefined || (io.environment[passphraseVariable] ?? "") !== "";
}

/** The passphrase of a new encrypted archive: by the rule of encryption.ts, typed twice on a terminal. */
export async function newPassphrase(io: CommandIo, file: string | undefined): Promise<string> {
  const given = givenPassphrase(io, file);
  if (given !== undefined) return checkNewPassphrase(given);
  if (!io.inIsTerminal) throw invalid(`--encrypt memerlukan passphrase: ${howToGive}`);
  const passphrase = checkNewPassphrase(await io.readSecret("Passphrase cadangan baru: "));
  if ((await io.readSecret("Ulangi passphrase cadangan: ")) !== passphrase) throw invalid("kedua passphrase tidak sama; cadangan tidak dibuat.");
  return passphrase;
}

/** How to ask for the passphrase of an existing archive, once, when it turns out to be encrypted. */
export const passphraseOf =
  (io: CommandIo, file: string | undefined, archive: string) =>
  async (): Promise<string> => {
    const given = givenPassphrase(io, file);
    if (given !== undefined) return given;
    if (!io.inIsTerminal) throw invalid(`${resolve(archive)} terenkripsi; passphrase-nya diperlukan: ${howToGive}`);
    return await io.readSecret(`Passphrase cadangan ${archive}: `);
  };
