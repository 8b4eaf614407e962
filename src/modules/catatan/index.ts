import { Elysia } from "elysia";
import type { JsonObject } from "../../http/body";
import { access, authGuard } from "../../http/guards";
import { ErrorResponse } from "../auth/model";
import type { AuthService } from "../auth/service";
import { CatatanList, CatatanQuery, CatatanRecord, ReplyBody, ReplyResponse } from "./model";
import { catatanMessages, type CatatanService } from "./service";

const bearer = [{ bearer: [] }];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** The student's side of the counselling notes (lecturers write them under `/api/dosen`). */
export const catatanController = (auth: AuthService, catatan: CatatanService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["mahasiswa"] })
    .use(authGuard(auth))
    .get("/catatan", ({ principal, query }) => catatan.list(principal, query), {
      access: access.mahasiswaOrAdmin,
      query: CatatanQuery,
      response: { 200: CatatanList, ...errors },
      detail: { summary: "The student's counselling notes, newest first", security: bearer },
    })
    .get("/catatan/detail/:id_catatan", ({ principal, params }) => catatan.detail(principal, params.id_catatan), {
      access: access.any,
      response: { 200: CatatanRecord, ...errors },
      detail: { summary: "One counselling note (own notes for students, own NIP for lecturers)", security: bearer },
    })
    .post("/catatan/:id_catatan/reply", ({ principal, params, body }) => catatan.reply(principal, params.id_catatan, body as JsonObject, "first"), {
      access: access.mahasiswaOnly(catatanMessages.replyOnlyStudents),
      studentWrite: true,
      body: ReplyBody,
      response: { 200: ReplyResponse, ...errors },
      detail: { summary: "The student's first reply to a note", security: bearer },
    })
    .put("/catatan/:id_catatan/reply", ({ principal, params, body }) => catatan.reply(principal, params.id_catatan, body as JsonObject, "edit"), {
      access: access.mahasiswaOnly(catatanMessages.editOnlyStudents),
      studentWrite: true,
      body: ReplyBody,
      response: { 200: ReplyResponse, ...errors },
      detail: { summary: "Replace the student's reply to a note", security: bearer },
    });
