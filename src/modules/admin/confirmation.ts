import { randomBytes, timingSafeEqual } from "node:crypto";
import { ServiceError, invalid } from "../../errors";
import type { JsonObject } from "../../requests/values";
import type { Principal } from "../../requests/principal";
import type { AuthService, RequestOrigin } from "../../auth/service";
import type { TokenClaims } from "../../auth/tokens";

/** The header an act of the console that can give access carries its confirmation in. */
export const confirmationHeader = "x-konfirmasi";

/** How long one confirmation lasts: the time to read the question and press the button, short enough to lapse at a PC left open. */
export const confirmationSeconds = 5 * 60;

export const confirmationMessages = {
  needed: "Tindakan ini perlu konfirmasi: ketik password Anda lagi.",
  actRequired: 'Sebutkan tindakan yang dikonfirmasi: tindakan berisi metode dan alamatnya, mis. "POST /api/admin/akun/budi/reset-password".',
} as const;

/** 403 with `konfirmasi_diperlukan`, so that the page asks for the password and tries again; never 401, which would end the session. */
const confirmationNeeded = () => new ServiceError("forbidden", confirmationMessages.needed, { body: { konfirmasi_diperlukan: true } });

interface Granted {
  userId: number;
  token: Buffer;
  expiresAt: number;
  /** The one act it serves: the method and the path, target included (`POST /api/admin/akun/budi/aktifkan`). */
  act: string;
}

/** A path segment as it reads (`mhs%2Etitik` is `mhs.titik`); one that is no valid escape stays as sent. */
function segment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A method and a path (or URL) as one act: the path without its query, each segment as it reads. */
function actOf(method: string, path: string): string {
  return `${method.toUpperCase()} ${new URL(path, "http://localhost").pathname.split("/").map(segment).join("/")}`;
}

/** The act a confirmation is asked for (`tindakan`): a writing method on a path under `prefix`; null when it is none. */
function requestedAct(value: unknown, prefix: string): string | null {
  if (typeof value !== "string") return null;
  const match = /^(POST|PUT|DELETE) (\/\S*)$/.exec(value.trim());
  if (!match) return null;
  const act = actOf(match[1]!, match[2]!);
  return act.startsWith(`${match[1]} ${prefix}/`) ? act : null;
}

/**
 * Acts of the admin console that can give access (decisions §21: erasure, deactivation and
 * reactivation, one-time passwords, a roster import that resets passwords, a new admin, a
 * model's activation, and the end of a restriction) ask for the admin's password again: a
 * short-lived confirmation, not a second login. It serves one act on one target: it names
 * the method and the path it is for, is used up by that act, belongs to the session it was
 * given in (the token's `sid`), lasts `confirmationSeconds`, and lives in this process's
 * memory only (a restart asks again). At most one per session is kept (a new one replaces
 * it), so the map is bounded by the admins' sessions.
 */
export class AdminConfirmations {
  private readonly granted = new Map<string, Granted>();

  /** `consolePrefix`: where the console's acts are (`/api/admin`); a confirmation of anything else is refused. */
  constructor(
    private readonly auth: AuthService,
    private readonly consolePrefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks the password (401 when wrong) and gives a confirmation of `tindakan` for this session. */
  async confirm(principal: Principal, claims: TokenClaims, body: JsonObject, origin: RequestOrigin): Promise<{ konfirmasi: string; berlaku_sampai: string }> {
    // The act first: a password is not checked (nor counted) for nothing in particular.
    const act = requestedAct(body.tindakan, this.consolePrefix);
    if (act === null) throw invalid(confirmationMessages.actRequired);
    await this.auth.confirmPassword(principal, body, origin);
    this.forgetExpired();
    const token = randomBytes(24);
    const expiresAt = this.now() + confirmationSeconds * 1000;
    this.granted.set(claims.sid, { userId: principal.id, token, expiresAt, act });
    return { konfirmasi: token.toString("base64url"), berlaku_sampai: new Date(expiresAt).toISOString() };
  }

  /**
   * Uses up this session's confirmation for the act `request` is, or refuses (403,
   * `konfirmasi_diperlukan`) when `presented` is not it, has lapsed, or was given for
   * another act or target; a refused one stays for its own act.
   */
  use(principal: Principal, claims: TokenClaims, presented: string | undefined, request: Request): void {
    const granted = this.granted.get(claims.sid);
    const given = Buffer.from(presented ?? "", "base64url");
    const valid =
      granted !== undefined &&
      granted.userId === principal.id &&
      granted.expiresAt > this.now() &&
      granted.act === actOf(request.method, request.url) &&
      given.length === granted.token.length &&
      timingSafeEqual(given, granted.token);
    if (!valid) throw confirmationNeeded();
    this.granted.delete(claims.sid);
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [session, granted] of this.granted) if (granted.expiresAt <= now) this.granted.delete(session);
  }
}
