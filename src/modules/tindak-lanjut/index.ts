import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import { bearer, jsonBody, queryParameters, reading, refusal, refusals, writing } from "../../http/documentation";
import { auditStudents, type AuditRule } from "../../http/audit";
import { access, type RouteGuards } from "../../http/guards";
import { TindakLanjutDetail, TindakLanjutList, TindakLanjutQuery, TindakLanjutSummary, OwnerBody, StatusBody } from "./model";
import type { AppContext } from "../../context";
import { CaseReader } from "./cases";
import { TindakLanjutFiguresReader } from "./figures";
import { TindakLanjutService } from "./service";

/** Aggregates: one row without a student, naming whose cases were counted. */
const summaryViewed: AuditRule = {
  action: "view",
  students: auditStudents.none,
  detail: ({ principal }) => (principal?.role === "dosen" ? `NIP ${principal.nip ?? "-"}` : "semua dosen"),
};

const unknownCase = { status: 404, when: "no case has this id" };
const notOwner = { status: 403, when: "a lecturer names a case they do not own (`Mahasiswa bukan bimbingan Anda.`)" };
const restrictedCase = { status: 403, when: "the case's student is restricted (`privacy restrict`)" };

/**
 * Follow-up cases: a lecturer's own, every case for an admin; status changes with a note,
 * reassignment by an admin. `cases` reads them for the lecturer's pages too (src/modules/dosen),
 * `figures` counts them for the console's statistics export too (src/modules/admin).
 */
export function tindakLanjutModule(core: AppContext, guards: RouteGuards) {
  const { db, writes, config } = core;
  const cases = new CaseReader(db, config.followUpContactDays);
  const figures = new TindakLanjutFiguresReader(db.$client, config.followUpContactDays);
  return { cases, figures, routes: tindakLanjutRoutes(guards, new TindakLanjutService(db, writes, figures, cases, core.scope)) };
}

const tindakLanjutRoutes = (guards: RouteGuards, cases: TindakLanjutService) =>
  new Elysia({ prefix: "/api/dosen/tindak-lanjut", tags: ["tindak lanjut"] })
    .use(guards)
    .get("", ({ principal, query }) => cases.list(principal, query), {
      access: access.dosenOrAdmin,
      response: {
        200: TindakLanjutList,
        ...refusals({ status: 400, when: "`status` names an unknown status, or `min_hari` is not a whole number of 0 or more" }, refusal.accessToken, refusal.role, reading),
      },
      detail: { summary: "The caller's follow-up cases (a lecturer's own, an admin's all), filtered and paginated", security: bearer, parameters: queryParameters(TindakLanjutQuery) },
      audit: { action: "view", students: auditStudents.page },
    })
    .get("/ringkasan", ({ principal }) => cases.ringkasan(principal), {
      access: access.dosenOrAdmin,
      response: { 200: TindakLanjutSummary, ...refusals(refusal.accessToken, refusal.role, reading) },
      detail: { summary: "Open cases, new cases, cases older than 7 days and median days to first contact, per lecturer and for the faculty", security: bearer },
      audit: summaryViewed,
    })
    .get("/:id", ({ principal, params }) => cases.detail(principal, params.id), {
      access: access.dosenOrAdmin,
      response: { 200: TindakLanjutDetail, ...refusals(refusal.accessToken, refusal.role, notOwner, restrictedCase, unknownCase, reading) },
      detail: { summary: "One case with its timeline and the student's last five screenings", security: bearer },
      audit: { action: "view", students: auditStudents.answer },
    })
    .post("/:id/status", ({ principal, params, body }) => cases.changeStatus(principal, params.id, body as JsonObject), {
      access: access.dosenOrAdmin,
      response: {
        200: TindakLanjutDetail,
        ...refusals(
          { status: 400, when: "`status` is not one of the four, or `catatan` is empty or longer than 2000 characters" },
          refusal.accessToken,
          refusal.role,
          notOwner,
          restrictedCase,
          unknownCase,
          { status: 409, when: "the move is not allowed from the case's status, or a reopening while the student has another open case" },
          refusal.bodyTooLarge,
          writing,
        ),
      },
      detail: { summary: "Move a case to another status with an internal note", security: bearer, requestBody: jsonBody(StatusBody) },
      audit: { action: "update", students: auditStudents.answer },
    })
    .put("/:id/pemilik", ({ principal, params, body }) => cases.reassign(principal, params.id, body as JsonObject), {
      access: access.adminOnly,
      response: {
        200: TindakLanjutDetail,
        ...refusals(
          { status: 400, when: "`NIP` is missing" },
          refusal.accessToken,
          refusal.role,
          restrictedCase,
          { status: 404, when: "no case has this id, or no lecturer this NIP" },
          refusal.bodyTooLarge,
          writing,
        ),
      },
      detail: { summary: "Give a case to another lecturer (admin only)", security: bearer, requestBody: jsonBody(OwnerBody) },
      audit: { action: "update", students: auditStudents.answer },
    });
