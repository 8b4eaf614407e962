import { eq, sql } from "drizzle-orm";
import { appendAuditRows, trailTables, type AuditActor, type AuditEntry } from "../audit/trail";
import { breaksPasswordRule, passwordRule } from "../accounts/password-rule";
import { hashPassword, replacePassword, verifyPassword } from "../accounts/passwords";
import type { Config } from "../config";
import type { DatabaseClient } from "../db";
import { StorageError } from "../db/storage";
import type { WriteQueue } from "../db/write-queue";
import { databaseStamp, ReadCache } from "../db/read-cache";
import { dosen, jurusan, mahasiswa, users } from "../db/schema";
import type { Principal } from "../requests/principal";
import { ServiceError, describeFailure, forbidden, invalid, notFound, unauthenticated } from "../errors";
import type { JsonObject } from "../requests/values";
import { endAllSessions, SessionStore } from "./sessions";
import { LoginThrottle, type Attempt } from "./throttle";
import { RateLimit } from "../requests/rate-limit";
import { TokenService, tokenErrors, type TokenClaims, type TokenType } from "./tokens";
import { serializeUser } from "./user";
import { preparedOnFirstUse } from "../db/prepared";
import { AdvisorChanges } from "../privasi/advisor-scope";

const authMessages = {
  credentialsRequired: "Username dan password wajib diisi.",
  badCredentials: "Username atau password salah.",
  notActivated: "Akun belum diaktivasi. Silakan aktivasi terlebih dahulu.",
  disabled: "Akun dinonaktifkan. Hubungi admin fakultas.",
  alreadyActivated: "Akun sudah diaktivasi sebelumnya. Silakan login.",
  unknownAccount: "Akun tidak ditemukan. Pastikan username Anda sudah terdaftar.",
  wrongActivationPassword: "Password salah. Periksa kembali.",
  passwordsRequired: "Password lama dan password baru wajib diisi.",
  wrongOldPassword: "Password lama salah.",
  samePassword: "Password baru harus berbeda dari password awal.",
  sameAsOld: "Password baru harus berbeda dari password lama.",
  oneTimePasswordEnded: "Password sekali pakai ini sudah tidak berlaku. Minta password baru kepada admin fakultas.",
  confirmationRequired: "Ketik password Anda untuk mengonfirmasi.",
  wrongConfirmation: "Password salah.",
} as const;

/** Longer usernames are refused before any lookup (decisions §10): no account has one. */
const maxUsernameLength = 150;

const principalColumns = {
  id: users.id,
  username: users.username,
  passwordHash: users.passwordHash,
  role: users.role,
  isActivated: users.isActivated,
  createdAt: users.createdAt,
  disabledAt: users.disabledAt,
  nim: mahasiswa.nim,
  nip: dosen.nip,
  nama: sql<string | null>`coalesce(${mahasiswa.nama}, ${dosen.nama})`,
  mustChangePassword: users.mustChangePassword,
  passwordExpiresAt: users.passwordExpiresAt,
};

/** Where a request came from, for its audit row: the client's address and the route (`POST /api/auth/login`). */
export interface RequestOrigin {
  address: string;
  target: string;
}

/** An account as its own audit actor (login, activation, a password change). */
function accountActor(account: Pick<Principal, "id" | "username" | "role">): AuditActor {
  return { userId: account.id, username: account.username, role: account.role };
}

/** An unknown username is not written down: it may be a password typed in the wrong field. */
const unknownActor: AuditActor = { userId: null, username: null, role: "anonim" };

/** Decisions §21: a one-time password whose end has passed opens nothing, right as it may be. */
function oneTimePasswordEnded(account: Pick<Principal, "passwordExpiresAt">): boolean {
  return account.passwordExpiresAt !== null && Date.parse(account.passwordExpiresAt) <= Date.now();
}

/** Decisions §21: what a session may still do while its account must replace a password someone else set. */
export const oneTimePasswordMessages = { changeFirst: "Ganti password sementara Anda dahulu." } as const;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Activation's optional `password_baru`: null when not given; the password rule, and it must differ from the initial one. */
function readNewPassword(value: unknown, initial: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || breaksPasswordRule(value)) throw invalid(passwordRule);
  if (value === initial) throw invalid(authMessages.samePassword);
  return value;
}

