// What an import of a roster is told and tells (src/accounts/service.ts does it): its
// options, its counts, the students under 18 it names, a checked file, a preview row by
// row, and the refusal of bad rows. The command prints them, the console answers them.
import type { AuditEntry } from "../audit/trail";
import type { Role } from "../db/schema";
import { InvalidInput } from "../errors";
import type { AccountInput, RowError } from "./validation";

export interface ImportOptions {
  /** Also give existing accounts the row's password, ending their sessions (decisions §7). */
  resetPasswords?: boolean;
  /** Progress of the hashing: first (0, total) when there is any password to hash, then after each. */
  onHashed?: (done: number, total: number) => void;
  /** The audit rows of the import, written in its transaction from what it did and the accounts it opened (decisions §21). */
  audit?: (result: ImportResult, opened: OpenedAccounts) => AuditEntry[];
}

/** The accounts an import gave a way in (decisions §21): named in the trail, one row each. */
export interface OpenedAccounts {
  /** Existing accounts that got the row's password (`resetPasswords`). */
  passwordsReset: { username: string; nim: string | null }[];
  /** New admin accounts. */
  adminsCreated: { username: string; activated: boolean }[];
}

export interface ImportResult {
  created: number;
  /** Existing accounts with a changed profile or, with `resetPasswords`, a new password. */
  updated: number;
  /** Existing accounts the import found exactly as the file describes them: nothing written. */
  unchanged: number;
  /** Existing accounts that got the row's password (`resetPasswords`); their sessions ended. */
  passwordsReset: number;
  /** Existing accounts whose row says `activated` but that stay inactive or deactivated: an import never changes either. */
  leftInactive: number;
}

/** A student under 18, named for the admin after an import. */
export interface MinorStudent {
  nim: string;
  nama: string | null;
  usia: number;
}

/** A roster file read and checked row by row (src/accounts/import.ts): the rows that passed, and every problem. */
export interface ParsedRoster {
  accounts: AccountInput[];
  errors: RowError[];
}

/** One row of an import's preview: what the import would do to its account. */
export interface PreviewRow {
  line: number;
  username: string;
  role: Role;
  outcome: "dibuat" | "diperbarui" | "tidak berubah";
  /** The profile fields that would change (`profil` for a profile not there yet). */
  fields: string[];
  passwordReset: boolean;
  /** A student's advisor would change (decisions §19): from whom to whom, and whether their open follow-up case goes along. */
  advisor?: AdvisorMove;
}

/** A lecturer by NIP and name (null for none, or a name not known). */
export interface NamedLecturer {
  NIP: string | null;
  nama_dosen: string | null;
}

export interface AdvisorMove {
  from: NamedLecturer;
  to: NamedLecturer;
  /** Open follow-up cases that move with the student to the new advisor (those the former advisor handled): 0 or 1. */
  openCases: number;
}

export interface ImportPreview {
  /** Bad rows and conflicts, by line: with any, the import would write nothing. */
  problems: RowError[];
  rows: PreviewRow[];
  counts: ImportResult;
  /** Decisions §19: the open follow-up cases that would move, per new advisor (none listed when none move). */
  casesMoving: (NamedLecturer & { count: number })[];
}

/**
 * The counts an import's audit row keeps (no names: the file is not copied into the trail;
 * the accounts it opened have rows of their own, openedAccountRows).
 */
export function importCounts(result: ImportResult): string {
  return `dibuat ${result.created}, diperbarui ${result.updated}, tidak berubah ${result.unchanged}, password diganti ${result.passwordsReset}`;
}

/** One row per account an import opened: a password reset (`password`), a new admin (`create`), as the one-account acts write them. */
export function openedAccountRows(source: { actor: AuditEntry["actor"]; target: string; clientAddress?: string | null }, opened: OpenedAccounts): AuditEntry[] {
  return [
    ...opened.passwordsReset.map(({ username, nim }): AuditEntry => ({
      ...source,
      action: "password",
      nim,
      detail: `akun ${username}: password dari daftar akun, harus diganti saat masuk; semua sesinya berakhir`,
    })),
    ...opened.adminsCreated.map(({ username, activated }): AuditEntry => ({ ...source, action: "create", detail: `akun ${username} (admin) dari daftar akun${activated ? ", aktif" : ""}` })),
  ];
}

/** Rows refused by the checks: every problem on its own line (`baris N: ...`), then how many rows, and that nothing was written. */
export function rowsRefused(errors: readonly RowError[]): InvalidInput {
  const sorted = [...errors].sort((a, b) => a.line - b.line);
  return new InvalidInput(`${new Set(sorted.map((error) => error.line)).size} baris tidak valid; tidak ada yang disimpan.`, {
    lines: sorted.map((error) => `baris ${error.line}: ${error.message}`),
  });
}
