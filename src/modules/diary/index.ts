import { Elysia } from "elysia";
import type { JsonObject } from "../../http/body";
import { MessageResponse, bearer, errorResponses } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import { DiaryEntry } from "../../records";
import { DiaryCreateBody, DiaryList, DiaryUpdateBody } from "./model";
import { diaryMessages, type DiaryService } from "./service";

/** The student's diary entries, any number per date. */
export const diaryController = (guards: RouteGuards, diary: DiaryService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["diary"] })
    .use(guards)
    .post("/diary", async ({ principal, body, set }) => {
      const entry = await diary.create(principal, body as JsonObject);
      set.status = 201;
      return entry;
    }, {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      body: DiaryCreateBody,
      response: { 201: DiaryEntry, ...errorResponses },
      detail: { summary: "Write a diary entry", security: bearer },
    })
    .get("/diary/:nim", ({ params }) => diary.list(params.nim), {
      access: access.any,
      ownNim: true,
      advisee: { unknownStudent: diaryMessages.studentUnknown },
      response: { 200: DiaryList, ...errorResponses },
      detail: { summary: "The student's diary entries, newest date first", security: bearer },
    })
    .put("/diary/:id", ({ principal, params, body }) => diary.update(principal, params.id, body as JsonObject), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      body: DiaryUpdateBody,
      response: { 200: DiaryEntry, ...errorResponses },
      detail: { summary: "Change a diary entry's title, content or date", security: bearer },
    })
    .delete("/diary/:id", ({ principal, params }) => diary.remove(principal, params.id), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: { 200: MessageResponse, ...errorResponses },
      detail: { summary: "Delete a diary entry", security: bearer },
    });
