import type { TObject, TSchema } from "@sinclair/typebox";
import { t } from "elysia";

// Pieces every controller's OpenAPI description shares.

/** Every error body is `{"error": ...}`; the weekly limit's has keys of its own (WeeklyLimitResponse). */
export const ErrorResponse = t.Object({ error: t.String({ description: "what went wrong, in Indonesian" }) }, { additionalProperties: false });

export const MessageResponse = t.Object({ message: t.String() }, { additionalProperties: false });

/** A calendar date in a request body, read by `readCalendarDate` (src/requests/values.ts). */
export const calendarDate = (description: string) => t.String({ format: "date", description: `YYYY-MM-DD, a day that exists; ${description}` });

/** A success answer's schema with what the status means (the response's description in the document). */
export const described = <Schema extends TSchema>(schema: Schema, description: string): Schema => ({ ...schema, description });

/** The routes that need a token say so in the OpenAPI document. */
export const bearer = [{ bearer: [] }];

/**
 * One reason a route may refuse a request: the status, when it happens (the response's
 * description in the document) and the body when it is not ErrorResponse.
 */
export interface Refusal {
  status: number;
  when: string;
  body?: TSchema;
}

/** The refusals most routes share, each written once; a route's own rules name their own reasons. */
export const refusal = {
  bodyTooLarge: { status: 413, when: "the body is larger than the service reads" },
  accessToken: { status: 401, when: "no access token, or one that is invalid, expired or of an ended session" },
  role: { status: 403, when: "the caller's role may not use this route (`Akses ditolak.` or the role's own text)" },
  ownNim: { status: 403, when: "a student names another student's NIM" },
  notAdvisee: { status: 403, when: "a lecturer names a student they do not advise" },
  restricted: { status: 403, when: "a lecturer or an admin names a student whose processing is restricted (`privacy restrict`)" },
  studentUnknown: { status: 404, when: "the student does not exist" },
  fairUse: { status: 429, when: "a student's writes exceed the fair-use limit; `Retry-After` gives the seconds to wait" },
  loginThrottle: { status: 429, when: "too many failed attempts for this username or address; `Retry-After` gives the seconds to wait" },
  storage: { status: 503, when: "the database cannot be used now (locked by another program, read-only, damaged or failing); `Retry-After`" },
  storageFull: { status: 507, when: "no space is left to store data; `Retry-After`" },
} satisfies Record<string, Refusal>;

/** What a route that only reads may meet, and what one that writes may meet besides. */
export const reading: Refusal[] = [refusal.storage];
export const writing: Refusal[] = [refusal.storage, refusal.storageFull];

/**
 * A route's error answers for its `response` option: one per status, described by every
 * reason that leads to it, with the body those reasons answer (a union when they differ).
 */
export function refusals(...reasons: (Refusal | Refusal[])[]): Record<number, TSchema> {
  const byStatus = new Map<number, { whens: string[]; bodies: TSchema[] }>();
  for (const reason of reasons.flat()) {
    const entry = byStatus.get(reason.status) ?? { whens: [], bodies: [] };
    if (!entry.whens.includes(reason.when)) entry.whens.push(reason.when);
    const body = reason.body ?? ErrorResponse;
    if (!entry.bodies.includes(body)) entry.bodies.push(body);
    byStatus.set(reason.status, entry);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, { whens, bodies }] of [...byStatus].sort(([a], [b]) => a - b)) {
    const description = whens.join("; ");
    // A copy carries the description, so that the shared body schemas stay untouched.
    responses[status] = bodies.length === 1 ? { ...bodies[0]!, description } : t.Union(bodies, { description });
  }
  return responses;
}

/**
 * A student's write (or an admin's for a student): its own refusals among those every such
 * write has (no token, the role, a body too large, the fair-use limit, storage).
 */
export const studentWriteRefusals = (...own: Refusal[]) => refusals(refusal.accessToken, refusal.role, ...own, refusal.bodyTooLarge, refusal.fairUse, writing);

/**
 * A JSON request body for the OpenAPI document, given as the route's `detail.requestBody`.
 * Bodies are parsed leniently and checked by the services with the interface's own texts
 * and order (src/http/body.ts), so the schema documents the contract but does not validate:
 * a route that declared it as `body` would answer a bad body with Elysia's error instead.
 */
export function jsonBody(schema: TObject) {
  return { required: (schema.required?.length ?? 0) > 0, content: { "application/json": { schema } } };
}

/**
 * The query parameters for the OpenAPI document, given as the route's `detail.parameters`,
 * for the same reason as `jsonBody`: a missing parameter is answered by the service's text.
 * Only for routes without path parameters: the plugin replaces these by the path's.
 */
export function queryParameters(schema: TObject) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, { description, ...property }]) => ({
    name,
    in: "query" as const,
    required: required.has(name),
    description: description as string | undefined,
    schema: property,
  }));
}

/** Error answers as OpenAPI response objects, for a route that describes its answers in `detail.responses`. */
export function responseObjects(responses: Record<number, TSchema>) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, schema]) => [status, { description: schema.description ?? "", content: { "application/json": { schema } } }]),
  );
}
