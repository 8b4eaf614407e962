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
  /** The account signs in with a one-time password an admin set: the owner must replace it (decisions: Admin console). */
  mustChangePassword: boolean;
}
