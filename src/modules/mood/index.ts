import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import { bearer, described, jsonBody, refusal, studentWriteRefusals } from "../../http/documentation";
import { auditStudents, type AuditRule } from "../../http/audit";
import { access, type RouteGuards } from "../../http/guards";
import { MoodEntry } from "../../records";
import { entryDeleteRoute, entryListRoute, entryRefusals, type DatedEntryKind } from "../dated-entries";
import { MoodCreateBody, MoodList, MoodUpdateBody } from "./model";
import type { AppContext } from "../../context";
import { moodMessages, MoodService } from "./service";

/** The routes the mood log shares with the diary: its list and the delete. */
const kind: DatedEntryKind = { path: "mood", noun: "mood", list: MoodList, studentUnknown: moodMessages.studentUnknown };
const { unknownEntry, othersEntry } = entryRefusals(kind);

/** A new date's entry is created; an existing one's value replaced (the change returns `{ created, entry }`). */
const recordedMood: AuditRule = {
  action: ({ answer }) => ((answer as { created?: boolean }).created ? "create" : "update"),
  students: auditStudents.answer,
};

/** The student's daily mood entries, one per date. */
export function moodModule(core: AppContext, guards: RouteGuards) {
  const mood = new MoodService(core.db, core.writes, core.restriction);
  return { mood, routes: moodRoutes(guards, mood) };
}

const moodRoutes = (guards: RouteGuards, mood: MoodService) =>
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
        ...studentWriteRefusals(
          { status: 400, when: "an admin gives no `nim`, or `date` or `mood_value` is missing or breaks its rule" },
          refusal.studentUnknown,
        ),
      },
      detail: {
        summary: "Record the day's mood: 201 when new, 200 when the date's entry is replaced",
        security: bearer,
        requestBody: jsonBody(MoodCreateBody),
      },
      audit: recordedMood,
    })
    .use(entryListRoute(guards, kind, mood))
    .put("/mood/:id", ({ principal, params, body }) => mood.update(principal, params.id, body as JsonObject), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: {
        200: MoodEntry,
        ...studentWriteRefusals(
          { status: 400, when: "`mood_value` or `date` breaks its rule" },
          othersEntry,
          unknownEntry,
          { status: 409, when: "another entry of the student already has that date" },
        ),
      },
      detail: { summary: "Change a mood entry's value or date", security: bearer, requestBody: jsonBody(MoodUpdateBody) },
      audit: { action: "update", students: auditStudents.answer },
    })
    .use(entryDeleteRoute(guards, kind, mood));
