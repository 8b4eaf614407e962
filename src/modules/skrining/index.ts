import { Elysia, t } from "elysia";
import type { JsonObject } from "../../http/body";
import { ErrorResponse, bearer, errorResponses } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import { SkriningRecord } from "../../records";
import {
  CanSubmitResponse,
  HistoryQuery,
  HistoryResponse,
  KuesionerBody,
  KuesionerResponse,
  SuggestionsQuery,
  SuggestionsResponse,
  WeeklyLimitResponse,
} from "./model";
import { skriningMessages, type SkriningService } from "./service";
import type { SubmissionService } from "./submission";

/** The questionnaire: eligibility, submission, the latest result, the history and suggestions. */
export const skriningController = (guards: RouteGuards, submission: SubmissionService, skrining: SkriningService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["skrining"] })
    .use(guards)
    .get("/can_submit/:nim", ({ params }) => skrining.canSubmit(params.nim), {
      access: access.any,
      ownNim: true,
      advisee: { unknownStudent: skriningMessages.studentUnknown },
      response: { 200: CanSubmitResponse, ...errorResponses },
      detail: { summary: "Whether the student may submit the questionnaire now", security: bearer },
    })
    .post("/kuesioner", async ({ principal, body, set }) => {
      const result = await submission.submit(principal, body as JsonObject);
      set.status = 201;
      return result;
    }, {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      body: KuesionerBody,
      response: { 201: KuesionerResponse, ...errorResponses, 403: t.Union([WeeklyLimitResponse, ErrorResponse]) },
      detail: { summary: "Submit the questionnaire (once per rolling 7 days for students)", security: bearer },
    })
    .get("/hasil/:nim", ({ params }) => skrining.latest(params.nim), {
      access: access.any,
      ownNim: true,
      advisee: {},
      response: { 200: SkriningRecord, ...errorResponses },
      detail: { summary: "The student's latest screening", security: bearer },
    })
    .get("/history", ({ principal, query }) => skrining.history(principal, query), {
      access: access.mahasiswaOrAdmin,
      query: HistoryQuery,
      response: { 200: HistoryResponse, ...errorResponses },
      detail: { summary: "Screening history, newest first, paginated", security: bearer },
    })
    .get("/suggestions/detail", ({ query }) => skrining.suggestions(query), {
      access: access.any,
      query: SuggestionsQuery,
      response: { 200: SuggestionsResponse, ...errorResponses },
      detail: { summary: "Detailed suggestions for a (stress, motivation) pair", security: bearer },
    });
