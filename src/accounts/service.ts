import { asc, eq, sql } from "drizzle-orm";
import { availableParallelism } from "node:os";
import { randomBytes } from "node:crypto";
import type { DatabaseClient } from "../db";
import type { WriteQueue } from "../db/write-queue";
import { dosen, jurusan, mahasiswa, users } from "../db/schema";
import { endAllSessions } from "../modules/auth/sessions";
import type { Role } from "../db/schema";
import { breaksPasswordRule, hashPassword, passwordRule, replacePassword } from "./passwords";
import type { AccountInput, RowError } from "./validation";
import { InvalidInput, conflict, invalid, notFound } from "../errors";

interface ImportResult {
  created: number;
  updated: number;
}

interface AccountSummary {
  id: number;
  username: string;
  role: Role;
  activated: boolean;
  nim: string | null;
  nip: string | null;
  nama: string | null;
  createdAt: string;
}

/** Rows refused by the checks: every problem on its own line (`baris N: ...`), then how many rows, and that nothing was written. */
export function rowsRefused(errors: readonly RowError[]): InvalidInput {
  const sorted = [...errors].sort((a, b) => a.line - b.line);
  return new InvalidInput(`${new Set(sorted.map((error) => error.line)).size} baris tidak valid; tidak ada yang disimpan.`, {
    lines: sorted.map((error) => `baris ${error.line}: ${error.message}`),
  });
}

