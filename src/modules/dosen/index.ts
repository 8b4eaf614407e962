import { Elysia } from "elysia";
import { bearer, queryParameters, reading, refusal, refusals } from "../../http/documentation";
import { auditStudents, type AuditRule } from "../../http/audit";
import { access, type RouteGuards } from "../../http/guards";
import { cachedJson } from "../../http/json-answer";
import { LecturerList, NipQuery, StatistikResponse, StudentDetail, StudentList, StudentsQuery } from "./model";
import { dosenMessages, type DosenService } from "./service";

/** Aggregates of one lecturer's advisees: one row without a student, naming whose advisees were counted. */
const statisticsViewed: AuditRule = {
  action: "view",
  students: auditStudents.none,
  detail: ({ principal, query }) => {
    const nip = principal?.role === "dosen" ? principal.nip : query.NIP?.trim();
    return nip ? `NIP ${nip}` : null;
  },
};

// Pages and statistics are kept in read caches; their answers are sent as the text made once.
const pageAnswer = cachedJson(StudentList);
const statistikAnswer = cachedJson(StatistikResponse);

/** An advisor's view: their advisees, one advisee in full, and the statistics. */
export const dosenController = (guards: RouteGuards, dosen: DosenService) =>
  new Elysia({ prefix: "/api/dosen", tags: ["dosen"] })
    .use(guards)
    .get("/mahasiswa", ({ principal, query, set }) => pageAnswer(dosen.students(principal, query), set), {
      access: access.dosenOrAdmin,
      response: { 200: StudentList, ...refusals(refusal.accessToken, refusal.role, reading) },
      detail: {
        summary: "Advisees with their latest screening and early warning, paginated",
        security: bearer,
        parameters: queryParameters(StudentsQuery),
      },
      // One row per student on the page answered: each was seen.
      audit: { action: "view", students: auditStudents.page },
    })
    .get("/mahasiswa/:nim", ({ principal, params }) => dosen.student(principal, params.nim), {
      access: access.dosenOrAdmin,
      advisee: { unknownStudent: dosenMessages.studentUnknown },
      response: { 200: StudentDetail, ...refusals(refusal.accessToken, refusal.role, refusal.notAdvisee, refusal.studentUnknown, reading) },
      detail: { summary: "One student with all screenings and notes, newest first", security: bearer },
      audit: { action: "view", students: auditStudents.path },
    })
    .get("/daftar", () => dosen.lecturers(), {
      access: access.adminOnly,
      response: { 200: LecturerList, ...refusals(refusal.accessToken, refusal.role, reading) },
      detail: { summary: "Every lecturer with the number of advisees (admin only: to act as a lecturer with `NIP`)", security: bearer },
    })
    .get("/statistik", ({ principal, query, set }) => statistikAnswer(dosen.statistik(principal, query), set), {
      access: access.dosenOrAdmin,
      response: { 200: StatistikResponse, ...refusals(refusal.accessToken, refusal.role, reading) },
      detail: { summary: "Counts by each advisee's latest screening, and a 12-week trend", security: bearer, parameters: queryParameters(NipQuery) },
      audit: statisticsViewed,
    });