export class AuthService {
  /** Tells Elysia's plugin de-duplication apart the guards of two apps in one process. */
  readonly instanceId = crypto.randomUUID();
  readonly tokens: TokenService;
  private readonly sessions: SessionStore;
  private readonly throttle: LoginThrottle;
  /** Fair use of student writes (decisions §10), checked by the `studentWrite` route option. */
  readonly studentWrites: RateLimit<number>;
  /** Decisions §16: reads without a token (the photo route), per client address. */
  readonly readsWithoutToken: RateLimit<string>;
  /** Decisions §19: a student is told of a change of advisor (`GET /api/auth/me`). */
  readonly advisorChanges: AdvisorChanges;
  private readonly principalById;
  private readonly principals: ReadCache<number, Principal | undefined>;
  private readonly principalByUsername;
  // Unknown usernames are checked against this hash too, so that they take as long as
  // wrong passwords and do not reveal which accounts exist. Made by the first login rather
  // than at start (a hash is a core's work while the server starts), and every login waits
  // for it, so that the first one too takes as long whatever username it names.
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
    private readonly config: Config,
  ) {
    this.tokens = new TokenService(config);
    this.sessions = new SessionStore(db, config.refreshTokenSeconds);
    this.throttle = new LoginThrottle(config.throttle);
    this.studentWrites = new RateLimit(config.studentWritesPerMinute);
    this.readsWithoutToken = new RateLimit(config.tokenlessReadsPerMinute);
    this.advisorChanges = new AdvisorChanges(db.$client);
    const principals = db
      .select(principalColumns)
      .from(users)
      .leftJoin(mahasiswa, eq(mahasiswa.userId, users.id))
      .leftJoin(dosen, eq(dosen.userId, users.id));
    this.principalById = preparedOnFirstUse(() => principals.where(eq(users.id, sql.placeholder("id"))).prepare());
    this.principals = new ReadCache(databaseStamp(db.$client), { reads: [users, mahasiswa, dosen], maxEntries: 2000 });
    this.principalByUsername = preparedOnFirstUse(() => principals.where(eq(users.username, sql.placeholder("username"))).prepare());
  }

  /** Every authenticated request asks this; the cache spares the join until something is written. */
  findPrincipal(id: number): Principal | undefined {
    return this.principals.get(id, () => this.principalById.get({ id }));
  }

  /** Resolves a bearer token into its claims and the caller; every failure is a 401. */
  async authenticate(authorization: string | undefined, expectedType: TokenType): Promise<{ claims: TokenClaims; principal: Principal }> {
    if (!authorization) throw unauthenticated(tokenErrors.missing);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw unauthenticated(tokenErrors.invalid);
    const claims = await this.tokens.verify(match[1]!, expectedType);
    const id = Number(claims.sub);
    const principal = Number.isSafeInteger(id) ? this.findPrincipal(id) : undefined;
    if (!principal) throw unauthenticated(tokenErrors.unknownUser);
    // A deactivation ends every session; a disabled account's token is refused all the same.
    if (principal.disabledAt !== null || !this.sessions.isActive(claims.sid, principal.id)) throw unauthenticated(tokenErrors.revoked);
    return { claims, principal };
  }

  /**
   * Counts the attempt before anything is checked (decisions §10); a username too long to
   * be anyone's is counted against the address alone and refused before any lookup.
   */
  private reserveAttempt(username: string, address: string, refusal: ServiceError): Attempt {
    if (username.length <= maxUsernameLength) return this.throttle.reserve(username, address);
    this.throttle.reserveAddress(address);
    throw refusal;
  }

  /**
   * A failed credential check leaves a `login_failed` row before the refusal is answered;
   * unknown and known usernames alike write one, so both still take the same time.
   */
  private async refuseCredentials(origin: RequestOrigin, actor: AuditActor, nim: string | null, detail: string, refusal: ServiceError): Promise<never> {
    await this.writes.run(() => appendAuditRows(this.db.$client, [{ actor, clientAddress: origin.address, action: "login_failed", nim, target: origin.target, detail }]), {
      touches: trailTables,
    });
    throw refusal;
  }

  private auditEntry(origin: RequestOrigin, account: Principal, action: AuditEntry["action"]): AuditEntry {
    return { actor: accountActor(account), clientAddress: origin.address, action, nim: account.nim, target: origin.target };
  }

  async login(body: JsonObject, origin: RequestOrigin) {
    const username = text(body.username).trim();
    const password = text(body.password);
    if (!username || !password.trim()) throw invalid(authMessages.credentialsRequired);
    const attempt = this.reserveAttempt(username, origin.address, unauthenticated(authMessages.badCredentials));

    const account = this.principalByUsername.get({ username });
    const decoy = await (this.decoyHash ??= hashPassword("decoy password", this.config.bcryptCost));
    const check = await verifyPassword(password, account?.passwordHash ?? decoy);
    const badCredentials = unauthenticated(authMessages.badCredentials);
    if (!account) return this.refuseCredentials(origin, unknownActor, null, "username tidak dikenal", badCredentials);
    if (!check.ok) return this.refuseCredentials(origin, accountActor(account), account.nim, "password salah", badCredentials);
    // Decisions §14: a disabled account is told so, once its password is known to be right.
    if (account.disabledAt !== null) {
      attempt.release();
      return this.refuseCredentials(origin, accountActor(account), account.nim, "akun dinonaktifkan", forbidden(authMessages.disabled));
    }
    if (!account.isActivated) {
      attempt.release();
      return this.refuseCredentials(origin, accountActor(account), account.nim, "akun belum diaktivasi", forbidden(authMessages.notActivated));
    }
    if (oneTimePasswordEnded(account)) {
      attempt.release();
      return this.refuseCredentials(origin, accountActor(account), account.nim, "password sekali pakai sudah tidak berlaku", unauthenticated(authMessages.oneTimePasswordEnded));
    }

    attempt.succeed();
    const passwordHash = check.needsRehash ? await hashPassword(password, this.config.bcryptCost) : null;
    const sessionId = await this.writes.run(() => {
      if (passwordHash !== null) this.db.update(users).set({ passwordHash }).where(eq(users.id, account.id)).run();
      appendAuditRows(this.db.$client, [this.auditEntry(origin, account, "login")]);
      return this.sessions.start(account.id);
    });
    return {
      access_token: await this.issueAccessToken(account, sessionId),
      refresh_token: await this.tokens.issue("refresh", account.id, sessionId),
      user: serializeUser(account),
    };
  }

  issueAccessToken(principal: Principal, sessionId: string): Promise<string> {
    const extra: Record<string, string | null> = { role: principal.role };
    if (principal.role === "mahasiswa" && principal.nim !== null) Object.assign(extra, { NIM: principal.nim, nama: principal.nama });
    if (principal.role === "dosen" && principal.nip !== null) Object.assign(extra, { NIP: principal.nip, nama: principal.nama });
    return this.tokens.issue("access", principal.id, sessionId, extra);
  }

  /** Ends the session of the presented token: its access and refresh tokens stop working. */
  async logout(claims: TokenClaims) {
    await this.writes.run(() => this.sessions.end(claims.sid));
    return { message: "Logout berhasil." };
  }

  async activate(body: JsonObject, origin: RequestOrigin) {
    const username = text(body.username).trim();
    const password = text(body.password);
    if (!username || !password.trim()) throw invalid(authMessages.credentialsRequired);
    const attempt = this.reserveAttempt(username, origin.address, notFound(authMessages.unknownAccount));

    const account = this.principalByUsername.get({ username });
    if (!account) return this.refuseCredentials(origin, unknownActor, null, "aktivasi: username tidak dikenal", notFound(authMessages.unknownAccount));
    // Decisions §14: activation never lifts a deactivation; said where the interface says "already activated", before the password.
    if (account.disabledAt !== null) {
      attempt.release();
      return this.refuseCredentials(origin, accountActor(account), account.nim, "aktivasi: akun dinonaktifkan", forbidden(authMessages.disabled));
    }
    if (account.isActivated) {
      attempt.release();
      throw invalid(authMessages.alreadyActivated);
    }
    const check = await verifyPassword(password, account.passwordHash);
    if (!check.ok) return this.refuseCredentials(origin, accountActor(account), account.nim, "aktivasi: password salah", unauthenticated(authMessages.wrongActivationPassword));
    if (oneTimePasswordEnded(account)) {
      attempt.release();
      return this.refuseCredentials(origin, accountActor(account), account.nim, "aktivasi: password sekali pakai sudah tidak berlaku", unauthenticated(authMessages.oneTimePasswordEnded));
    }
    attempt.succeed();
    // Decisions §14: the owner may set their own password in the same step; a bad one activates nothing.
    const newPassword = readNewPassword(body.password_baru, password);
    const passwordHash =
      newPassword !== null ? await hashPassword(newPassword, this.config.bcryptCost) : check.needsRehash ? await hashPassword(password, this.config.bcryptCost) : account.passwordHash;

    try {
      const summary = await this.writes.run(() => {
        // The owner's own password replaces a one-time one; the initial password kept as it is keeps the flag.
        this.db.update(users).set({ isActivated: true, passwordHash, ...(newPassword !== null ? { mustChangePassword: false, passwordExpiresAt: null } : {}) }).where(eq(users.id, account.id)).run();
        if (newPassword !== null) endAllSessions(this.db, account.id);
        appendAuditRows(this.db.$client, [this.auditEntry(origin, account, "activate"), ...(newPassword !== null ? [this.auditEntry(origin, account, "password")] : [])]);
        const profile =
          account.role === "mahasiswa"
            ? this.db
                .select({
                  nim: mahasiswa.nim,
                  nama: mahasiswa.nama,
                  jurusan: jurusan.nama,
                  angkatan: mahasiswa.angkatan,
                  kelas: mahasiswa.kelas,
                  nipDoswal: mahasiswa.nipDoswal,
                })
                .from(mahasiswa)
                .leftJoin(jurusan, eq(jurusan.id, mahasiswa.jurusanId))
                .where(eq(mahasiswa.userId, account.id))
                .get()
            : undefined;
        return {
          username: account.username,
          NIM: profile?.nim ?? null,
          nama: profile?.nama || account.username,
          jurusan: profile?.jurusan ?? "",
          angkatan: profile?.angkatan ?? "",
          kelas: profile?.kelas ?? "",
          nip_doswal: profile?.nipDoswal ?? "",
        };
      });
      return { message: "Aktivasi berhasil. Silakan login.", user: summary };
    } catch (error) {
      // A storage failure is answered as such (503/507), like on every other route.
      if (error instanceof StorageError) throw error;
      throw new ServiceError("failed", `Terjadi kesalahan: ${describeFailure(error)}`);
    }
  }

  async changePassword(principal: Principal, body: JsonObject, origin: RequestOrigin) {
    const oldPassword = text(body.old_password);
    const newPassword = text(body.new_password);
    if (!oldPassword || !newPassword) throw invalid(authMessages.passwordsRequired);
    const attempt = this.throttle.reserve(principal.username, origin.address);
    const account = this.principalById.get({ id: principal.id });
    if (!account || !(await verifyPassword(oldPassword, account.passwordHash)).ok) {
      return this.refuseCredentials(origin, accountActor(principal), principal.nim, "ganti password: password lama salah", unauthenticated(authMessages.wrongOldPassword));
    }
    attempt.release();
    if (oneTimePasswordEnded(account)) throw unauthenticated(authMessages.oneTimePasswordEnded);
    if (breaksPasswordRule(newPassword)) throw invalid(passwordRule);
    // Decisions §21: a one-time password (or any) is replaced, not kept under a new name.
    if (newPassword === oldPassword) throw invalid(authMessages.sameAsOld);
    await replacePassword(this.db, this.writes, principal.id, newPassword, this.config.bcryptCost, this.auditEntry(origin, principal, "password"));
    return { message: "Password berhasil diubah. Silakan login kembali." };
  }

  /**
   * The admin console's confirmation before a destructive act: the caller's own password
   * again, throttled and audited as a wrong old password at a password change is; a wrong
   * one answers 401 (`Password salah.`). Nothing is written on success: the confirmation
   * itself is short-lived state of the console (src/modules/admin/confirmation.ts).
   */
  async confirmPassword(principal: Principal, body: JsonObject, origin: RequestOrigin): Promise<void> {
    const password = text(body.password);
    if (!password) throw invalid(authMessages.confirmationRequired);
    const attempt = this.throttle.reserve(principal.username, origin.address);
    const account = this.principalById.get({ id: principal.id });
    if (!account || !(await verifyPassword(password, account.passwordHash)).ok) {
      return this.refuseCredentials(origin, accountActor(principal), principal.nim, "konfirmasi konsol admin: password salah", unauthenticated(authMessages.wrongConfirmation));
    }
    attempt.release();
  }

  /**
   * Decisions §21: while an account must replace a password someone else set, its sessions
   * may only change it, read `/api/auth/me` and sign out; anything else is 403 (after the
   * token's own checks, which say more).
   */
  refuseWhilePasswordMustChange(principal: Principal): void {
    if (principal.mustChangePassword) throw forbidden(oneTimePasswordMessages.changeFirst);
  }

  /** A new access token for the session of a refresh token. */
  refresh(principal: Principal, claims: TokenClaims) {
    return this.issueAccessToken(principal, claims.sid).then((access_token) => ({ access_token }));
  }
}
