import type { Principal } from "./principal";
import { invalid } from "../errors";

// Typed values read out of a request's body, query or path, the same for a route, a
// service and a command. The readers answer null for a value they do not accept, so that
// every route keeps its own error text and its own order of checks.

/** A request's body as the services read it: always a JSON object (src/http/body.ts makes anything else `{}`). */
export type JsonObject = Record<string, unknown>;

/** A value the client left out: absent, null or the empty string. */
export const isBlank = (value: unknown): boolean => value === undefined || value === null || value === "";

/**
 * A calendar date `YYYY-MM-DD` that exists in the Gregorian calendar (decisions §2):
 * `2024-02-29` is one, `2026-02-30` is not. Built from the digits rather than `Date`,
 * which rolls impossible days over and maps the years 0–99 onto 1900–1999.
 */
export function readCalendarDate(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return daysInMonth !== undefined && day >= 1 && day <= daysInMonth ? value : null;
}

/**
 * Whether a text is longer than `limit` characters as a person counts them: an emoji is
 * one character, not two UTF-16 units.
 */
export function exceedsCharacters(text: string, limit: number): boolean {
  // Code points never outnumber UTF-16 units, so short texts need no counting.
  if (text.length <= limit) return false;
  let count = 0;
  for (const _ of text) if (++count > limit) return true;
  return false;
}

/** A key (NIM, NIP) named in a body or a query: a trimmed string, or a number's digits; "" when absent. */
export function readKey(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return "";
}

/**
 * The student a request is about: a student's own NIM (null for an account without a
 * profile; the caller answers its own 404), or the NIM an admin (or any other role) must
 * name in `value`, the body's `NIM`/`nim` or the query's `nim` (else 400).
 */
export function requestedNim(principal: Principal, value: unknown): string | null {
  if (principal.role === "mahasiswa") return principal.nim;
  const nim = readKey(value);
  if (nim === "") throw invalid("NIM wajib disertakan oleh admin.");
  return nim;
}

/**
 * A path id as the routes that "look up by key" read it: decimal digits naming a positive
 * safe integer. Anything else cannot name a row, so the caller answers its 404.
 */
export function pathId(raw: string): number | null {
  if (!/^\d{1,15}$/.test(raw)) return null;
  const value = Number(raw);
  return value >= 1 ? value : null;
}
