import { Elysia } from "elysia";
import type { AuditActor, AuditEvent, AuditTrail } from "../audit/trail";
import type { AuditAction } from "../db/schema";
import type { AuthService } from "../modules/auth/service";
import type { Principal } from "./principal";
import { readKey, requestedNim } from "./values";

/** What an audit rule may read of a request that succeeded (2xx). */
export interface AuditedRequest {
  principal: Principal | undefined;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  body: unknown;
  /** The handler's answer (the object before it is sent, or its Response). */
  answer: unknown;
  status: number;
}

/** The students a request concerns: one NIM, several (a page of a list), or none. */
type Students = (request: AuditedRequest) => string | null | readonly string[];

/**
 * A route's audit rule, given as its `audit` option (decisions: Audit trail). Reads
 * (`view`, `export`) of a student's data by anyone but that student are noted without
 * being waited for; writes are recorded before the answer is sent.
 */
export type AuditRule = {
  action: AuditAction | ((request: AuditedRequest) => AuditAction);
  detail?: (request: AuditedRequest) => string | null;
} & (
  | { students: Students; studentsBefore?: never }
  | {
      /**
       * The student of a request that removes what names them (a mood entry by its id),
       * read before the handler runs, when the answer no longer can.
       */
      studentsBefore: (params: Record<string, string>) => string | null;
      students?: never;
    }
);

const readActions: ReadonlySet<AuditAction> = new Set(["view", "export"]);

/** Where a route's students come from; each names a place the interface defines. */
export const auditStudents = {
  /** The `:nim` of the path. */
  path: ({ params }) => params.nim ?? null,
  /** The caller's own NIM (a student's own write). */
  caller: ({ principal }) => principal?.nim ?? null,
  /** A student's own NIM, or the `nim` of the query that an admin names. */
  ownOrQuery: ({ principal, query }) => (principal ? requestedNim(principal, query.nim) : null),
  /** A student's own NIM, or the `NIM` of the body that an admin names. */
  ownOrBody: ({ principal, body }) => (principal ? requestedNim(principal, fieldOf(body, "NIM")) : null),
  /** The `NIM` of the body (a lecturer's note). */
  body: ({ body }) => readKey(fieldOf(body, "NIM")) || null,
  /** The answer's `nim` or `NIM` (an entry, a note). */
  answer: ({ answer }) => {
    const value = fieldOf(answer, "nim") ?? fieldOf(answer, "NIM") ?? fieldOf(fieldOf(answer, "data"), "NIM");
    return typeof value === "string" ? value : null;
  },
  /** Every student of the answer's `data` page (the lecturer's list). */
  page: ({ answer }) => {
    const data = fieldOf(answer, "data");
    return Array.isArray(data) ? data.map((item) => fieldOf(item, "NIM")).filter((nim): nim is string => typeof nim === "string") : [];
  },
  /** Aggregates: no one student (the statistics). */
  none: () => null,
} satisfies Record<string, Students>;

function fieldOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && !(value instanceof Response) ? (value as Record<string, unknown>)[key] : undefined;
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

function statusOf(answer: unknown, status: unknown): number {
  if (answer instanceof Response) return answer.status;
  return typeof status === "number" ? status : 200;
}

type Hooked = {
  request: Request;
  route: string;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  body: unknown;
  set: { status?: number | string };
  principal?: Principal;
  responseValue: unknown;
};

/**
 * The `audit` route option. Its rows name the route by its pattern
 * (`GET /api/dosen/mahasiswa/:nim`), never the concrete path, and only a request that
 * succeeded leaves one: a refused request (401/403/404/422...) reaches `onError`, not here.
 * A request is one row, naming every student it concerned. A read without a caller (a
 * route with `tokenless`) is counted into its address's row of the minute (decisions §16).
 */
export const auditRoutes = (options: { trail: AuditTrail; auth: AuthService; clientAddress: (request: Request) => string }) => {
  const { trail, auth, clientAddress } = options;
  const before = new WeakMap<Request, string | null>();
  /** What a successful request did, to which students, and whether it was a read; null when it leaves no row (a student's own read, an empty page). */
  const eventOf = (rule: AuditRule, hooked: Hooked, status: number): { event: AuditEvent; students: string[]; reading: boolean } | null => {
    const { principal } = hooked;
    const request: AuditedRequest = { principal, params: hooked.params, query: hooked.query, body: hooked.body, answer: hooked.responseValue, status };
    const action = typeof rule.action === "function" ? rule.action(request) : rule.action;
    const found = rule.students ? rule.students(request) : (before.get(hooked.request) ?? null);
    // null: the request concerns no one student (an aggregate), and leaves a row naming none.
    const named = found === null ? null : typeof found === "string" ? [found] : [...found];
    const reading = readActions.has(action);
    // A student reading their own data leaves no row; a page with nobody on it leaves none either.
    const students = reading && principal?.role === "mahasiswa" ? (named ?? []).filter((nim) => nim !== principal.nim) : (named ?? []);
    if (named !== null && students.length === 0) return null;
    const event = {
      actor: principalActor(principal),
      clientAddress: clientAddress(hooked.request),
      action,
      target: `${hooked.request.method} ${hooked.route}`,
      detail: rule.detail?.(request) ?? null,
    };
    return { event, students, reading };
  };
  const succeeded = (hooked: Hooked) => {
    const status = statusOf(hooked.responseValue, hooked.set.status);
    return status >= 200 && status <= 299 ? status : null;
  };

  return new Elysia({ name: "audit-routes", seed: auth.instanceId }).macro({
    audit(rule: AuditRule) {
      const remember = rule.studentsBefore && {
        beforeHandle(context: unknown) {
          const { request, params } = context as Hooked;
          before.set(request, rule.studentsBefore!(params));
        },
      };
      // A read notes its row synchronously: an async hook would cost every read a promise,
      // and reads wait for nothing (decisions: Audit trail).
      if (typeof rule.action === "string" && readActions.has(rule.action)) {
        return {
          ...remember,
          afterHandle(context: unknown) {
            const hooked = context as Hooked;
            const status = succeeded(hooked);
            if (status === null) return;
            const done = eventOf(rule, hooked, status);
            if (!done) return;
            if (hooked.principal === undefined && done.students.length === 1) trail.noteAnonymous(done.event, done.students[0]!);
            else trail.note(done.event, done.students);
          },
        };
      }
      return {
        ...remember,
        async afterHandle(context: unknown) {
          const hooked = context as Hooked;
          const status = succeeded(hooked);
          if (status === null) return;
          const done = eventOf(rule, hooked, status);
          if (!done) return;
          if (done.reading) trail.note(done.event, done.students);
          else await trail.record({ ...done.event, students: done.students });
        },
      };
    },
  });
};

export type AuditRoutes = ReturnType<typeof auditRoutes>;
