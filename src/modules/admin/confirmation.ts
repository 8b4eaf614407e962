import { randomBytes, timingSafeEqual } from "node:crypto";
import { ServiceError } from "../../errors";
import type { JsonObject } from "../../requests/values";
import type { Principal } from "../../requests/principal";
import type { AuthService, RequestOrigin } from "../auth/service";
import type { TokenClaims } from "../auth/tokens";

/** The header a destructive act of the console carries its confirmation in. */
export const confirmationHeader = "x-konfirmasi";

/** How long one confirmation lasts: long enough for a few resets in a row, short enough to lapse at a PC left open. */
export const confirmationSeconds = 5 * 60;

export const confirmationMessages = {
  needed: "Tindakan ini perlu konfirmasi: ketik password Anda lagi.",
} as const;

/** 403 with `konfirmasi_diperlukan`, so that the page asks for the password and tries again; never 401, which would end the session. */
const confirmationNeeded = () => new ServiceError("forbidden", confirmationMessages.needed, { body: { konfirmasi_diperlukan: true } });

interface Granted {
  userId: number;
  token: Buffer;
  expiresAt: number;
}

/**
 * Destructive acts of the admin console (erasure, deactivation, a password reset, model
 * activation and removal) ask for the admin's password again: a short-lived confirmation,
 * not a second login. A confirmation belongs to the session it was given in (the token's
 * `sid`), lasts `confirmationSeconds`, and lives in this process's memory only: a restart
 * asks again. At most one per session is kept, so the map is bounded by the admins'
 * sessions.
 */
export class AdminConfirmations {
  private readonly granted = new Map<string, Granted>();

  constructor(
    private readonly auth: AuthService,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks the password (401 when wrong) and gives a confirmation for this session. */
  async confirm(principal: Principal, claims: TokenClaims, body: JsonObject, origin: RequestOrigin): Promise<{ konfirmasi: string; berlaku_sampai: string }> {
    await this.auth.confirmPassword(principal, body, origin);
    this.forgetExpired();
    const token = randomBytes(24);
    const expiresAt = this.now() + confirmationSeconds * 1000;
    this.granted.set(claims.sid, { userId: principal.id, token, expiresAt });
    return { konfirmasi: token.toString("base64url"), berlaku_sampai: new Date(expiresAt).toISOString() };
  }

  /** Refuses (403, `konfirmasi_diperlukan`) unless `presented` is this session's confirmation and has not lapsed. */
  assert(principal: Principal, claims: TokenClaims, presented: string | undefined): void {
    const granted = this.granted.get(claims.sid);
    const given = Buffer.from(presented ?? "", "base64url");
    const valid =
      granted !== undefined &&
      granted.userId === principal.id &&
      granted.expiresAt > this.now() &&
      given.length === granted.token.length &&
      timingSafeEqual(given, granted.token);
    if (!valid) throw confirmationNeeded();
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [session, granted] of this.granted) if (granted.expiresAt <= now) this.granted.delete(session);
  }
}
