import { Elysia } from "elysia";
import type { JsonObject } from "../../http/body";
import { access, authGuard } from "../../http/guards";
import { ErrorResponse, MessageResponse } from "../auth/model";
import type { AuthService } from "../auth/service";
import { MoodCreateBody, MoodEntry, MoodList, MoodUpdateBody } from "./model";
import type { MoodService } from "./service";

const bearer = [{ bearer: [] }];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** The student's daily mood entries, one per date. */
export const moodController = (auth: AuthService, mood: MoodService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["mahasiswa"] })
    .use(authGuard(auth))
    .post("/mood", async ({ principal, body, set }) => {
      const { created, entry } = await mood.record(principal, body as JsonObject);
      set.status = created ? 201 : 200;
      return entry;
    }, {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      body: MoodCreateBody,
      response: { 200: MoodEntry, 201: MoodEntry, ...errors },
      detail: { summary: "Record the day's mood: 201 when new, 200 when the date's entry is replaced", security: bearer },
    })
    .get("/mood/:nim", ({ principal, params }) => mood.list(principal, params.nim), {
      access: access.any,
      response: { 200: MoodList, ...errors },
      detail: { summary: "The student's mood entries, newest date first", security: bearer },
    })
    .put("/mood/:id", ({ principal, params, body }) => mood.update(principal, params.id, body as JsonObject), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      body: MoodUpdateBody,
      response: { 200: MoodEntry, ...errors, 409: ErrorResponse },
      detail: { summary: "Change a mood entry's value or date", security: bearer },
    })
    .delete("/mood/:id", ({ principal, params }) => mood.remove(principal, params.id), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: { 200: MessageResponse, ...errors },
      detail: { summary: "Delete a mood entry", security: bearer },
    });
