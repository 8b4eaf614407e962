import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import { bearer, jsonBody, queryParameters, reading, refusal, refusals, writing } from "../../http/documentation";
import { auditStudents, type AuditRule } from "../../http/audit";
import { access, type RouteGuards } from "../../http/guards";
import { cachedJson } from "../../http/json-answer";
import { DosenProfil, DosenProfilBody, DosenProfilSaved, LecturerList, MovedAwayResponse, NipQuery, TodayResponse, StatistikResponse, StudentDetail, StudentList, StudentsQuery } from "./model";
import type { AppContext } from "../../context";
import type { CatatanService } from "../catatan/service";
import type { CaseReader } from "../tindak-lanjut/cases";
import { dosenMessages, DosenService } from "./service";
import { DosenProfilService } from "./profil";
import { StatisticsService } from "./statistics";
import { TodayService } from "./today";

/** Aggregates of one lecturer's advisees: one row without a student, naming whose advisees were counted. */
const statisticsViewed: AuditRule = {
  action: "view",
  students: auditStudents.none,
  detail: ({ principal, query }) => {
    const nip = principal?.role === "dosen" ? principal.nip : query.NIP?.trim();
    return nip ? `NIP ${nip}` : null;
  },
};

/** Decisions §19: the student moved away from the caller; the page says so. */
const formerAdvisor = {
  status: 403,
  when: "a lecturer names a student they do not advise; a former advisor's answer adds `pindah_dosen_wali` (when the student moved, and the new advisor's name)",
  body: MovedAwayResponse,
};

// Pages and statistics are kept in read caches; their answers are sent as the text made once.
const pageAnswer = cachedJson(StudentList);
const statistikAnswer = cachedJson(StatistikResponse);

/** The first page names students: one view row naming every student it shows. */
const todayViewed: AuditRule = {
  action: "view",
  students: ({ answer }) => {
    const page = answer as { kasus?: { NIM: string }[]; baru_ditutup?: { NIM: string }[]; balasan?: { NIM: string }[]; berisiko?: { NIM: string }[] } | undefined;
    const shown = [...(page?.kasus ?? []), ...(page?.baru_ditutup ?? []), ...(page?.balasan ?? []), ...(page?.berisiko ?? [])].map((item) => item.NIM);
    return [...new Set(shown)];
  },
};

const noLecturerProfile = { status: 404, when: "the `dosen` account has no lecturer profile" };

/** An advisor's view: their advisees, one advisee in full, the statistics, and their own profile. */
/** The lecturer's routes; their statistics are the console's faculty statistics too. */
export function dosenModule(core: AppContext, guards: RouteGuards, notes: CatatanService, cases: CaseReader) {
  const { config, db, writes } = core;
  const statistics = new StatisticsService(db, config.timeZone);
  const dosen = new DosenService(db, statistics, notes, config.followUpStressMin, cases);
  const today = new TodayService(db, cases, config.followUpStressMin);
  return { statistics, routes: dosenRoutes(guards, dosen, new DosenProfilService(db, writes), today) };
}

const dosenRoutes = (guards: RouteGuards, dosen: DosenService, profil: DosenProfilService, today: TodayService) =>
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
      advisee: { unknownStudent: dosenMessages.studentUnknown, tellsFormerAdvisor: true },
      response: { 200: StudentDetail, ...refusals(refusal.accessToken, refusal.role, formerAdvisor, refusal.studentUnknown, reading) },
      detail: { summary: "One student with all screenings and notes, newest first", security: bearer },
      audit: { action: "view", students: auditStudents.path },
    })
    .get("/hari-ini", ({ principal }) => today.of(principal), {
      access: access.dosenOnly,
      response: { 200: TodayResponse, ...refusals(refusal.accessToken, refusal.role, reading) },
      detail: { summary: "A lecturer's first page: the cases waiting for them, new closings, new replies, advisees at risk, with counts (decisions §19)", security: bearer },
      audit: todayViewed,
    })
    .get("/profil", ({ principal }) => profil.own(principal), {
      access: access.dosenOnly,
      response: { 200: DosenProfil, ...refusals(refusal.accessToken, refusal.role, noLecturerProfile, reading) },
      detail: { summary: "The lecturer's own profile: name and the telephone number advisees see", security: bearer },
    })
    .put("/profil", ({ principal, body }) => profil.update(principal, body as JsonObject), {
      access: access.dosenOnly,
      response: {
        200: DosenProfilSaved,
        ...refusals(
          { status: 400, when: "`telepon` is missing or not a telephone number" },
          refusal.accessToken,
          refusal.role,
          noLecturerProfile,
          refusal.bodyTooLarge,
          writing,
        ),
      },
      detail: { summary: "Set or clear the lecturer's own telephone/WhatsApp number (decisions §19)", security: bearer, requestBody: jsonBody(DosenProfilBody) },
      audit: { action: "update", students: auditStudents.none },
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
