import { allAccounts } from "./search";
import { and, asc, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { availableParallelism } from "node:os";
import { randomBytes } from "node:crypto";
import { appendAuditRows, type AuditSource } from "../audit/trail";
import type { DatabaseClient } from "../db";
import type { WriteQueue } from "../db/write-queue";
import { mahasiswa, users } from "../db/schema";
import { endAllSessions } from "../auth/sessions";
import type { Role } from "../db/schema";
import { nowIso } from "../records";
import { breaksPasswordRule, passwordRule } from "./password-rule";
import { hashPassword, replacePassword } from "./passwords";
import { findConflicts } from "./conflicts";
import { AdvisorMoves, RosterProfiles } from "./profiles";
import { importCounts, openedAccountRows, rowsRefused, type ImportOptions, type OpenedAccounts, type ImportPreview, type ImportResult, type MinorStudent, type ParsedRoster, type PreviewRow } from "./import-result";
import { validateAccountRow, type AccountColumn, type AccountInput, type RowError } from "./validation";
import { adultAge, isMinor } from "../profile-fields";
import { conflict, invalid, notFound } from "../errors";

/** Ordering of the writes: lecturers before students, so `nip_doswal` may name a lecturer of the same file. */
const writeOrder: Record<Role, number> = { admin: 0, dosen: 1, mahasiswa: 2 };

/** Who runs an account change: a command or the admin console (AuditSource). */
export type CommandAudit = AuditSource;

/** Decisions §21: how long a one-time password opens its account. */
export const oneTimePasswordHours = 72;

/** Letters and digits that are not mistaken for each other when read aloud or copied from a screen. */
const oneTimeAlphabet = "abcdefghjkmnpqrstuvwxyz23456789";

/** 12 such characters in groups of four (`k7mq-3xtp-9dvw`): about 59 bits, easy to type on a phone. */
export function oneTimePassword(): string {
  const bytes = randomBytes(12);
  const characters = [...bytes].map((byte) => oneTimeAlphabet[byte % oneTimeAlphabet.length]!);
  return [0, 4, 8].map((start) => characters.slice(start, start + 4).join("")).join("-");
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
    return findConflicts(this.db, accounts);
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
      const opened: OpenedAccounts = { passwordsReset: [], adminsCreated: [] };
      const profiles = new RosterProfiles(this.db);
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
          profiles.write(account, userId);
          result.created++;
          if (account.role === "admin") opened.adminsCreated.push({ username: account.username, activated: account.activated ?? false });
          continue;
        }
        let changed = profiles.write(account, user.id);
        if (options.resetPasswords && hash !== undefined) {
          // A password the roster's author knows: the owner replaces it at the next sign-in (decisions §21).
          this.db.update(users).set({ passwordHash: hash, mustChangePassword: true, passwordExpiresAt: null }).where(eq(users.id, user.id)).run();
          endAllSessions(this.db, user.id);
          result.passwordsReset++;
          opened.passwordsReset.push({ username: account.username, nim: account.nim ?? null });
          changed = true;
        }
        if (account.activated && !user.activated) result.leftInactive++;
        if (changed) result.updated++;
        else result.unchanged++;
      }
      if (options.audit) appendAuditRows(this.db.$client, options.audit(result, opened));
      return result;
    });
  }

  /**
   * `accounts import` and the console's roster import: every bad row of the file and every
   * conflict with the accounts there are is refused at once, nothing written; otherwise
   * the upsert, with one `accounts_import` audit row holding the counts (the file may hold
   * thousands of students), and a row naming each account it opened: a password reset, a
   * new admin (decisions §21).
   */
  async importRoster(roster: ParsedRoster, options: { resetPasswords?: boolean; source: CommandAudit; onHashed?: ImportOptions["onHashed"] }): Promise<ImportResult> {
    const problems = [...roster.errors, ...this.findConflicts(roster.accounts)];
    if (problems.length > 0) throw rowsRefused(problems);
    return this.upsert(roster.accounts, {
      resetPasswords: options.resetPasswords === true,
      onHashed: options.onHashed,
      audit: (done, opened) => [{ ...options.source, action: "accounts_import", detail: importCounts(done) }, ...openedAccountRows(options.source, opened)],
    });
  }

  /**
   * Decisions §21: whether importing the roster would open a way in, which the console
   * confirms with the admin's password: an existing account's password reset, or a new
   * admin. The same comparison as the preview's (`passwordReset`, a new row's `dibuat`).
   */
  importGivesAccess(roster: ParsedRoster, resetPasswords: boolean): boolean {
    const existing = new Set(this.db.select({ username: users.username }).from(users).all().map((row) => row.username));
    return roster.accounts.some((account) =>
      existing.has(account.username) ? resetPasswords && account.password !== undefined : account.role === "admin",
    );
  }

  /**
   * What importing the roster would do, row by row, with nothing written: the same checks
   * and the same comparison as the import itself, so the preview and the import agree.
   */
  previewImport(roster: ParsedRoster, resetPasswords = false): ImportPreview {
    const problems = [...roster.errors, ...this.findConflicts(roster.accounts)].sort((a, b) => a.line - b.line);
    // Activated as the import counts it: a disabled account is not (decisions §14).
    const existing = new Map(
      this.db
        .select({ username: users.username, activated: sql<boolean>`${users.isActivated} AND ${users.disabledAt} IS NULL`.mapWith(Boolean) })
        .from(users)
        .all()
        .map((row) => [row.username, row.activated]),
    );
    const profiles = new RosterProfiles(this.db);
    const advisors = new AdvisorMoves(this.db, roster.accounts);
    const counts: ImportResult = { created: 0, updated: 0, unchanged: 0, passwordsReset: 0, leftInactive: 0 };
    const rows = roster.accounts.map((account): PreviewRow => {
      const base = { line: account.line, username: account.username, role: account.role };
      const activated = existing.get(account.username);
      if (activated === undefined) {
        counts.created++;
        return { ...base, outcome: "dibuat", fields: [], passwordReset: false };
      }
      const change = profiles.changeOf(account);
      const passwordReset = resetPasswords && account.password !== undefined;
      if (passwordReset) counts.passwordsReset++;
      if (account.activated && !activated) counts.leftInactive++;
      const fields = change.kind === "fields" ? change.fields : change.kind === "new" ? ["profil"] : [];
      const changed = fields.length > 0 || passwordReset;
      if (changed) counts.updated++;
      else counts.unchanged++;
      const advisor = fields.includes("nipDoswal") ? advisors.moveOf(account) : undefined;
      return { ...base, outcome: changed ? "diperbarui" : "tidak berubah", fields, passwordReset, ...(advisor ? { advisor } : {}) };
    });
    return { problems, rows, counts, casesMoving: advisors.casesMoving(rows) };
  }

  /** `accounts add` and the console's form: one new account, refused when its username exists. */
  async addOne(cells: Partial<Record<AccountColumn, string>>, source: CommandAudit): Promise<AccountInput> {
    const { account, errors } = validateAccountRow(1, cells);
    if (!account) throw invalid(errors.join("; "));
    if (this.db.select({ id: users.id }).from(users).where(eq(users.username, account.username)).get()) throw conflict(`username ${account.username} sudah ada`);
    const conflicts = this.findConflicts([account]);
    if (conflicts.length > 0) throw invalid(conflicts.map((problem) => problem.message).join("; "));
    await this.upsert([account], {
      audit: () => [{ ...source, action: "create", nim: account.nim ?? null, detail: `akun ${account.username} (${account.role})${account.activated ? ", aktif" : ""}` }],
    });
    return account;
  }

  /**
   * An admin's reset: a random one-time password, shown once to the admin, which the owner
   * must replace at the next sign-in (the login answer says so) and which opens nothing
   * after `oneTimePasswordHours` (decisions §21); every session of the account ends, as
   * with any new password.
   */
  async resetPassword(username: string, source: CommandAudit): Promise<string> {
    const userId = this.accountId(username);
    const password = oneTimePassword();
    const until = new Date(Date.now() + oneTimePasswordHours * 3_600_000).toISOString();
    await replacePassword(
      this.db,
      this.writes,
      userId,
      password,
      this.bcryptCost,
      {
        ...source,
        action: "password",
        nim: this.nimOf(userId),
        detail: `akun ${username}: password sekali pakai, harus diganti saat masuk, berlaku ${oneTimePasswordHours} jam; semua sesinya berakhir`,
      },
      until,
    );
    return password;
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

  /** Every account (of one role), as the command lists it (its JSON keys: `createdAt`, no one-time password flag). */
  list(role?: Role) {
    return allAccounts(this.db, role).map(({ created_at, password_sementara, disabled, under_18, ...account }) => ({ ...account, createdAt: created_at, disabled, under_18 }));
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

  /** `accounts passwd`: a password the admin chose (no longer one-time, if it was). */
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
   * password (SKRINING_ADMIN_PASSWORD, by the password rule) or a random one, which the
   * admin must replace at the first sign-in (decisions §21). Returns the password to show
   * once, or null if nothing was done. `beforeCreating` runs just before the account is
   * written (src/accounts/first-admin.ts).
   */
  async ensureAdmin(
    givenPassword: string | undefined,
    beforeCreating: (admin: { username: string; generated: boolean }) => void = () => {},
  ): Promise<{ username: string; password: string; generated: boolean } | null> {
    const hasAdmin = this.db.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1).get();
    if (hasAdmin) return null;
    if (givenPassword && breaksPasswordRule(givenPassword)) throw invalid(`SKRINING_ADMIN_PASSWORD tidak dipakai: ${passwordRule}`);
    const generated = !givenPassword;
    const password = givenPassword || randomBytes(12).toString("base64url");
    const passwordHash = await hashPassword(password, this.bcryptCost);
    beforeCreating({ username: "admin", generated });
    const inserted = await this.writes.run(() =>
      this.db.insert(users).values({ username: "admin", passwordHash, role: "admin", isActivated: true, mustChangePassword: generated }).onConflictDoNothing().returning({ id: users.id }).get(),
    );
    if (!inserted) throw conflict("belum ada admin, tetapi username admin sudah dipakai akun lain");
    return { username: "admin", password, generated };
  }
}
