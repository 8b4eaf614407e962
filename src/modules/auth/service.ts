import { eq, sql } from "drizzle-orm";
import { hashPassword, verifyPassword } from "../../accounts/passwords";
import type { Config } from "../../config";
import type { DatabaseClient } from "../../db";
import { DatabaseStamp, ReadCache } from "../../db/read-cache";
import { dosen, jurusan, mahasiswa, users } from "../../db/schema";
import { HttpError, badRequest, describeFailure, notFound, unauthorized } from "../../http/errors";
import type { JsonObject } from "../../http/body";
import { LoginThrottle } from "./throttle";
import { TokenService, tokenErrors, type TokenClaims, type TokenType } from "./tokens";

export type Role = "mahasiswa" | "dosen" | "admin";

/** The caller of a request: the account and, when it has one, its profile. */
export interface Principal {
  id: number;
  username: string;
  role: Role;
  isActivated: boolean;
  passwordVersion: number;
  createdAt: string;
  nim: string | null;
  nip: string | null;
  /** The student's or lecturer's name from the profile. */
  nama: string | null;
}

export const authMessages = {
  credentialsRequired: "Username dan password wajib diisi.",
  badCredentials: "Username atau password salah.",
  notActivated: "Akun belum diaktivasi. Silakan aktivasi terlebih dahulu.",
  alreadyActivated: "Akun sudah diaktivasi sebelumnya. Silakan login.",
  unknownAccount: "Akun tidak ditemukan. Pastikan username Anda sudah terdaftar.",
  wrongActivationPassword: "Password salah. Periksa kembali.",
  passwordsRequired: "Password lama dan password baru wajib diisi.",
  wrongOldPassword: "Password lama salah.",
  newPasswordTooShort: "Password baru minimal 8 karakter.",
  newPasswordTooLong: "Password baru maksimal 72 byte.",
} as const;

