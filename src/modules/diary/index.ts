import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import { MessageResponse, bearer, jsonBody, reading, refusal, refusals, writing } from "../../http/documentation";
import { auditStudents, type AuditRule } from "../../http/audit";
import { access, type RouteGuards } from "../../http/guards";
import { DiaryEntry } from "../../records";
import { DiaryCreateBody, DiaryList, DiaryUpdateBody } from "./model";
import { diaryMessages, type DiaryService } from "./service";

/** What a student's own diary entry routes may meet, besides the token and the storage. */
const unknownEntry = { status: 404, when: "no diary entry has this id" };
const othersEntry = { status: 403, when: "a student names another student's entry" };
const quotaFull = { status: 400, when: "the student's diary would exceed its quota" };

/** The entry is gone once the handler ran: its student is read before. */
const removedEntry = (diary: DiaryService): AuditRule => ({ action: "delete", studentsBefore: (params) => diary.ownerOf(params.id!) });

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
      response: {
        201: DiaryEntry,
        ...refusals(
          { status: 400, when: "an admin gives no `nim`, or `date` or `content` is missing or breaks its rule" },
          quotaFull,
          refusal.accessToken,
          refusal.role,
          refusal.studentUnknown,
          refusal.bodyTooLarge,
          refusal.fairUse,
          writing,
        ),
      },
      detail: { summary: "Write a diary entry", security: bearer, requestBody: jsonBody(DiaryCreateBody) },
      audit: { action: "create", students: auditStudents.answer },
    })
    .get("/diary/:nim", ({ params }) => diary.list(params.nim), {
      access: access.any,
      ownNim: true,
      advisee: { unknownStudent: diaryMessages.studentUnknown },
      restriction: "staff",
      response: { 200: DiaryList, ...refusals(refusal.accessToken, refusal.ownNim, refusal.notAdvisee, refusal.restricted, refusal.studentUnknown, reading) },
      detail: { summary: "The student's diary entries, newest date first", security: bearer },
      audit: { action: "view", students: auditStudents.path },
    })
    .put("/diary/:id", ({ principal, params, body }) => diary.update(principal, params.id, body as JsonObject), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: {
        200: DiaryEntry,
        ...refusals(
          { status: 400, when: "`content`, `title` or `date` breaks its rule" },
          quotaFull,
          refusal.accessToken,
          refusal.role,
          othersEntry,
          unknownEntry,
          refusal.bodyTooLarge,
          refusal.fairUse,
          writing,
        ),
      },
      detail: { summary: "Change a diary entry's title, content or date", security: bearer, requestBody: jsonBody(DiaryUpdateBody) },
      audit: { action: "update", students: auditStudents.answer },
    })
    .delete("/diary/:id", ({ principal, params }) => diary.remove(principal, params.id), {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: { 200: MessageResponse, ...refusals(refusal.accessToken, refusal.role, othersEntry, unknownEntry, refusal.fairUse, writing) },
      detail: { summary: "Delete a diary entry", security: bearer },
      audit: removedEntry(diary),
    });
