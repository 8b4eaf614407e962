import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import { MessageResponse, bearer, described, jsonBody, reading, refusal, refusals, writing } from "../../http/documentation";
import { auditStudents, type AuditRule } from "../../http/audit";
import { access, type RouteGuards } from "../../http/guards";
import { MoodEntry } from "../../records";
import { MoodCreateBody, MoodList, MoodUpdateBody } from "./model";
import { moodMessages, type MoodService } from "./service";

/** What a student's own mood entry routes may meet, besides the token and the storage. */
const unknownEntry = { status: 404, when: "no mood entry has this id" };
const othersEntry = { status: 403, when: "a student names another student's entry" };

/** A new date's entry is created; an existing one's value replaced (the change returns `{ created, entry }`). */
const recordedMood: AuditRule = {
  action: ({ answer }) => ((answer as { created?: boolean }).created ? "create" : "update"),
  students: auditStudents.answer,
};

/** The entry is gone once the handler ran: its student is read before. */
const removedEntry = (mood: MoodService): AuditRule => ({ action: "delete", studentsBefore: (params) => mood.ownerOf(params.id!) });

/** The student's daily mood entries, one per date. */
export const moodController = (guards: RouteGuards, mood: MoodService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["mood"] })
    .use(guards)
    .post("/mood", async ({ principal, body, set }) => {
      const { created, entry } = await mood.record(principal, body as JsonObject);
      set.status = created ? 201 : 200;
      return entry;
    }, {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: {
        200: described(MoodEntry, "the date's entry existed: its value is replaced"),
        201: described(MoodEntry, "a new entry for the date"),
        ...refusals(
          { status: 400, when: "an admin gives no `nim`, or `date` or `mood_value` is missing or breaks its rule" },
          refusal.accessToken,
          refusal.role,
          refusal.studentUnknown,
          refusal.bodyTooLarge,
          refusal.fairUse,
          writing,
        ),
      },
      detail: {
        summary: "Record the day's mood: 201 when new, 200 when the date's entry is replaced",
        security: bearer,
        requestBody: jsonBody(MoodCreateBody),
      },
      audit: recordedMood,
    })
    .get("/mood/:nim", ({ params }) => mood.list(params.nim), {
      access: access.any,
      ownNim: true,
      advisee: { unknownStudent: moodMessages.studentUnknown },
      restriction: "staff",
      response: { 200: MoodList, ...refusals(refusal.accessToken, refusal.ownNim, refusal.notAdvisee, refusal.restricted, refusal.studentUnknown, reading) },
      detail: { summary: "The student's mood entries, newest date first", security: bearer },
      audit: { action: "view", students: auditStudents.path },
    })
    .put("/mood/:id", ({ principal, params, body }) => mood.update(principal, params.id, body as JsonObject), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: {
        200: MoodEntry,
        ...refusals(
          { status: 400, when: "`mood_value` or `date` breaks its rule" },
          refusal.accessToken,
          refusal.role,
          othersEntry,
          unknownEntry,
          { status: 409, when: "another entry of the student already has that date" },
          refusal.bodyTooLarge,
          refusal.fairUse,
          writing,
        ),
      },
      detail: { summary: "Change a mood entry's value or date", security: bearer, requestBody: jsonBody(MoodUpdateBody) },
      audit: { action: "update", students: auditStudents.answer },
    })
    .delete("/mood/:id", ({ principal, params }) => mood.remove(principal, params.id), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: { 200: MessageResponse, ...refusals(refusal.accessToken, refusal.role, othersEntry, unknownEntry, refusal.fairUse, writing) },
      detail: { summary: "Delete a mood entry", security: bearer },
      audit: removedEntry(mood),
    });
