import { Elysia } from "elysia";
import type { AuthService, Principal, Role } from "../modules/auth/service";
import type { TokenClaims } from "../modules/auth/tokens";
import { forbidden } from "../errors";

/** Who may call a route, and what a caller of another role is told. */
export interface AccessRule {
  roles: readonly Role[] | "any";
  denied: string;
}

export const access = {
  any: { roles: "any", denied: "Akses ditolak." },
  mahasiswaOrAdmin: { roles: ["mahasiswa", "admin"], denied: "Akses ditolak." },
  dosenOrAdmin: { roles: ["dosen", "admin"], denied: "Akses ditolak." },
  mahasiswaOnly: (denied = "Hanya mahasiswa yang dapat mengakses.") => ({ roles: ["mahasiswa"], denied }) satisfies AccessRule,
} satisfies Record<string, AccessRule | ((denied?: string) => AccessRule)>;

/**
 * Route options `access: rule` (an access token whose role fits) and `refreshToken: true`
 * (a refresh token). Both put the caller in the context as `principal`, with the token's
 * `claims`. `studentWrite: true` beside `access` counts the request against the student's
 * write limit (decisions §10) once the caller is known.
 */
export const authGuard = (auth: AuthService) =>
  new Elysia({ name: "auth-guard", seed: auth.instanceId }).macro({
    access(rule: AccessRule) {
      return {
        async resolve({ headers }): Promise<{ principal: Principal; claims: TokenClaims }> {
          const caller = await auth.authenticate(headers.authorization, "access");
          if (rule.roles !== "any" && !rule.roles.includes(caller.principal.role)) throw forbidden(rule.denied);
          return caller;
        },
      };
    },
    studentWrite(enabled: true) {
      return {
        beforeHandle(context) {
          void enabled;
          const { principal } = context as unknown as { principal: Principal };
          if (principal.role === "mahasiswa") auth.studentWrites.take(principal.id);
        },
      };
    },
    refreshToken(enabled: true) {
      return {
        async resolve({ headers }): Promise<{ principal: Principal; claims: TokenClaims }> {
          void enabled;
          return auth.authenticate(headers.authorization, "refresh");
        },
      };
    },
  });
