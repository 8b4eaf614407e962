import { Elysia } from "elysia";
import type { JsonObject } from "../../http/body";
import { bearer, errorResponses } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import { CatatanRecord } from "../../records";
import { CatatanBody, CatatanCreated, CatatanList, CatatanQuery, ReplyBody, ReplyResponse } from "./model";
import { notesMessages, type NotesService } from "./service";

/** Counselling notes from both sides: lecturers write and list them, students read and reply. */
export const notesController = (guards: RouteGuards, notes: NotesService) =>
  new Elysia({ tags: ["notes"] })
    .use(guards)
    .post("/api/dosen/catatan", async ({ principal, body, set }) => {
      const created = await notes.create(principal, body as JsonObject);
      set.status = 201;
      return created;
    }, {
      access: access.dosenOrAdmin,
      body: CatatanBody,
      response: { 201: CatatanCreated, ...errorResponses },
      detail: { summary: "Write a counselling note for an advisee (admin names the author NIP)", security: bearer },
    })
    .get("/api/dosen/catatan/:nim", ({ params }) => notes.ofStudent(params.nim), {
      access: access.dosenOrAdmin,
      advisee: { unknownStudent: notesMessages.studentUnknown },
      response: { 200: CatatanList, ...errorResponses },
      detail: { summary: "A student's counselling notes, newest first", security: bearer },
    })
    .get("/api/mahasiswa/catatan", ({ principal, query }) => notes.list(principal, query), {
      access: access.mahasiswaOrAdmin,
      query: CatatanQuery,
      response: { 200: CatatanList, ...errorResponses },
      detail: { summary: "The student's counselling notes, newest first", security: bearer },
    })
    .get("/api/mahasiswa/catatan/detail/:id_catatan", ({ principal, params }) => notes.detail(principal, params.id_catatan), {
      access: access.any,
      response: { 200: CatatanRecord, ...errorResponses },
      detail: { summary: "One counselling note (own notes for students, own NIP for lecturers)", security: bearer },
    })
    .post("/api/mahasiswa/catatan/:id_catatan/reply", ({ principal, params, body }) => notes.reply(principal, params.id_catatan, body as JsonObject, "first"), {
      access: access.mahasiswaOnly(notesMessages.replyOnlyStudents),
      studentWrite: true,
      body: ReplyBody,
      response: { 200: ReplyResponse, ...errorResponses },
      detail: { summary: "The student's first reply to a note", security: bearer },
    })
    .put("/api/mahasiswa/catatan/:id_catatan/reply", ({ principal, params, body }) => notes.reply(principal, params.id_catatan, body as JsonObject, "edit"), {
      access: access.mahasiswaOnly(notesMessages.editOnlyStudents),
      studentWrite: true,
      body: ReplyBody,
      response: { 200: ReplyResponse, ...errorResponses },
      detail: { summary: "Replace the student's reply to a note", security: bearer },
    });
