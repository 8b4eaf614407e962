import { forbidden, notFound } from "../errors";
import type { Principal } from "./principal";
import { pathId } from "./values";

/** What a caller is told when what they name is not theirs to reach (the route guards and the services alike). */
export const accessMessages = {
  denied: "Akses ditolak.",
  notAdvisee: "Mahasiswa bukan bimbingan Anda.",
} as const;

/**
 * The interface's own-nim rule: a student may only name their own NIM; other roles are not
 * restricted by it. A student account without a profile owns no NIM.
 */
export function assertOwnNim(principal: Principal, nim: string): void {
  if (principal.role === "mahasiswa" && principal.nim !== nim) throw forbidden(accessMessages.denied);
}

/**
 * A student's entry that a path id names (mood, diary): 404 with `unknown` when the id
 * names none (an id that is not a positive integer names none), then 403 when it belongs to
 * another student. Admins may act on any.
 */
export function ownedEntry<Entry extends { nim: string }>(principal: Principal, rawId: string, find: (id: number) => Entry | undefined, unknown: string): Entry {
  const id = pathId(rawId);
  const entry = id === null ? undefined : find(id);
  if (!entry) throw notFound(unknown);
  assertOwnNim(principal, entry.nim);
  return entry;
}
