import { jwt } from "@elysiajs/jwt";
import { lt } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { Config } from "../../config";
import type { DatabaseClient } from "../../db";
import { revokedTokens } from "../../db/schema";
import { unauthorized } from "../../http/errors";

export type TokenType = "access" | "refresh";

export interface TokenClaims {
  sub: string;
  type: TokenType;
  jti: string;
  iat: number;
  exp: number;
  /** The user's password version when the token was issued. */
  pv: number;
  role?: string;
  NIM?: string;
  NIP?: string;
  nama?: string | null;
}

export const tokenErrors = {
  missing: "Token akses diperlukan.",
  invalid: "Token tidak valid.",
  expired: "Token sudah kedaluwarsa.",
  revoked: "Token sudah dicabut.",
  wrongType: "Jenis token tidak sesuai.",
  unknownUser: "Pengguna tidak ditemukan.",
} as const;

// Signature checking must not reject an expired token itself: expiry has its own text,
// so jose is told to tolerate any age and the expiry is checked here.
const tolerateAnyAge = 100 * 365 * 24 * 3600;

// Checking a signature through jose and WebCrypto costs tens of microseconds, more than the
// rest of a read; a token seen before is looked up by its whole text, signature included.
const verifiedCacheSize = 10_000;

/**
 * Signs and checks HS256 tokens and keeps the logout blocklist: a Set in memory for
 * speed, mirrored in the database so that a restart does not revive a revoked token.
 */
export class TokenService {
  private readonly signer;
  private readonly revoked = new Set<string>();
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    private readonly config: Config,
    private readonly db: DatabaseClient,
  ) {
    this.signer = jwt({ name: "jwt", secret: config.tokenSecret, alg: "HS256" }).decorator.jwt;
    const now = Math.floor(Date.now() / 1000);
    db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, now)).run();
    for (const row of db.select({ jti: revokedTokens.jti }).from(revokedTokens).all()) this.revoked.add(row.jti);
  }

  issue(type: TokenType, sub: number, passwordVersion: number, extraClaims: Record<string, string | null> = {}): Promise<string> {
    const lifetime = type === "access" ? this.config.accessTokenSeconds : this.config.refreshTokenSeconds;
    return this.signer.sign({
      ...extraClaims,
      sub: String(sub),
      type,
      pv: passwordVersion,
      jti: randomUUID(),
      exp: Math.floor(Date.now() / 1000) + lifetime,
    });
  }

  /** Checks signature, expiry, type and the blocklist, answering the texts of decisions §1. */
  async verify(token: string, expectedType: TokenType): Promise<TokenClaims> {
    const payload = this.verified.get(token) ?? (await this.checkSignature(token));
    if (payload.exp <= Date.now() / 1000) throw unauthorized(tokenErrors.expired);
    if (payload.type !== expectedType) throw unauthorized(tokenErrors.wrongType);
    if (this.revoked.has(payload.jti)) throw unauthorized(tokenErrors.revoked);
    return payload;
  }

  private async checkSignature(token: string): Promise<TokenClaims> {
    const payload = await this.signer.verify(token, { algorithms: ["HS256"], clockTolerance: tolerateAnyAge });
    if (!payload || !isClaims(payload)) throw unauthorized(tokenErrors.invalid);
    if (this.verified.size >= verifiedCacheSize) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, payload);
    return payload;
  }

  revoke(claims: TokenClaims): void {
    this.revoked.add(claims.jti);
    const now = Math.floor(Date.now() / 1000);
    this.db.transaction((tx) => {
      tx.insert(revokedTokens).values({ jti: claims.jti, expiresAt: claims.exp }).onConflictDoNothing().run();
      tx.delete(revokedTokens).where(lt(revokedTokens.expiresAt, now)).run();
    });
  }
}

function isClaims(payload: Record<string, unknown>): payload is Record<string, unknown> & TokenClaims {
  return (
    typeof payload.sub === "string" &&
    (payload.type === "access" || payload.type === "refresh") &&
    typeof payload.jti === "string" &&
    typeof payload.exp === "number" &&
    typeof payload.pv === "number"
  );
}
