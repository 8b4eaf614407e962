import { Elysia } from "elysia";
import type { Role } from "../db/schema";
import { ServiceError, forbidden, notFound } from "../errors";
import type { TokenClaims } from "../auth/tokens";
import { AdvisorScope } from "../privasi/advisor-scope";
import { restrictionMessages } from "../privasi/restriction";
import type { AppContext } from "../context";
import { accessMessages, assertOwnNim } from "../requests/ownership";
import type { Principal } from "../requests/principal";
import type { AuditRoutes } from "./audit";
import { beforeBody, type BodylessContext } from "./body-gate";

/** Who may call a route, and what a caller of another role is told. */
export interface AccessRule {
  roles: readonly Role[] | "any";
  denied: string;
  /** Decisions §21: the route serves a session whose account must first replace its password (`/me`, the password change, logout). */
  whilePasswordMustChange?: true;
}

export const access = {
  any: { roles: "any", denied: accessMessages.denied },
  /** Any role, and a session whose password must be replaced too: the caller's own sign-in. */
  ownSignIn: { roles: "any", denied: accessMessages.denied, whilePasswordMustChange: true },
  mahasiswaOrAdmin: { roles: ["mahasiswa", "admin"], denied: accessMessages.denied },
  dosenOrAdmin: { roles: ["dosen", "admin"], denied: accessMessages.denied },
  adminOnly: { roles: ["admin"], denied: accessMessages.denied },
  dosenOnly: { roles: ["dosen"], denied: accessMessages.denied },
  mahasiswaOnly: (denied = "Hanya mahasiswa yang dapat mengakses.") => ({ roles: ["mahasiswa"], denied }) satisfies AccessRule,
} satisfies Record<string, AccessRule | ((denied?: string) => AccessRule)>;

type Caller = { principal: Principal; params: Record<string, string> };

/** The `advisee` route option (below). */
export interface AdviseeRule {
  unknownStudent?: string;
  alsoAdmits?: (principal: Principal, nim: string) => boolean;
  tellsFormerAdvisor?: boolean;
}

/**
 * The route options that say who may call a route, so that a route reads like its row in
 * the interface table. They run in the order they are written in the route's options:
 *
 * - `access: rule`: an access token (401); then, unless the rule says otherwise, an account
 *   that need not replace its password first (403, decisions §21); a role that fits (403
 *   with the rule's text). Puts the caller in the context as `principal`, with the token's
 *   `claims`. It needs no body, so it runs before the body is read (src/http/body-gate.ts),
 *   once per request.
 * - `refreshToken: true`: the same for a refresh token (before the body too).
 * - `studentWrite: true`: a student's write, counted against the fair-use limit (429).
 * - `ownNim: true`: the own-nim rule for the `:nim` of the path (403), before anything else
 *   about that student, so a student naming an unknown NIM learns nothing.
 * - `advisee: { unknownStudent?: text, alsoAdmits?, tellsFormerAdvisor? }`: decisions §9 and
 *   §13, for the `:nim` of the path: a route that answers 404 for an unknown student names
 *   its text and keeps that answer first; then a lecturer passes only for their own advisees
 *   and the students whose open follow-up case they handle (403, AdvisorScope), or whom
 *   `alsoAdmits` lets through (decisions §19: a note's author reads their notes). With
 *   `tellsFormerAdvisor`, the 403 of a lecturer the student has moved away from carries
 *   `pindah_dosen_wali` (when, and to whom). Admins are not restricted.
 * - `restriction: "staff"`: for the `:nim` of the path, a lecturer or an admin is refused
 *   (403) while the student's processing is restricted (`privacy restrict`); the student
 *   passes.
 * - `tokenless: true`: a route the interface leaves open (the photo). A token, when one is
 *   sent and valid, names the caller (`principal`, else undefined); a request without one
 *   counts against its client address's limit of reads (decisions §16, 429); while the
 *   student of the path is restricted, only the student's own token passes (403).
 * - `audit: rule`: the audit rows the route leaves once it succeeded (src/http/audit.ts);
 *   written last in the options.
 */