/** Account administration shared by the CLI commands and the first start of the server. */
export class AccountsService {
  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
    private readonly bcryptCost: number,
  ) {}

  /**
   * Checks rows against each other and against the database; returns every problem with
   * its line number. Nothing is written here.
   */
  findConflicts(accounts: readonly AccountInput[]): RowError[] {
    const errors: RowError[] = [];
    const existingUsers = new Map(this.db.select({ id: users.id, username: users.username, role: users.role }).from(users).all().map((row) => [row.username, row]));
    const nimOwner = new Map(this.db.select({ nim: mahasiswa.nim, userId: mahasiswa.userId }).from(mahasiswa).all().map((row) => [row.nim, row.userId]));
    const nipOwner = new Map(this.db.select({ nip: dosen.nip, userId: dosen.userId }).from(dosen).all().map((row) => [row.nip, row.userId]));
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

  /**
   * Creates or updates accounts by username, all or nothing. Passwords are hashed first,
   * on every core; then one transaction writes lecturers before students, so `nip_doswal`
   * may name a lecturer of the same batch.
   */
  async upsert(accounts: readonly AccountInput[], onHashed: (done: number) => void = () => {}): Promise<ImportResult> {
    const conflicts = this.findConflicts(accounts);
    if (conflicts.length > 0) throw rowsRefused(conflicts);

    const hashes = await this.hashAll(accounts.map((account) => account.password), onHashed);
    const order: Record<Role, number> = { admin: 0, dosen: 1, mahasiswa: 2 };
    const ordered = accounts.map((account, index) => ({ account, hash: hashes[index] })).sort((a, b) => order[a.account.role] - order[b.account.role]);

    return this.writes.run(() => {
      const result: ImportResult = { created: 0, updated: 0 };
      const jurusanIds = new Map<string, number>();
      for (const name of new Set(accounts.flatMap((account) => (account.jurusan ? [account.jurusan] : [])))) {
        this.db.insert(jurusan).values({ nama: name }).onConflictDoNothing().run();
        jurusanIds.set(name, this.db.select({ id: jurusan.id }).from(jurusan).where(eq(jurusan.nama, name)).get()!.id);
      }
      // One read of every account instead of one lookup per row: a faculty has thousands, not millions.
      const existingIds = new Map(this.db.select({ id: users.id, username: users.username }).from(users).all().map((row) => [row.username, row.id]));
      for (const { account, hash } of ordered) {
        const existingId = existingIds.get(account.username);
        let userId: number;
        if (existingId !== undefined) {
          userId = existingId;
          const changes: Partial<typeof users.$inferInsert> = {};
          if (hash !== undefined) {
            changes.passwordHash = hash;
            endAllSessions(this.db, userId);
          }
          if (account.activated !== undefined) changes.isActivated = account.activated;
          if (Object.keys(changes).length > 0) this.db.update(users).set(changes).where(eq(users.id, userId)).run();
          result.updated++;
        } else {
          userId = this.db
            .insert(users)
            .values({ username: account.username, passwordHash: hash!, role: account.role, isActivated: account.activated ?? false })
            .returning({ id: users.id })
            .get().id;
          result.created++;
        }
        if (account.role === "dosen") {
          const nama = account.nama ?? "";
          this.db
            .insert(dosen)
            .values({ nip: account.nip!, nama, userId })
            .onConflictDoUpdate({ target: dosen.nip, set: account.nama === undefined ? { userId } : { nama } })
            .run();
        } else if (account.role === "mahasiswa") {
          const profile = {
            nama: account.nama,
            jurusanId: account.jurusan === undefined ? undefined : jurusanIds.get(account.jurusan),
            angkatan: account.angkatan,
            kelas: account.kelas,
            nipDoswal: account.nipDoswal,
            ipk: account.ipk,
            usia: account.usia,
            gender: account.gender,
          };
          const given = Object.fromEntries(Object.entries(profile).filter(([, value]) => value !== undefined));
          this.db
            .insert(mahasiswa)
            .values({ nim: account.nim!, userId, ...given })
            .onConflictDoUpdate({ target: mahasiswa.nim, set: Object.keys(given).length > 0 ? given : { userId } })
            .run();
        }
      }
      return result;
    });
  }

  private async hashAll(passwords: readonly (string | undefined)[], onHashed: (done: number) => void): Promise<(string | undefined)[]> {
    const hashes: (string | undefined)[] = new Array(passwords.length);
    let next = 0;
    let done = 0;
    // Keep a few hashes per core in flight: bcrypt runs on the native thread pool.
    const workers = Array.from({ length: Math.max(1, availableParallelism()) * 2 }, async () => {
      while (next < passwords.length) {
        const index = next++;
        const password = passwords[index];
        if (password !== undefined) hashes[index] = await hashPassword(password, this.bcryptCost);
        onHashed(++done);
      }
    });
    await Promise.all(workers);
    return hashes;
  }

  list(role?: Role): AccountSummary[] {
    const query = this.db
      .select({
        id: users.id,
        username: users.username,
        role: users.role,
        activated: users.isActivated,
        nim: mahasiswa.nim,
        nip: dosen.nip,
        nama: sql<string | null>`coalesce(${mahasiswa.nama}, ${dosen.nama})`,
        createdAt: users.createdAt,
      })
      .from(users)
      .leftJoin(mahasiswa, eq(mahasiswa.userId, users.id))
      .leftJoin(dosen, eq(dosen.userId, users.id))
      .orderBy(asc(users.id));
    return (role ? query.where(eq(users.role, role)) : query).all();
  }

  async changePassword(username: string, password: string): Promise<void> {
    if (breaksPasswordRule(password)) throw invalid(passwordRule);
    const user = this.db.select({ id: users.id }).from(users).where(eq(users.username, username)).get();
    if (!user) throw notFound(`akun ${username} tidak ditemukan`);
    await replacePassword(this.db, this.writes, user.id, password, this.bcryptCost);
  }

  /**
   * On the first start there is no admin yet: create `admin`, activated, with the given
   * password or a random one. Returns the password to show once, or null if nothing was done.
   */
  async ensureAdmin(givenPassword: string | undefined): Promise<{ username: string; password: string; generated: boolean } | null> {
    const hasAdmin = this.db.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1).get();
    if (hasAdmin) return null;
    const password = givenPassword || randomBytes(12).toString("base64url");
    const passwordHash = await hashPassword(password, this.bcryptCost);
    const inserted = await this.writes.run(() =>
      this.db.insert(users).values({ username: "admin", passwordHash, role: "admin", isActivated: true }).onConflictDoNothing().returning({ id: users.id }).get(),
    );
    if (!inserted) throw conflict("belum ada admin, tetapi username admin sudah dipakai akun lain");
    return { username: "admin", password, generated: !givenPassword };
  }
}
