import { Elysia } from "elysia";
import type { JsonObject } from "../../http/body";
import { ErrorResponse, MessageResponse, bearer, errorResponses } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import { MoodEntry } from "../../records";
import { MoodCreateBody, MoodList, MoodUpdateBody } from "./model";
import { moodMessages, type MoodService } from "./service";

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
      body: MoodCreateBody,
      response: { 200: MoodEntry, 201: MoodEntry, ...errorResponses },
      detail: { summary: "Record the day's mood: 201 when new, 200 when the date's entry is replaced", security: bearer },
    })
    .get("/mood/:nim", ({ params }) => mood.list(params.nim), {
      access: access.any,
      ownNim: true,
      advisee: { unknownStudent: moodMessages.studentUnknown },
      response: { 200: MoodList, ...errorResponses },
      detail: { summary: "The student's mood entries, newest date first", security: bearer },
    })
    .put("/mood/:id", ({ principal, params, body }) => mood.update(principal, params.id, body as JsonObject), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      body: MoodUpdateBody,
      response: { 200: MoodEntry, ...errorResponses, 409: ErrorResponse },
      detail: { summary: "Change a mood entry's value or date", security: bearer },
    })
    .delete("/mood/:id", ({ principal, params }) => mood.remove(principal, params.id), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: { 200: MessageResponse, ...errorResponses },
      detail: { summary: "Delete a mood entry", security: bearer },
    });
