import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "bun:test";
import { TestService, standardAccounts } from "../helpers";

// Shared pieces of the auth tests: exact texts from interface.md / decisions.md, JWT
// helpers that build tokens by hand (so the tests do not trust the service's own signer),
// and small SQL helpers that read what the service wrote.

export const texts = {
  credentialsRequired: "Username dan password wajib diisi.",
  badCredentials: "Username atau password salah.",
  notActivated: "Akun belum diaktivasi. Silakan aktivasi terlebih dahulu.",
  alreadyActivated: "Akun sudah diaktivasi sebelumnya. Silakan login.",
  unknownAccount: "Akun tidak ditemukan. Pastikan username Anda sudah terdaftar.",
  wrongActivationPassword: "Password salah. Periksa kembali.",
  passwordsRequired: "Password lama dan password baru wajib diisi.",
  wrongOldPassword: "Password lama salah.",
  sameAsOld: "Password baru harus berbeda dari password lama.",
  // Decisions §21: a one-time password.
  changeFirst: "Ganti password sementara Anda dahulu.",
  oneTimePasswordEnded: "Password sekali pakai ini sudah tidak berlaku. Minta password baru kepada admin fakultas.",
  // decisions §10: one text for the one password rule, wherever a password is set.
  passwordRule: "Password harus minimal 8 karakter, maksimal 72 byte, dan tidak boleh hanya berisi spasi.",
  tokenMissing: "Token akses diperlukan.",
  tokenInvalid: "Token tidak valid.",
  tokenExpired: "Token sudah kedaluwarsa.",
  tokenRevoked: "Token sudah dicabut.",
  tokenWrongType: "Jenis token tidak sesuai.",
  tokenUnknownUser: "Pengguna tidak ditemukan.",
  unknownRoute: "Endpoint tidak ditemukan.",
  methodNotAllowed: "Metode tidak diizinkan.",
} as const;

/** Throttle limits high enough that tests outside throttle.test.ts never meet them. */
export const noThrottle = { SKRINING_THROTTLE_USERNAME: "10000", SKRINING_THROTTLE_ADDRESS: "10000" } as const;

export const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

export function base64url(input: string | Buffer): string {
  return Buffer.from(input).toString("base64url");
}

/** The three parts of a compact JWT, header and payload decoded. */
export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, any>; signature: string } {
  const parts = token.split(".");
  if (parts.length !== 3) throw new Error(`not a compact JWT: ${token}`);
  const [header, payload, signature] = parts as [string, string, string];
  return {
    header: JSON.parse(Buffer.from(header, "base64url").toString("utf8")),
    payload: JSON.parse(Buffer.from(payload, "base64url").toString("utf8")),
    signature,
  };
}

/** Signs a JWT by hand with HMAC (`HS256` / `HS384` / `HS512`) or leaves it unsigned (`none`). */
export function signJwt(payload: Record<string, unknown>, secret: string | Buffer, alg: "HS256" | "HS384" | "HS512" | "none" = "HS256"): string {
  const signingInput = `${base64url(JSON.stringify({ alg, typ: "JWT" }))}.${base64url(JSON.stringify(payload))}`;
  if (alg === "none") return `${signingInput}.`;
  const digest = { HS256: "sha256", HS384: "sha384", HS512: "sha512" }[alg];
  return `${signingInput}.${createHmac(digest, secret).update(signingInput).digest("base64url")}`;
}

/** The token key the service generated in its data folder (decisions §1). */
export function serviceSecret(service: TestService): string {
  return readFileSync(join(service.dataDir, "secret"), "utf8").trim();
}

export function userRow(service: TestService, username: string): { Id_User: number; password_hash: string; is_activated: number; created_at: string; role: string } | null {
  return service.context.db.$client.query("SELECT * FROM users WHERE username = ?").get(username) as any;
}

export function expectedMinutes(retryAfterSeconds: number): string {
  return `Terlalu banyak percobaan. Coba lagi dalam ${Math.ceil(retryAfterSeconds / 60)} menit.`;
}

/**
 * For tests that put a stored hash in the database and log in against it: a service with
 * the standard accounts and no throttle, started before the file's tests and closed after.
 */
export function storedHashLogins() {
  const harness = {
    service: undefined as unknown as TestService,
    setHash: (username: string, hash: string) =>
      harness.service.context.db.$client.query("UPDATE users SET password_hash = ? WHERE username = ?").run(hash, username),
    login: (username: string, password: string) => harness.service.request("POST", "/api/auth/login", { body: { username, password } }),
  };
  beforeAll(async () => {
    harness.service = new TestService(noThrottle);
    await harness.service.importAccounts(standardAccounts);
  });
  afterAll(() => harness.service.close());
  return harness;
}
