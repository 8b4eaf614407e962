import { chmodSync, existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { asStorageError } from "../src/db/storage";
import { ServiceError, invalid } from "../src/errors";

/**
 * Writes a command's `--out` file: an existing file is kept unless `force` (an export must
 * not silently replace last month's), and the text is written under a temporary name and
 * then renamed, so a failure (a full disk) never leaves half a file under the name. 0600.
 */
export function writeOutputFile(path: string, text: string | Uint8Array, force: boolean): string {
  const target = resolve(path);
  if (!force && existsSync(target)) throw invalid(`${target} sudah ada; pilih nama lain, atau tambahkan --force untuk menimpanya.`);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    // A full or read-only disk is reported as such; anything else names the file.
    const failure = asStorageError(error);
    throw failure instanceof ServiceError ? failure : invalid(`tidak dapat menulis ${target}: ${(error as Error).message}`);
  }
  return target;
}
