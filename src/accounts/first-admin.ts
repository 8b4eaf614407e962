import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commandOn } from "../command-line";
import type { AccountsService } from "./service";

// The first admin's random password is shown once, on the terminal of the start that
// created it, and never in a log (decisions §21): a start whose output is no terminal (a
// service's journal, a pipe, a file) does not show it. Such a start, or one that ends before
// the password reaches its reader (killed, its output closed), leaves an admin nobody knows
// the password of; this file, beside the database, says so until the password was shown or
// set, and every start says how to set one. The password must be replaced at the first sign-in.

/** The file's name in the data folder; it holds the admin's username. */
export const unshownPasswordFile = "admin-password-unshown";

/** Written before the admin is created, so that no admin can exist unshown without it. */
export function markPasswordUnshown(dataDir: string, username: string): void {
  writeFileSync(join(dataDir, unshownPasswordFile), `${username}\n`, { mode: 0o600 });
}

/** The admin whose random password was never shown, or null. */
export function unshownPasswordOf(dataDir: string): string | null {
  try {
    return readFileSync(join(dataDir, unshownPasswordFile), "utf8").trim() || null;
  } catch {
    return null;
  }
}

/** The password was shown or set (`accounts passwd`): the file goes, when it names `username` (any, without one). */
export function clearUnshownPassword(dataDir: string, username?: string): void {
  const unshown = unshownPasswordOf(dataDir);
  if (unshown !== null && (username === undefined || unshown === username)) rmSync(join(dataDir, unshownPasswordFile), { force: true });
}

/**
 * The first admin, created once the server listens (a start refused earlier, by a port in
 * use, creates nobody); a random password is marked unshown until the start-up lines that
 * show it have reached their reader (serve clears the mark then).
 */
export async function createFirstAdmin(accounts: AccountsService, dataDir: string, givenPassword: string | undefined) {
  try {
    return await accounts.ensureAdmin(givenPassword, ({ username, generated }) => generated && markPasswordUnshown(dataDir, username));
  } catch (error) {
    clearUnshownPassword(dataDir);
    throw error;
  }
}

/** The line that says how to set the password of an admin whose random one was never shown, or null. */
export function unshownPasswordReminder(accounts: AccountsService, dataDir: string): string | null {
  const username = unshownPasswordOf(dataDir);
  if (username === null) return null;
  try {
    accounts.accountId(username);
  } catch {
    // The admin was never written (the start ended before), or is gone since: nothing to set.
    clearUnshownPassword(dataDir);
    return null;
  }
  return `Password akun admin "${username}" belum pernah ditampilkan (start pertamanya tidak di terminal, atau berhenti sebelum mencetaknya); tetapkan password: ${commandOn(dataDir, `accounts passwd ${username}`)}`;
}
