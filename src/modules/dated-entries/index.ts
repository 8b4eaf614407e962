import type { TSchema } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { MessageResponse, bearer, reading, refusal, refusals, writing } from "../../http/documentation";
import { auditStudents, type AuditRule } from "../../http/audit";
import { access, type RouteGuards } from "../../http/guards";
import type { Principal } from "../../requests/principal";

/** How a kind of entry (mood, diary) names itself in the routes it shares with the other. */
export interface DatedEntryKind {
  /** The path after `/api/mahasiswa`: `mood`, `diary`. */
  path: string;
  /** The entry in the document's words: "mood", "diary". */
  noun: string;
  /** The list's schema (an array of the kind's entries). */
  list: TSchema;
  /** The 404 text for an unknown student, checked before the lecturer's scope. */
  studentUnknown: string;
}

/** What the shared routes ask of a kind's service (src/modules/dated-entries/service.ts gives it). */
interface EntryService {
  list(nim: string, reader: Principal): unknown[];
  remove(principal: Principal, rawId: string): Promise<{ message: string }>;
  ownerOf(rawId: string): string | null;
}

/** What a student's own entry routes may meet, besides the token and the storage. */
export const entryRefusals = (kind: { noun: string }) => ({
  unknownEntry: { status: 404, when: `no ${kind.noun} entry has this id` },
  othersEntry: { status: 403, when: "a student names another student's entry" },
});

/**
 * `GET /<path>/:nim`: a student's entries, newest date first. The controller that uses it
 * gives the rest of the path (`/api/mahasiswa`) and the tag. Any role: a student their own,
 * a lecturer their advisees' (404 for an unknown student first), staff not while the
 * student's processing is restricted.
 */
export const entryListRoute = (guards: RouteGuards, kind: DatedEntryKind, entries: EntryService) =>
  new Elysia({ prefix: `/${kind.path}` }).use(guards).get("/:nim", ({ params, principal }) => entries.list(params.nim, principal), {
    access: access.any,
    ownNim: true,
    advisee: { unknownStudent: kind.studentUnknown },
    restriction: "staff",
    response: { 200: kind.list, ...refusals(refusal.accessToken, refusal.ownNim, refusal.notAdvisee, refusal.restricted, refusal.studentUnknown, reading) },
    detail: { summary: `The student's ${kind.noun} entries, newest date first`, security: bearer },
    audit: { action: "view", students: auditStudents.path },
  });

/** `DELETE /<path>/:id`: the entry's student or an admin deletes it; its student is read before, as the entry is gone after. */
export const entryDeleteRoute = (guards: RouteGuards, kind: DatedEntryKind, entries: EntryService) => {
  const { unknownEntry, othersEntry } = entryRefusals(kind);
  const removed: AuditRule = { action: "delete", studentsBefore: (params) => entries.ownerOf(params.id!) };
  return new Elysia({ prefix: `/${kind.path}` }).use(guards).delete("/:id", ({ principal, params }) => entries.remove(principal, params.id), {
    access: access.mahasiswaOrAdmin,
    studentWrite: true,
    response: { 200: MessageResponse, ...refusals(refusal.accessToken, refusal.role, othersEntry, unknownEntry, refusal.fairUse, writing) },
    detail: { summary: `Delete a ${kind.noun} entry`, security: bearer },
    audit: removed,
  });
};