export const routeGuards = (core: Pick<AppContext, "auth" | "scope" | "restriction">, audit: AuditRoutes, clientAddress: (request: Request) => string = () => "local") => {
  const { auth, scope, restriction } = core;
  const advisorChanges = auth.advisorChanges;
  // The caller of a request, checked once: before its body when it has one, then found again by the route.
  const callers = new WeakMap<Request, Promise<{ principal: Principal; claims: TokenClaims }>>();
  const callerOf = (request: Request, check: () => Promise<{ principal: Principal; claims: TokenClaims }>) => {
    let caller = callers.get(request);
    if (!caller) {
      caller = check();
      callers.set(request, caller);
    }
    return caller;
  };
  const bearerOf = (request: Request) => request.headers.get("authorization") ?? undefined;
  return new Elysia({ name: "route-guards", seed: auth.instanceId }).use(audit).macro({
    access(rule: AccessRule) {
      return {
        resolve: beforeBody(
          ({ request }: BodylessContext): Promise<{ principal: Principal; claims: TokenClaims }> =>
            callerOf(request, async () => {
              const found = await auth.authenticate(bearerOf(request), "access");
              if (!rule.whilePasswordMustChange) auth.refuseWhilePasswordMustChange(found.principal);
              if (rule.roles !== "any" && !rule.roles.includes(found.principal.role)) throw forbidden(rule.denied);
              return found;
            }),
        ),
      };
    },
    refreshToken(enabled: true) {
      void enabled;
      return {
        resolve: beforeBody(
          ({ request }: BodylessContext): Promise<{ principal: Principal; claims: TokenClaims }> => callerOf(request, () => auth.authenticate(bearerOf(request), "refresh")),
        ),
      };
    },
    studentWrite(enabled: true) {
      return {
        beforeHandle(context) {
          void enabled;
          const { principal } = context as unknown as Caller;
          if (principal.role === "mahasiswa") auth.studentWrites.take(principal.id);
        },
      };
    },
    ownNim(enabled: true) {
      return {
        beforeHandle(context) {
          void enabled;
          const { principal, params } = context as unknown as Caller;
          assertOwnNim(principal, params.nim!);
        },
      };
    },
    advisee(rule: AdviseeRule) {
      return {
        beforeHandle(context) {
          const { principal, params } = context as unknown as Caller;
          if (rule.unknownStudent === undefined && principal.role !== "dosen") return;
          const nim = params.nim!;
          const lecturers = scope.of(nim);
          if (!lecturers && rule.unknownStudent !== undefined) throw notFound(rule.unknownStudent);
          if (principal.role !== "dosen" || AdvisorScope.admits(principal, lecturers) || rule.alsoAdmits?.(principal, nim)) return;
          const moved = rule.tellsFormerAdvisor && lecturers ? advisorChanges.movedAwayFrom(nim, principal.nip) : null;
          throw moved ? new ServiceError("forbidden", accessMessages.notAdvisee, { body: { pindah_dosen_wali: moved } }) : forbidden(accessMessages.notAdvisee);
        },
      };
    },
    restriction(kind: "staff") {
      return {
        beforeHandle(context) {
          void kind;
          const { principal, params } = context as unknown as Caller;
          restriction.assertStaffMay(principal, params.nim!);
        },
      };
    },
    tokenless(enabled: true) {
      return {
        async resolve({ headers }): Promise<{ principal: Principal | undefined }> {
          void enabled;
          const caller = headers.authorization ? await auth.authenticate(headers.authorization, "access").catch(() => null) : null;
          // A session that must replace its password first reads as a reader without a token (decisions §21).
          return { principal: caller?.principal.mustChangePassword ? undefined : caller?.principal };
        },
        beforeHandle(context) {
          const { principal, params, request } = context as unknown as { principal: Principal | undefined; params: Record<string, string>; request: Request };
          if (!principal) auth.readsWithoutToken.take(clientAddress(request));
          const nim = params.nim!;
          if (restriction.since(nim) !== null && !(principal?.role === "mahasiswa" && principal.nim === nim)) throw forbidden(restrictionMessages.staffRefused);
        },
      };
    },
  });
};

export type RouteGuards = ReturnType<typeof routeGuards>;
