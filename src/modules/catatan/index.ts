import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import { bearer, jsonBody, queryParameters, reading, refusal, refusals, writing } from "../../http/documentation";
import { auditStudents } from "../../http/audit";
import { access, type RouteGuards } from "../../http/guards";
import { CatatanRecord } from "../../records";
import type { Principal } from "../../requests/principal";
import { CatatanBody, CatatanCreated, CatatanList, CatatanQuery, ReplyBody, ReplyResponse } from "./model";
import type { AppContext } from "../../context";
import { catatanMessages, CatatanService } from "./service";

const unknownNote = { status: 404, when: "no note has this id" };

/** What a student's reply may meet, the first as its edit. */
const replyRefusals = (onlyStudents: string) =>
  refusals(
    { status: 400, when: "the reply is empty or too long; POST when a reply exists; PUT when none does" },
    refusal.accessToken,
    { status: 403, when: `the caller is not a student (\`${onlyStudents}\`), or the note is another student's` },
    unknownNote,
    refusal.bodyTooLarge,
    refusal.fairUse,
    writing,
  );

/** Counselling notes from both sides: lecturers write and list them, students read and reply. */
export function catatanModule(core: AppContext, guards: RouteGuards) {
  const notes = new CatatanService(core.db, core.writes, core.scope, core.restriction);
  return { notes, routes: catatanRoutes(guards, notes) };
}

const catatanRoutes = (guards: RouteGuards, notes: CatatanService) =>
  new Elysia({ tags: ["notes"] })
    .use(guards)
    .post("/api/dosen/catatan", async ({ principal, body, set }) => {
      const created = await notes.create(principal, body as JsonObject);
      set.status = 201;
      return created;
    }, {
      access: access.dosenOrAdmin,
      response: {
        201: CatatanCreated,
        ...refusals(
          { status: 400, when: "`NIM` or `isi_catatan` is missing or too long; an admin gives no `NIP`" },
          refusal.accessToken,
          refusal.role,
          refusal.notAdvisee,
          { status: 404, when: "the student, or the admin's lecturer, does not exist" },
          refusal.bodyTooLarge,
          writing,
        ),
      },
      detail: { summary: "Write a counselling note for an advisee (admin names the author NIP)", security: bearer, requestBody: jsonBody(CatatanBody) },
      audit: { action: "create", students: auditStudents.body },
    })
    .get("/api/dosen/catatan/:nim", ({ principal, params }) => notes.openedByLecturer(principal, params.nim), {
      access: access.dosenOrAdmin,
      // Decisions §19: a note's author keeps reading the notes they wrote to the student.
      advisee: { unknownStudent: catatanMessages.studentUnknown, alsoAdmits: (principal: Principal, nim: string) => notes.wroteTo(principal, nim) },
      restriction: "staff",
      response: {
        200: CatatanList,
        ...refusals(
          refusal.accessToken,
          refusal.role,
          { status: 403, when: "a lecturer names a student they neither advise nor handle an open case of, and wrote no note to" },
          refusal.restricted,
          refusal.studentUnknown,
          reading,
        ),
      },
      detail: {
        summary: "A student's counselling notes, newest first (a lecturer who no longer advises the student nor handles their case: only the notes they wrote)",
        security: bearer,
      },
      audit: { action: "view", students: auditStudents.path },
    })
    .get("/api/mahasiswa/catatan", ({ principal, query }) => notes.list(principal, query), {
      access: access.mahasiswaOrAdmin,
      response: {
        200: CatatanList,
        ...refusals({ status: 400, when: "an admin gives no `nim`" }, refusal.accessToken, refusal.role, refusal.studentUnknown, reading),
      },
      detail: { summary: "The student's counselling notes, newest first", security: bearer, parameters: queryParameters(CatatanQuery) },
      audit: { action: "view", students: auditStudents.ownOrQuery },
    })
    .get("/api/mahasiswa/catatan/detail/:id_catatan", ({ principal, params }) => notes.detail(principal, params.id_catatan), {
      access: access.any,
      response: {
        200: CatatanRecord,
        ...refusals(refusal.accessToken, { status: 403, when: "a student's note is another student's, a lecturer's another lecturer's" }, unknownNote, reading),
      },
      detail: { summary: "One counselling note (own notes for students, own NIP for lecturers)", security: bearer },
      audit: { action: "view", students: auditStudents.answer },
    })
    .post("/api/mahasiswa/catatan/:id_catatan/reply", ({ principal, params, body }) => notes.reply(principal, params.id_catatan, body as JsonObject, "first"), {
      access: access.mahasiswaOnly(catatanMessages.replyOnlyStudents),
      studentWrite: true,
      response: { 200: ReplyResponse, ...replyRefusals(catatanMessages.replyOnlyStudents) },
      detail: { summary: "The student's first reply to a note", security: bearer, requestBody: jsonBody(ReplyBody) },
      audit: { action: "create", students: auditStudents.caller },
    })
    .put("/api/mahasiswa/catatan/:id_catatan/reply", ({ principal, params, body }) => notes.reply(principal, params.id_catatan, body as JsonObject, "edit"), {
      access: access.mahasiswaOnly(catatanMessages.editOnlyStudents),
      studentWrite: true,
      response: { 200: ReplyResponse, ...replyRefusals(catatanMessages.editOnlyStudents) },
      detail: { summary: "Replace the student's reply to a note", security: bearer, requestBody: jsonBody(ReplyBody) },
      audit: { action: "update", students: auditStudents.caller },
    });
