import { Elysia, t } from "elysia";
import type { JsonObject } from "../../http/body";
import { access, authGuard } from "../../http/guards";
import type { AuthService } from "../auth/service";
import { ErrorResponse } from "../auth/model";
import type { KuesionerService } from "./kuesioner";
import {
  CanSubmitResponse,
  HistoryQuery,
  HistoryResponse,
  KuesionerBody,
  KuesionerResponse,
  SkriningRecord,
  SuggestionsQuery,
  SuggestionsResponse,
  WeeklyLimitResponse,
} from "./model";
import type { SkriningService } from "./service";

const bearer = [{ bearer: [] }];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

export const mahasiswaController = (auth: AuthService, kuesioner: KuesionerService, skrining: SkriningService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["mahasiswa"] })
    .use(authGuard(auth))
    .get("/can_submit/:nim", ({ principal, params }) => skrining.canSubmit(principal, params.nim), {
      access: access.any,
      response: { 200: CanSubmitResponse, ...errors },
      detail: { summary: "Whether the student may submit the questionnaire now", security: bearer },
    })
    .post("/kuesioner", async ({ principal, body, set }) => {
      const result = await kuesioner.submit(principal, body as JsonObject);
      set.status = 201;
      return result;
    }, {
      access: access.mahasiswaOrAdmin,
      studentWrite: true,
      body: KuesionerBody,
      response: { 201: KuesionerResponse, ...errors, 403: t.Union([WeeklyLimitResponse, ErrorResponse]) },
      detail: { summary: "Submit the questionnaire (once per rolling 7 days for students)", security: bearer },
    })
    .get("/hasil/:nim", ({ principal, params }) => skrining.latest(principal, params.nim), {
      access: access.any,
      response: { 200: SkriningRecord, ...errors },
      detail: { summary: "The student's latest screening", security: bearer },
    })
    .get("/history", ({ principal, query }) => skrining.history(principal, query), {
      access: access.mahasiswaOrAdmin,
      query: HistoryQuery,
      response: { 200: HistoryResponse, ...errors },
      detail: { summary: "Screening history, newest first, paginated", security: bearer },
    })
    .get("/suggestions/detail", ({ query }) => skrining.suggestions(query), {
      access: access.any,
      query: SuggestionsQuery,
      response: { 200: SuggestionsResponse, ...errors },
      detail: { summary: "Detailed suggestions for a (stress, motivation) pair", security: bearer },
    });
