import type { DatabaseClient } from "../db";
import { dosen, mahasiswa, users } from "../db/schema";
import type { AccountInput, RowError } from "./validation";

/**
 * Checks roster rows against each other and against the accounts there are (decisions §7,
 * docs/decisions.md "Accounts"); returns every problem with its line number. Nothing is
 * written here.
 */
export function findConflicts(db: DatabaseClient, accounts: readonly AccountInput[]): RowError[] {
  const errors: RowError[] = [];
  const existingUsers = new Map(db.select({ id: users.id, username: users.username, role: users.role }).from(users).all().map((row) => [row.username, row]));
  const nimOwner = new Map(db.select({ nim: mahasiswa.nim, userId: mahasiswa.userId }).from(mahasiswa).all().map((row) => [row.nim, row.userId]));
  const nipOwner = new Map(db.select({ nip: dosen.nip, userId: dosen.userId }).from(dosen).all().map((row) => [row.nip, row.userId]));
  const profileOf = new Map<number, string>();
  for (const [nim, userId] of nimOwner) profileOf.set(userId, nim);
  for (const [nip, userId] of nipOwner) profileOf.set(userId, nip);

  const seen = { username: new Map<string, number>(), nim: new Map<string, number>(), nip: new Map<string, number>() };
  const lecturersInFile = new Set(accounts.filter((account) => account.nip).map((account) => account.nip!));
  for (const account of accounts) {
    const problem = (message: string) => errors.push({ line: account.line, message });
    for (const key of ["username", "nim", "nip"] as const) {
      const value = account[key];
      if (value === undefined) continue;
      const first = seen[key].get(value);
      if (first !== undefined) problem(`${key} ${value} sudah dipakai di baris ${first}`);
      else seen[key].set(value, account.line);
    }
    const existing = existingUsers.get(account.username);
    if (existing) {
      if (existing.role !== account.role) problem(`akun ${account.username} sudah ada dengan role ${existing.role}`);
      const currentId = profileOf.get(existing.id);
      const givenId = account.nim ?? account.nip;
      if (currentId !== undefined && givenId !== undefined && currentId !== givenId) {
        problem(`akun ${account.username} sudah terdaftar dengan ${account.nim ? "NIM" : "NIP"} ${currentId}`);
      }
    } else if (account.password === undefined) {
      problem("password wajib diisi untuk akun baru");
    }
    const ownerOfNim = account.nim === undefined ? undefined : nimOwner.get(account.nim);
    if (ownerOfNim !== undefined && ownerOfNim !== existing?.id) problem(`NIM ${account.nim} sudah dipakai akun lain`);
    const ownerOfNip = account.nip === undefined ? undefined : nipOwner.get(account.nip);
    if (ownerOfNip !== undefined && ownerOfNip !== existing?.id) problem(`NIP ${account.nip} sudah dipakai akun lain`);
    if (account.nipDoswal !== undefined && !lecturersInFile.has(account.nipDoswal) && !nipOwner.has(account.nipDoswal)) {
      problem(`nip_doswal ${account.nipDoswal} bukan NIP dosen yang terdaftar`);
    }
  }
  return errors.sort((a, b) => a.line - b.line);
}
