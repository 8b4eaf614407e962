import { and, asc, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { availableParallelism } from "node:os";
import { randomBytes } from "node:crypto";
import { appendAuditRows, type AuditActor, type AuditEntry } from "../audit/trail";
import type { DatabaseClient } from "../db";
import type { WriteQueue } from "../db/write-queue";
import { dosen, jurusan, mahasiswa, users } from "../db/schema";
import { endAllSessions } from "../modules/auth/sessions";
import type { Role } from "../db/schema";
import { nowIso } from "../records";
import { breaksPasswordRule, hashPassword, passwordRule, replacePassword } from "./passwords";
import type { AccountInput, RowError } from "./validation";
import { adultAge, isMinor } from "../profile-fields";
import { InvalidInput, conflict, invalid, notFound } from "../errors";

/** Ordering of the writes: lecturers before students, so `nip_doswal` may name a lecturer of the same file. */
const writeOrder: Record<Role, number> = { admin: 0, dosen: 1, mahasiswa: 2 };

export interface ImportOptions {
  /** Also give existing accounts the row's password, ending their sessions (decisions §7). */
  resetPasswords?: boolean;
  /** Progress of the hashing: first (0, total) when there is any password to hash, then after each. */
  onHashed?: (done: number, total: number) => void;
  /** The audit rows of the import, written in its transaction from what it did. */
  audit?: (result: ImportResult) => AuditEntry[];
}

/** Who runs an account command, and which: the audit row's actor and target. */
export interface CommandAudit {
  actor: AuditActor;
  target: string;
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

type StudentProfile = Omit<typeof mahasiswa.$inferInsert, "nim" | "userId">;

interface AccountSummary {
  id: number;
  username: string;
  role: Role;
  activated: boolean;
  /** Decisions §14: deactivated (`accounts deactivate`); no login or activation until `accounts activate`. */
  disabled: boolean;
  nim: string | null;
  nip: string | null;
  nama: string | null;
  createdAt: string;
  /** A student whose `usia` is below 18: a guardian's consent is needed (UU 27/2022). */
  under_18: boolean;
}

/** A student under 18, named for the admin after an import. */
export interface MinorStudent {
  nim: string;
  nama: string | null;
  usia: number;
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
   * Creates or updates accounts by username, all or nothing (decisions §7). An existing
   * account keeps its password (unless `resetPasswords`) and its activation; profile
   * fields given in the row replace the stored ones, empty cells leave them. Only the
   * passwords that will be stored are hashed, first, on every core; then one transaction
   * writes lecturers before students.
   */
  async upsert(accounts: readonly AccountInput[], options: ImportOptions = {}): Promise<ImportResult> {
    const conflicts = this.findConflicts(accounts);
    if (conflicts.length > 0) throw rowsRefused(conflicts);

    const existing = new Set(this.db.select({ username: users.username }).from(users).all().map((row) => row.username));
    const toHash = accounts.map((account) => (options.resetPasswords || !existing.has(account.username) ? account.password : undefined));
    const hashes = await this.hashAll(toHash, options.onHashed ?? (() => {}));
    const ordered = accounts.map((account, index) => ({ account, hash: hashes[index] })).sort((a, b) => writeOrder[a.account.role] - writeOrder[b.account.role]);

    return this.writes.run(() => {
      // Again inside the transaction: another program may have changed accounts while the passwords were hashed.
      const lateConflicts = this.findConflicts(accounts);
      if (lateConflicts.length > 0) throw rowsRefused(lateConflicts);
      const result: ImportResult = { created: 0, updated: 0, unchanged: 0, passwordsReset: 0, leftInactive: 0 };
      // One read of every account instead of one lookup per row: a faculty has thousands, not millions.
      const current = new Map(
        this.db
          .select({ id: users.id, username: users.username, activated: sql<boolean>`${users.isActivated} AND ${users.disabledAt} IS NULL`.mapWith(Boolean) })
          .from(users)
          .all()
          .map((row) => [row.username, row]),
      );
      for (const { account, hash } of ordered) {
        const user = current.get(account.username);
        if (!user) {
          if (hash === undefined) throw conflict("daftar akun berubah selama impor; jalankan impor sekali lagi");
          const userId = this.db
            .insert(users)
            .values({ username: account.username, passwordHash: hash, role: account.role, isActivated: account.activated ?? false })
            .returning({ id: users.id })
            .get().id;
          this.writeProfile(account, userId);
          result.created++;
          continue;
        }
        let changed = this.writeProfile(account, user.id);
        if (options.resetPasswords && hash !== undefined) {
          this.db.update(users).set({ passwordHash: hash }).where(eq(users.id, user.id)).run();
          endAllSessions(this.db, user.id);
          result.passwordsReset++;
          changed = true;
        }
        if (account.activated && !user.activated) result.leftInactive++;
        if (changed) result.updated++;
        else result.unchanged++;
      }
      if (options.audit) appendAuditRows(this.db.$client, options.audit(result));
      return result;
    });
  }

  /**
   * Creates the lecturer or student profile of a row, or writes the fields that differ
   * from the stored ones; whether anything was written. Runs inside the import's write.
   * `findConflicts` has made sure that a stored NIM or NIP belongs to this account.
   */
  private writeProfile(account: AccountInput, userId: number): boolean {
    if (account.role === "dosen") {
      const stored = this.db.select({ nama: dosen.nama }).from(dosen).where(eq(dosen.nip, account.nip!)).get();
      if (!stored) {
        this.db.insert(dosen).values({ nip: account.nip!, nama: account.nama ?? "", userId }).run();
        return true;
      }
      if (account.nama === undefined || account.nama === stored.nama) return false;
      this.db.update(dosen).set({ nama: account.nama }).where(eq(dosen.nip, account.nip!)).run();
      return true;
    }
    if (account.role !== "mahasiswa") return false;
    const given: StudentProfile = {
      nama: account.nama,
      jurusanId: account.jurusan === undefined ? undefined : this.jurusanId(account.jurusan),
      angkatan: account.angkatan,
      kelas: account.kelas,
      nipDoswal: account.nipDoswal,
      ipk: account.ipk,
      usia: account.usia,
      gender: account.gender,
    };
    const stored = this.db.select().from(mahasiswa).where(eq(mahasiswa.nim, account.nim!)).get();
    if (!stored) {
      this.db.insert(mahasiswa).values({ ...definedFields(given), nim: account.nim!, userId }).run();
      return true;
    }
    const changes = Object.fromEntries(Object.entries(definedFields(given)).filter(([field, value]) => stored[field as keyof StudentProfile] !== value));
    if (Object.keys(changes).length === 0) return false;
    this.db.update(mahasiswa).set(changes).where(eq(mahasiswa.nim, account.nim!)).run();
    return true;
  }

  /** The id of a jurusan by name, created when new. Runs inside the import's write. */
  private jurusanId(name: string): number {
    const found = this.db.select({ id: jurusan.id }).from(jurusan).where(eq(jurusan.nama, name)).get();
    return found?.id ?? this.db.insert(jurusan).values({ nama: name }).returning({ id: jurusan.id }).get().id;
  }

  private async hashAll(passwords: readonly (string | undefined)[], onHashed: (done: number, total: number) => void): Promise<(string | undefined)[]> {
    const hashes: (string | undefined)[] = new Array(passwords.length);
    const pending = passwords.flatMap((password, index) => (password === undefined ? [] : [{ password, index }]));
    if (pending.length === 0) return hashes;
    let next = 0;
    let done = 0;
    onHashed(0, pending.length);
    // Keep a few hashes per core in flight: bcrypt runs on a thread pool.
    const workers = Array.from({ length: Math.max(1, availableParallelism()) * 2 }, async () => {
      while (next < pending.length) {
        const { password, index } = pending[next++]!;
        hashes[index] = await hashPassword(password, this.bcryptCost);
        onHashed(++done, pending.length);
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
        disabledAt: users.disabledAt,
        nim: mahasiswa.nim,
        nip: dosen.nip,
        nama: sql<string | null>`coalesce(${mahasiswa.nama}, ${dosen.nama})`,
        createdAt: users.createdAt,
        usia: mahasiswa.usia,
      })
      .from(users)
      .leftJoin(mahasiswa, eq(mahasiswa.userId, users.id))
      .leftJoin(dosen, eq(dosen.userId, users.id))
      .orderBy(asc(users.id));
    return (role ? query.where(eq(users.role, role)) : query).all().map(({ usia, disabledAt, ...account }) => ({ ...account, disabled: disabledAt !== null, under_18: isMinor(usia) }));
  }

  /** The students among these NIMs who are under 18 by their stored `usia`, by NIM. */
  minorsAmong(nims: readonly string[]): MinorStudent[] {
    const wanted = new Set(nims);
    return this.db
      .select({ nim: mahasiswa.nim, nama: mahasiswa.nama, usia: mahasiswa.usia })
      .from(mahasiswa)
      .where(lt(mahasiswa.usia, adultAge))
      .orderBy(asc(mahasiswa.nim))
      .all()
      .filter((student): student is MinorStudent => wanted.has(student.nim) && isMinor(student.usia));
  }

  /** Whether any account has this role (a new installation has no students yet). */
  hasAccounts(role: Role): boolean {
    return this.db.select({ id: users.id }).from(users).where(eq(users.role, role)).limit(1).get() !== undefined;
  }

  /** The id of the account with this username; a clear refusal when there is none. */
  accountId(username: string): number {
    const user = this.db.select({ id: users.id }).from(users).where(eq(users.username, username)).get();
    if (!user) throw notFound(`akun ${username} tidak ditemukan`);
    return user.id;
  }

  /** The NIM of a student account, for the audit row of a change to it; null for other accounts. */
  private nimOf(userId: number): string | null {
    return this.db.select({ nim: mahasiswa.nim }).from(mahasiswa).where(eq(mahasiswa.userId, userId)).get()?.nim ?? null;
  }

  async changePassword(username: string, password: string, audit: CommandAudit): Promise<void> {
    if (breaksPasswordRule(password)) throw invalid(passwordRule);
    const userId = this.accountId(username);
    await replacePassword(this.db, this.writes, userId, password, this.bcryptCost, {
      ...audit,
      action: "password",
      nim: this.nimOf(userId),
      detail: `akun ${username}; semua sesinya berakhir`,
    });
  }

  /**
   * Decisions §14. `true` lets the account sign in without the activation step and lifts a
   * deactivation; `false` disables it: every session ends at once, login and activation
   * answer 403 until this is called with `true` again (a routine roster import keeps it).
   * Whether anything changed; sessions end on `false` either way.
   */
  setActivated(username: string, activated: boolean, audit: CommandAudit): Promise<boolean> {
    return this.writes.run(() => {
      const userId = this.accountId(username);
      if (!activated) endAllSessions(this.db, userId);
      const changed =
        this.db
          .update(users)
          .set(activated ? { isActivated: true, disabledAt: null } : { disabledAt: nowIso() })
          .where(and(eq(users.id, userId), activated ? or(eq(users.isActivated, false), isNotNull(users.disabledAt)) : isNull(users.disabledAt)))
          .returning({ id: users.id })
          .get() !== undefined;
      const outcome = activated ? (changed ? "diaktifkan" : "sudah aktif") : changed ? "dinonaktifkan; semua sesinya berakhir" : "sudah dinonaktifkan; semua sesinya berakhir";
      appendAuditRows(this.db.$client, [{ ...audit, action: "activate", nim: this.nimOf(userId), detail: `akun ${username} ${outcome}` }]);
      return changed;
    });
  }

  /**
   * On the first start there is no admin yet: create `admin`, activated, with the given
   * password or a random one. Returns the password to show once, or null if nothing was
   * done. `beforeCreating` runs just before the account is written (src/accounts/first-admin.ts).
   */
  async ensureAdmin(
    givenPassword: string | undefined,
    beforeCreating: (admin: { username: string; generated: boolean }) => void = () => {},
  ): Promise<{ username: string; password: string; generated: boolean } | null> {
    const hasAdmin = this.db.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1).get();
    if (hasAdmin) return null;
    const password = givenPassword || randomBytes(12).toString("base64url");
    const passwordHash = await hashPassword(password, this.bcryptCost);
    beforeCreating({ username: "admin", generated: !givenPassword });
    const inserted = await this.writes.run(() =>
      this.db.insert(users).values({ username: "admin", passwordHash, role: "admin", isActivated: true }).onConflictDoNothing().returning({ id: users.id }).get(),
    );
    if (!inserted) throw conflict("belum ada admin, tetapi username admin sudah dipakai akun lain");
    return { username: "admin", password, generated: !givenPassword };
  }
}

/** The fields of a profile that a row gives: undefined means "leave as stored". */
function definedFields(profile: StudentProfile): Partial<StudentProfile> {
  return Object.fromEntries(Object.entries(profile).filter(([, value]) => value !== undefined));
}
