import type { Role } from "../db/schema";
import { readAngkatan, readGender, readIpk, readTelepon, readUsia, type FieldReading } from "../profile-fields";
import { booleanWords, readBoolean } from "../spreadsheet-input";
import { breaksPasswordRule, passwordRule } from "./password-rule";

/** One account as the CSV import and `accounts add` describe it, after validation. */
export interface AccountInput {
  /** The CSV line it came from, for error messages. */
  line: number;
  role: Role;
  username: string;
  /** Required for a new account; for an existing one used only by `--reset-passwords`. */
  password?: string;
  nim?: string;
  nip?: string;
  nama?: string;
  jurusan?: string;
  angkatan?: string;
  kelas?: string;
  nipDoswal?: string;
  ipk?: number;
  usia?: number;
  gender?: string;
  /** A lecturer's telephone/WhatsApp number (decisions §19). */
  telepon?: string;
  /** Applies when the account is created; an import never changes it for an existing account. */
  activated?: boolean;
}

export interface RowError {
  line: number;
  message: string;
}

export const accountColumns = [
  "role", "username", "password", "nim", "nip", "nama", "jurusan", "angkatan", "kelas", "nip_doswal", "ipk", "usia", "gender", "telepon", "activated",
] as const;
export type AccountColumn = (typeof accountColumns)[number];

const roles: readonly Role[] = ["mahasiswa", "dosen", "admin"];
const shortText = 50;

/** Decisions §21: whether the cells of one new account make an admin (the row's role, as the check below reads it). */
export const createsAdmin = (cells: Partial<Record<AccountColumn, string>>) => cells.role?.trim() === "admin";

/**
 * Checks one row on its own (the cross-row and database checks come later) and returns
 * either the account or every problem found in the row. Cells are trimmed here, except
 * the password: the CSV reader trims it only when it is not quoted.
 */
export function validateAccountRow(line: number, cells: Partial<Record<AccountColumn, string>>): { account?: AccountInput; errors: string[] } {
  const errors: string[] = [];
  const value = (column: AccountColumn) => cells[column]?.trim() ?? "";
  const role = value("role") as Role;
  if (!roles.includes(role)) errors.push(`role harus salah satu dari ${roles.join(", ")}`);
  const username = value("username");
  if (!username) errors.push("username wajib diisi");
  else if (username.length > 100 || /\s/.test(username)) errors.push("username tidak boleh berisi spasi dan maksimal 100 karakter");
  const password = cells.password ?? "";
  if (password !== "" && breaksPasswordRule(password)) errors.push(passwordRule);

  const account: AccountInput = { line, role, username };
  if (password !== "") account.password = password;
  const nim = value("nim");
  const nip = value("nip");
  if (role === "mahasiswa" && !nim) errors.push("nim wajib diisi untuk mahasiswa");
  if (role === "dosen" && !nip) errors.push("nip wajib diisi untuk dosen");
  if (role !== "mahasiswa" && nim) errors.push("nim hanya untuk mahasiswa");
  if (role !== "dosen" && nip) errors.push("nip hanya untuk dosen");
  for (const [column, text] of [["nim", nim], ["nip", nip]] as const) {
    if (text && !/^[A-Za-z0-9._-]{1,30}$/.test(text)) errors.push(`${column} hanya boleh huruf, angka, titik, garis bawah atau tanda hubung (maksimal 30)`);
  }
  if (nim) account.nim = nim;
  if (nip) account.nip = nip;

  const nama = value("nama");
  if (nama.length > 100) errors.push("nama maksimal 100 karakter");
  if (nama) account.nama = nama;
  const jurusan = value("jurusan");
  if (jurusan.length > 100) errors.push("jurusan maksimal 100 karakter");
  if (value("kelas").length > shortText) errors.push(`kelas maksimal ${shortText} karakter`);
  const studentOnly = ["jurusan", "angkatan", "kelas", "nip_doswal", "ipk", "usia", "gender"] as const;
  if (role !== "mahasiswa") {
    for (const column of studentOnly) if (value(column)) errors.push(`${column} hanya untuk mahasiswa`);
  } else {
    if (jurusan) account.jurusan = jurusan;
    if (value("kelas")) account.kelas = value("kelas");
    if (value("nip_doswal")) account.nipDoswal = value("nip_doswal");
    // The profile route's rules (src/profile-fields.ts), and what the models need (decisions §8).
    const read = <T>(column: AccountColumn, reader: (text: string) => FieldReading<T>): T | undefined => {
      const text = value(column);
      if (!text) return undefined;
      const reading = reader(text);
      if ("error" in reading) {
        errors.push(reading.error);
        return undefined;
      }
      return reading.value;
    };
    account.angkatan = read("angkatan", readAngkatan);
    account.gender = read("gender", readGender);
    // A decimal comma is unambiguous in an IPK (Indonesian spreadsheets write `3,45`).
    account.ipk = read("ipk", (text) => readIpk(text.replace(",", ".")));
    account.usia = read("usia", readUsia);
  }
  const telepon = value("telepon");
  if (telepon && role !== "dosen") errors.push("telepon hanya untuk dosen");
  else if (telepon) {
    const reading = readTelepon(telepon);
    if ("error" in reading) errors.push(reading.error);
    else if (reading.value !== null) account.telepon = reading.value;
  }
  const activated = value("activated");
  if (activated) {
    account.activated = readBoolean(activated);
    if (account.activated === undefined) errors.push(`activated harus ${booleanWords}`);
  }

  return errors.length > 0 ? { errors } : { account, errors };
}
