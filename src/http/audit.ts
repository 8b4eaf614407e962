import { Elysia } from "elysia";
import { currentChangeRow } from "../audit/change-row";
import type { AuditEvent, AuditTrail } from "../audit/trail";
import type { AuditAction } from "../db/schema";
import type { AuthService } from "../auth/service";
import { principalActor, type Principal } from "../requests/principal";
import { readKey, requestedNim } from "../requests/values";
import { JsonAnswer } from "./json-answer";

/** What an audit rule may read of a request that succeeded (2xx), or of a change it made. */
export interface AuditedRequest {
  principal: Principal | undefined;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  body: unknown;
  /**
   * A read's: the handler's answer (the object before it is sent, or its Response). A
   * write's: what the change's job of the write queue returned (the row is written in that
   * job), or the handler's answer when the request changed nothing through the queue.
   */
  answer: unknown;
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
  /** The answer's `nim` or `NIM` (an entry, a note, an entry a change returned with more). */
  answer: ({ answer }) => {
    const value = fieldOf(answer, "nim") ?? fieldOf(answer, "NIM") ?? fieldOf(fieldOf(answer, "data"), "NIM") ?? fieldOf(fieldOf(answer, "entry"), "nim");
    return typeof value === "string" ? value : null;
  },
  /** Every student of the answer's `data` page (the lecturer's list). */
  page: ({ answer }) => {
    const data = fieldOf(answer, "data");
    return Array.isArray(data) ? studentsOfPage(data) : [];
  },
  /** Aggregates: no one student (the statistics). */
  none: () => null,
} satisfies Record<string, Students>;

/**
 * A page's students, listed once per page: a cached page is the same object at every read,
 * and the trail keys its note by this very list (AuditTrail.note).
 */
const pageStudents = new WeakMap<readonly unknown[], readonly string[]>();
function studentsOfPage(data: readonly unknown[]): readonly string[] {
  let students = pageStudents.get(data);
  if (!students) {
    students = Object.freeze(data.map((item) => fieldOf(item, "NIM")).filter((nim): nim is string => typeof nim === "string"));
    pageStudents.set(data, students);
  }
  return students;
}

function fieldOf(value: unknown, key: string): unknown {
  // A JSON answer kept as text still carries its value.
  const plain = value instanceof JsonAnswer ? value.value : value;
  return typeof plain === "object" && plain !== null && !(plain instanceof Response) ? (plain as Record<string, unknown>)[key] : undefined;
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

/** Whether a request's answer is a success (2xx): only those leave a row of their own. */
function succeeded(hooked: Hooked): boolean {
  const { responseValue: answer, set } = hooked;
  const status = answer instanceof Response ? answer.status : typeof set.status === "number" ? set.status : 200;
  return status >= 200 && status <= 299;
}

/**
 * The `audit` route option. Its rows name the route by its pattern
 * (`GET /api/dosen/mahasiswa/:nim`), never the concrete path, and only a request that
 * succeeded leaves one: a refused request (401/403/404/422...) reaches `onError`, not here.
 * A request is one row, naming every student it concerned. A read without a caller (a
 * route with `tokenless`) is counted into its address's row of the minute (decisions §16).
 * A write's row goes into the job of the write queue that makes its change (ChangeRow).
 */
export const auditRoutes = (options: { trail: AuditTrail; auth: AuthService; clientAddress: (request: Request) => string }) => {
  const { trail, auth, clientAddress } = options;
  const before = new WeakMap<Request, string | null>();
  /** What a request did, to which students, and whether it was a read; null when it leaves no row (a student's own read, an empty page). */
  const eventOf = (rule: AuditRule, hooked: Hooked, answer: unknown): { event: AuditEvent; students: readonly string[]; reading: boolean } | null => {
    const { principal } = hooked;
    const request: AuditedRequest = { principal, params: hooked.params, query: hooked.query, body: hooked.body, answer };
    const action = typeof rule.action === "function" ? rule.action(request) : rule.action;
    const found = rule.students ? rule.students(request) : (before.get(hooked.request) ?? null);
    // null: the request concerns no one student (an aggregate), and leaves a row naming none.
    const named = found === null ? null : typeof found === "string" ? [found] : found;
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
  /** A row the request leaves: a read's noted, a write's recorded. */
  const leave = (done: { event: AuditEvent; students: readonly string[]; reading: boolean }) =>
    done.reading ? trail.note(done.event, done.students) : trail.record({ ...done.event, students: done.students });

  return new Elysia({ name: "audit-routes", seed: auth.instanceId }).macro({
    audit(rule: AuditRule) {
      const remember = (hooked: Hooked) => {
        if (rule.studentsBefore) before.set(hooked.request, rule.studentsBefore(hooked.params));
      };
      // A read notes its row synchronously: an async hook would cost every read a promise,
      // and reads wait for nothing (decisions: Audit trail).
      if (typeof rule.action === "string" && readActions.has(rule.action)) {
        return {
          ...(rule.studentsBefore && { beforeHandle: (context: unknown) => remember(context as Hooked) }),
          afterHandle(context: unknown) {
            const hooked = context as Hooked;
            if (!succeeded(hooked)) return;
            const done = eventOf(rule, hooked, hooked.responseValue);
            if (!done) return;
            if (hooked.principal === undefined && done.students.length === 1) trail.noteAnonymous(done.event, done.students[0]!);
            else trail.note(done.event, done.students);
          },
        };
      }
      return {
        beforeHandle(context: unknown) {
          const hooked = context as Hooked;
          remember(hooked);
          currentChangeRow()?.expect((changed) => {
            const done = eventOf(rule, hooked, changed);
            if (!done) return null;
            if (done.reading) {
              trail.note(done.event, done.students);
              return null;
            }
            return { ...done.event, students: done.students };
          });
        },
        async afterHandle(context: unknown) {
          const hooked = context as Hooked;
          // Written with the change: nothing more. A later job of the request takes no row.
          if (currentChangeRow()?.close()) return;
          if (!succeeded(hooked)) return;
          const done = eventOf(rule, hooked, hooked.responseValue);
          if (done) await leave(done);
        },
      };
    },
  });
};

export type AuditRoutes = ReturnType<typeof auditRoutes>;
