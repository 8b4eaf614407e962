import { Elysia } from "elysia";
import type { JsonObject } from "../../http/body";
import { access, authGuard } from "../../http/guards";
import { ErrorResponse, MessageResponse } from "../auth/model";
import type { AuthService } from "../auth/service";
import { DiaryCreateBody, DiaryEntry, DiaryList, DiaryUpdateBody } from "./model";
import type { DiaryService } from "./service";

const bearer = [{ bearer: [] }];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** The student's diary entries, any number per date. */
export const diaryController = (auth: AuthService, diary: DiaryService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["mahasiswa"] })
    .use(authGuard(auth))
    .post("/diary", async ({ principal, body, set }) => {
      const entry = await diary.create(principal, body as JsonObject);
      set.status = 201;
      return entry;
    }, {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      body: DiaryCreateBody,
      response: { 201: DiaryEntry, ...errors },
      detail: { summary: "Write a diary entry", security: bearer },
    })
    .get("/diary/:nim", ({ principal, params }) => diary.list(principal, params.nim), {
      access: access.any,
      response: { 200: DiaryList, ...errors },
      detail: { summary: "The student's diary entries, newest date first", security: bearer },
    })
    .put("/diary/:id", ({ principal, params, body }) => diary.update(principal, params.id, body as JsonObject), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      body: DiaryUpdateBody,
      response: { 200: DiaryEntry, ...errors },
      detail: { summary: "Change a diary entry's title, content or date", security: bearer },
    })
    .delete("/diary/:id", ({ principal, params }) => diary.remove(principal, params.id), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: { 200: MessageResponse, ...errors },
      detail: { summary: "Delete a diary entry", security: bearer },
    });
