import { Elysia } from "elysia";
import type { JsonObject } from "../../http/body";
import { access, authGuard } from "../../http/guards";
import { ErrorResponse } from "../auth/model";
import type { AuthService } from "../auth/service";
import { CatatanList } from "../catatan/model";
import { CatatanBody, CatatanCreated, NipQuery, StatistikResponse, StudentDetail, StudentList, StudentsQuery } from "./model";
import type { DosenService } from "./service";

const bearer = [{ bearer: [] }];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

export const dosenController = (auth: AuthService, dosen: DosenService) =>
  new Elysia({ prefix: "/api/dosen", tags: ["dosen"] })
    .use(authGuard(auth))
    .get("/mahasiswa", ({ principal, query }) => dosen.students(principal, query), {
      access: access.dosenOrAdmin,
      query: StudentsQuery,
      response: { 200: StudentList, ...errors },
      detail: { summary: "Advisees with their latest screening and early warning, paginated", security: bearer },
    })
    .get("/mahasiswa/:nim", ({ principal, params }) => dosen.student(principal, params.nim), {
      access: access.dosenOrAdmin,
      response: { 200: StudentDetail, ...errors },
      detail: { summary: "One student with all screenings and notes, newest first", security: bearer },
    })
    .get("/statistik", ({ principal, query }) => dosen.statistik(principal, query), {
      access: access.dosenOrAdmin,
      query: NipQuery,
      response: { 200: StatistikResponse, ...errors },
      detail: { summary: "Counts by each advisee's latest screening, and a 12-week trend", security: bearer },
    })
    .post("/catatan", async ({ principal, body, set }) => {
      const created = await dosen.createNote(principal, body as JsonObject);
      set.status = 201;
      return created;
    }, {
      access: access.dosenOrAdmin,
      body: CatatanBody,
      response: { 201: CatatanCreated, ...errors },
      detail: { summary: "Write a counselling note for an advisee (admin names the author NIP)", security: bearer },
    })
    .get("/catatan/:nim", ({ principal, params }) => dosen.notes(principal, params.nim), {
      access: access.dosenOrAdmin,
      response: { 200: CatatanList, ...errors },
      detail: { summary: "A student's counselling notes, newest first", security: bearer },
    });
