import { jwt } from "@elysiajs/jwt";
import { randomUUID } from "node:crypto";
import type { Config } from "../config";
import { unauthenticated } from "../errors";

export type TokenType = "access" | "refresh";

export interface TokenClaims {
  sub: string;
  type: TokenType;
  jti: string;
  iat: number;
  exp: number;
  /** The session (one login) the token belongs to; logout and a password change end it. */
  sid: string;
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
const verifiedCacheSize = 2000;

/** Signs and checks HS256 tokens; whether a token's session still runs is the SessionStore's to say. */
export class TokenService {
  private readonly signer;
  private readonly verified = new Map<string, TokenClaims>();

  constructor(private readonly config: Config) {
    this.signer = jwt({ name: "jwt", secret: config.tokenSecret, alg: "HS256" }).decorator.jwt;
  }

  issue(type: TokenType, sub: number, sessionId: string, extraClaims: Record<string, string | null> = {}): Promise<string> {
    const lifetime = type === "access" ? this.config.accessTokenSeconds : this.config.refreshTokenSeconds;
    return this.signer.sign({
      ...extraClaims,
      sub: String(sub),
      type,
      sid: sessionId,
      jti: randomUUID(),
      exp: Math.floor(Date.now() / 1000) + lifetime,
    });
  }

  /** Checks signature, expiry and type, answering the texts of decisions §1. */
  async verify(token: string, expectedType: TokenType): Promise<TokenClaims> {
    const payload = this.verified.get(token) ?? (await this.checkSignature(token));
    if (payload.exp <= Date.now() / 1000) throw unauthenticated(tokenErrors.expired);
    if (payload.type !== expectedType) throw unauthenticated(tokenErrors.wrongType);
    return payload;
  }

  private async checkSignature(token: string): Promise<TokenClaims> {
    const payload = await this.signer.verify(token, { algorithms: ["HS256"], clockTolerance: tolerateAnyAge });
    if (!payload || !isClaims(payload)) throw unauthenticated(tokenErrors.invalid);
    if (this.verified.size >= verifiedCacheSize) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, payload);
    return payload;
  }
}

function isClaims(payload: Record<string, unknown>): payload is Record<string, unknown> & TokenClaims {
  return (
    typeof payload.sub === "string" &&
    (payload.type === "access" || payload.type === "refresh") &&
    typeof payload.jti === "string" &&
    typeof payload.exp === "number" &&
    typeof payload.sid === "string"
  );
}
