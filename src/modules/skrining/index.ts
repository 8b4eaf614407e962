import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import { bearer, jsonBody, queryParameters, reading, refusal, refusals, studentWriteRefusals } from "../../http/documentation";
import { auditStudents } from "../../http/audit";
import { access, type RouteGuards } from "../../http/guards";
import { cachedJson } from "../../http/json-answer";
import {
  CanSubmitResponse,
  HasilResponse,
  HistoryQuery,
  HistoryResponse,
  KuesionerBody,
  KuesionerResponse,
  SuggestionsQuery,
  SuggestionsResponse,
  WeeklyLimitResponse,
} from "./model";
import { RegistryClassifier } from "../../models/registry";
import type { AppContext } from "../../context";
import { skriningMessages, SkriningService } from "./service";
import { SubmissionService } from "./submission";
import { TindakLanjutReachReader } from "../tindak-lanjut/reach";

/** The questionnaire: eligibility, submission, the latest result, the history and suggestions. */
const hasilAnswer = cachedJson(HasilResponse);

/** The questionnaire: its submissions (through the write queue, docs/architecture.md "A submission's path"), results and history. */
export function skriningModule(core: AppContext, guards: RouteGuards) {
  const { config, db, writes, logger } = core;
  // What a result says of its follow-up: one reader for the submission's answer and the latest result's.
  const followUpReach = new TindakLanjutReachReader(db.$client);
  const settings = { followUpStressMin: config.followUpStressMin, timeZone: config.timeZone };
  const submission = new SubmissionService(db, writes, new RegistryClassifier(db, config.dataDir), logger, settings, followUpReach);
  return { submission, routes: skriningRoutes(guards, submission, new SkriningService(db, submission, core.restriction, followUpReach)) };
}

const skriningRoutes = (guards: RouteGuards, submission: SubmissionService, skrining: SkriningService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["skrining"] })
    .use(guards)
    .get("/can_submit/:nim", ({ params }) => skrining.canSubmit(params.nim), {
      access: access.any,
      ownNim: true,
      advisee: { unknownStudent: skriningMessages.studentUnknown },
      restriction: "staff",
      response: { 200: CanSubmitResponse, ...refusals(refusal.accessToken, refusal.ownNim, refusal.notAdvisee, refusal.restricted, refusal.studentUnknown, reading) },
      detail: { summary: "Whether the student may submit the questionnaire now", security: bearer },
      audit: { action: "view", students: auditStudents.path },
    })
    .post("/kuesioner", async ({ principal, body, set }) => {
      const result = await submission.submit(principal, body as JsonObject);
      set.status = 201;
      return result;
    }, {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      response: {
        201: KuesionerResponse,
        ...studentWriteRefusals(
          { status: 400, when: "an admin gives no `NIM`, or `jawaban` is not an object, or an item is missing or off its scale" },
          { status: 403, when: "a student submitted within the last 7 days: nothing is saved", body: WeeklyLimitResponse },
          { status: 404, when: "the student does not exist" },
        ),
      },
      detail: { summary: "Submit the questionnaire (once per rolling 7 days for students)", security: bearer, requestBody: jsonBody(KuesionerBody) },
      audit: { action: "create", students: auditStudents.ownOrBody },
    })
    // The latest result is kept in a read cache; its answer is sent as the text made once.
    .get("/hasil/:nim", ({ params, set }) => hasilAnswer(skrining.latest(params.nim), set), {
      access: access.any,
      ownNim: true,
      advisee: {},
      restriction: "staff",
      response: {
        200: HasilResponse,
        ...refusals(refusal.accessToken, refusal.ownNim, refusal.notAdvisee, refusal.restricted, { status: 404, when: "the student has no screening" }, reading),
      },
      detail: { summary: "The student's latest screening, with its answers", security: bearer },
      audit: { action: "view", students: auditStudents.path },
    })
    .get("/history", ({ principal, query }) => skrining.history(principal, query), {
      access: access.mahasiswaOrAdmin,
      response: {
        200: HistoryResponse,
        ...refusals({ status: 400, when: "an admin gives no `nim`" }, refusal.accessToken, refusal.role, refusal.studentUnknown, reading),
      },
      detail: { summary: "Screening history, newest first, paginated", security: bearer, parameters: queryParameters(HistoryQuery) },
      audit: { action: "view", students: auditStudents.ownOrQuery },
    })
    .get("/suggestions/detail", ({ query }) => skrining.suggestions(query), {
      access: access.any,
      response: {
        200: SuggestionsResponse,
        ...refusals({ status: 400, when: "`stress` or `motivation` is missing" }, refusal.accessToken, reading),
      },
      detail: { summary: "Detailed suggestions for a (stress, motivation) pair", security: bearer, parameters: queryParameters(SuggestionsQuery) },
    });