const principalColumns = {
  id: users.id,
  username: users.username,
  passwordHash: users.passwordHash,
  role: users.role,
  isActivated: users.isActivated,
  passwordVersion: users.passwordVersion,
  createdAt: users.createdAt,
  nim: mahasiswa.nim,
  nip: dosen.nip,
  nama: sql<string | null>`coalesce(${mahasiswa.nama}, ${dosen.nama})`,
};

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export class AuthService {
  /** Tells Elysia's plugin de-duplication apart the guards of two apps in one process. */
  readonly instanceId = crypto.randomUUID();
  readonly tokens: TokenService;
  private readonly throttle: LoginThrottle;
  private readonly principalById;
  private readonly principals: ReadCache<number, Principal | undefined>;
  private readonly principalByUsername;
  // Unknown usernames are checked against this hash too, so that they take as long as
  // wrong passwords and do not reveal which accounts exist.
  private readonly decoyHash: Promise<string>;

  constructor(
    private readonly db: DatabaseClient,
    private readonly config: Config,
  ) {
    this.tokens = new TokenService(config, db);
    this.throttle = new LoginThrottle(config.throttle);
    const principals = db
      .select(principalColumns)
      .from(users)
      .leftJoin(mahasiswa, eq(mahasiswa.userId, users.id))
      .leftJoin(dosen, eq(dosen.userId, users.id));
    this.principalById = principals.where(eq(users.id, sql.placeholder("id"))).prepare();
    this.principals = new ReadCache(new DatabaseStamp(db.$client));
    this.principalByUsername = principals.where(eq(users.username, sql.placeholder("username"))).prepare();
    this.decoyHash = hashPassword("decoy password", config.bcryptCost);
  }

  /** Every authenticated request asks this; the cache spares the join until something is written. */
  findPrincipal(id: number): Principal | undefined {
    return this.principals.get(id, () => this.principalById.get({ id }));
  }

  /** Resolves a bearer token into its claims and the caller; every failure is a 401. */
  async authenticate(authorization: string | undefined, expectedType: TokenType): Promise<{ claims: TokenClaims; principal: Principal }> {
    if (!authorization) throw unauthorized(tokenErrors.missing);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw unauthorized(tokenErrors.invalid);
    const claims = await this.tokens.verify(match[1]!, expectedType);
    const id = Number(claims.sub);
    const principal = Number.isSafeInteger(id) ? this.findPrincipal(id) : undefined;
    if (!principal) throw unauthorized(tokenErrors.unknownUser);
    if (principal.passwordVersion !== claims.pv) throw unauthorized(tokenErrors.revoked);
    return { claims, principal };
  }

  async login(body: JsonObject, address: string) {
    const username = text(body.username).trim();
    const password = text(body.password);
    if (!username || !password.trim()) throw badRequest(authMessages.credentialsRequired);
    this.throttle.assertAllowed(username, address);

    const account = this.principalByUsername.get({ username });
    const check = await verifyPassword(password, account?.passwordHash ?? (await this.decoyHash));
    if (!account || !check.ok) {
      this.throttle.recordFailure(username, address);
      throw unauthorized(authMessages.badCredentials);
    }
    if (!account.isActivated) throw new HttpError(403, { error: authMessages.notActivated });

    this.throttle.clearUsername(username);
    if (check.needsRehash) {
      const passwordHash = await hashPassword(password, this.config.bcryptCost);
      this.db.update(users).set({ passwordHash }).where(eq(users.id, account.id)).run();
    }
    return {
      access_token: await this.issueAccessToken(account),
      refresh_token: await this.tokens.issue("refresh", account.id, account.passwordVersion),
      user: serializeUser(account),
    };
  }

  issueAccessToken(principal: Principal): Promise<string> {
    const extra: Record<string, string | null> = { role: principal.role };
    if (principal.role === "mahasiswa" && principal.nim !== null) Object.assign(extra, { NIM: principal.nim, nama: principal.nama });
    if (principal.role === "dosen" && principal.nip !== null) Object.assign(extra, { NIP: principal.nip, nama: principal.nama });
    return this.tokens.issue("access", principal.id, principal.passwordVersion, extra);
  }

  logout(claims: TokenClaims) {
    this.tokens.revoke(claims);
    return { message: "Logout berhasil." };
  }

  async activate(body: JsonObject, address: string) {
    const username = text(body.username).trim();
    const password = text(body.password);
    if (!username || !password.trim()) throw badRequest(authMessages.credentialsRequired);
    this.throttle.assertAllowed(username, address);

    const account = this.principalByUsername.get({ username });
    if (!account) {
      this.throttle.recordFailure(username, address);
      throw notFound(authMessages.unknownAccount);
    }
    if (account.isActivated) throw badRequest(authMessages.alreadyActivated);
    const check = await verifyPassword(password, account.passwordHash);
    if (!check.ok) {
      this.throttle.recordFailure(username, address);
      throw unauthorized(authMessages.wrongActivationPassword);
    }
    const passwordHash = check.needsRehash ? await hashPassword(password, this.config.bcryptCost) : account.passwordHash;

    try {
      const summary = this.db.transaction(
        (tx) => {
          tx.update(users).set({ isActivated: true, passwordHash }).where(eq(users.id, account.id)).run();
          const profile =
            account.role === "mahasiswa"
              ? tx
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
        },
        { behavior: "immediate" },
      );
      this.throttle.clearUsername(username);
      return { message: "Aktivasi berhasil. Silakan login.", user: summary };
    } catch (error) {
      throw new HttpError(500, { error: `Terjadi kesalahan: ${describeFailure(error)}` });
    }
  }

  async changePassword(principal: Principal, body: JsonObject, address: string) {
    const oldPassword = text(body.old_password);
    const newPassword = text(body.new_password);
    if (!oldPassword || !newPassword) throw badRequest(authMessages.passwordsRequired);
    this.throttle.assertAllowed(principal.username, address);
    const account = this.principalById.get({ id: principal.id });
    if (!account || !(await verifyPassword(oldPassword, account.passwordHash)).ok) {
      this.throttle.recordFailure(principal.username, address);
      throw unauthorized(authMessages.wrongOldPassword);
    }
    const problem = newPasswordProblem(newPassword);
    if (problem) throw badRequest(problem);
    await setPassword(this.db, principal.id, newPassword, this.config.bcryptCost);
    return { message: "Password berhasil diubah. Silakan login kembali." };
  }
}

export function newPasswordProblem(password: string): string | null {
  if ([...password].length < 8) return authMessages.newPasswordTooShort;
  if (Buffer.byteLength(password, "utf8") > 72) return authMessages.newPasswordTooLong;
  return null;
}

/** Stores a new password and ends every token issued before it. */
export async function setPassword(db: DatabaseClient, userId: number, password: string, cost: number): Promise<void> {
  const passwordHash = await hashPassword(password, cost);
  db.update(users)
    .set({ passwordHash, passwordVersion: sql`${users.passwordVersion} + 1` })
    .where(eq(users.id, userId))
    .run();
}

/** The user's serialized form merged with role and the NIM/NIP and name of its profile. */
export interface SerializedUser {
  Id_User: number;
  username: string;
  role: Role;
  created_at: string;
  is_activated: boolean;
  NIM?: string;
  NIP?: string;
  nama?: string | null;
}

export function serializeUser(principal: Principal): SerializedUser {
  const serialized: SerializedUser = {
    Id_User: principal.id,
    username: principal.username,
    role: principal.role,
    created_at: principal.createdAt,
    is_activated: principal.isActivated,
  };
  if (principal.role === "mahasiswa" && principal.nim !== null) Object.assign(serialized, { NIM: principal.nim, nama: principal.nama });
  if (principal.role === "dosen" && principal.nip !== null) Object.assign(serialized, { NIP: principal.nip, nama: principal.nama });
  return serialized;
}
