import type { Principal } from "../modules/auth/service";
import { forbidden } from "./errors";

/**
 * The interface's own-nim rule: a student may only name their own NIM in a path; other
 * roles are not restricted. A student account without a profile owns no NIM.
 */
export function assertOwnNim(principal: Principal, nim: string): void {
  if (principal.role === "mahasiswa" && principal.nim !== nim) throw forbidden("Akses ditolak.");
}
