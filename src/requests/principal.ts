import type { AuditActor } from "../audit/trail";
import type { Role } from "../db/schema";

/**
 * The caller of a request, resolved once from its token by the `access` route option:
 * the account and, when it has one, its student or lecturer profile.
 */
export interface Principal {
  id: number;
  username: string;
  role: Role;
  isActivated: boolean;
  createdAt: string;
  /** Decisions §14: when the account was deactivated; null while it may sign in. */
  disabledAt: string | null;
  nim: string | null;
  nip: string | null;
  /** The student's or lecturer's name from the profile. */
  nama: string | null;
  /** The account signs in with a password someone else set (a one-time password, a roster's reset, the first admin's): the owner must replace it, and until then its sessions may do nothing else (decisions §21). */
  mustChangePassword: boolean;
  /** When a one-time password stops opening the account (decisions §21); null for any other password. */
  passwordExpiresAt: string | null;
}

const anonymous: AuditActor = Object.freeze({ userId: null, username: null, role: "anonim" });
// A caller's principal is one object until a write changes it (the caller cache), so its actor is too.
const actors = new WeakMap<Principal, AuditActor>();

/** The actor of a request: its caller, or nobody known. */
export function principalActor(principal: Principal | undefined): AuditActor {
  if (!principal) return anonymous;
  let actor = actors.get(principal);
  if (!actor) {
    actor = Object.freeze({ userId: principal.id, username: principal.username, role: principal.role });
    actors.set(principal, actor);
  }
  return actor;
}
