import type { Role } from "../db/schema";
import { breaksPasswordRule, passwordRule } from "./passwords";

/** One account as the CSV import and `accounts add` describe it, after validation. */
export interface AccountInput {
  /** The CSV line it came from, for error messages. */
  line: number;
  role: Role;
  username: string;
  /** Absent: an existing account keeps its password. */
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
  activated?: boolean;
}

export interface RowError {
  line: number;
  message: string;
}

export const accountColumns = [
  "role", "username", "password", "nim", "nip", "nama", "jurusan", "angkatan", "kelas", "nip_doswal", "ipk", "usia", "gender", "activated",
] as const;
export type AccountColumn = (typeof accountColumns)[number];

const roles: readonly Role[] = ["mahasiswa", "dosen", "admin"];
const truthy = new Set(["true", "1", "yes"]);
const falsy = new Set(["false", "0", "no"]);
const shortText = 50;

/**
 * Checks one row on its own (the cross-row and database checks come later) and returns
 * either the account or every problem found in the row.
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
  for (const column of ["angkatan", "kelas", "gender"] as const) {
    const text = value(column);
    if (text.length > shortText) errors.push(`${column} maksimal ${shortText} karakter`);
  }
  const studentOnly = ["jurusan", "angkatan", "kelas", "nip_doswal", "ipk", "usia", "gender"] as const;
  if (role !== "mahasiswa") {
    for (const column of studentOnly) if (value(column)) errors.push(`${column} hanya untuk mahasiswa`);
  } else {
    if (jurusan) account.jurusan = jurusan;
    if (value("angkatan")) account.angkatan = value("angkatan");
    if (value("kelas")) account.kelas = value("kelas");
    if (value("gender")) account.gender = value("gender");
    if (value("nip_doswal")) account.nipDoswal = value("nip_doswal");
    const ipk = value("ipk");
    if (ipk) {
      const number = Number(ipk);
      if (!/^\d+(\.\d+)?$/.test(ipk) || number < 0 || number > 4) errors.push("ipk harus angka 0.00 sampai 4.00");
      else account.ipk = number;
    }
    const usia = value("usia");
    if (usia) {
      const number = Number(usia);
      if (!/^\d+$/.test(usia) || number < 10 || number > 100) errors.push("usia harus bilangan bulat 10 sampai 100");
      else account.usia = number;
    }
  }
  const activated = value("activated").toLowerCase();
  if (truthy.has(activated)) account.activated = true;
  else if (falsy.has(activated)) account.activated = false;
  else if (activated) errors.push("activated harus true/false/1/0/yes/no");

  return errors.length > 0 ? { errors } : { account, errors };
}
