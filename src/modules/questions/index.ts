import { Elysia } from "elysia";
import { bearer, reading, refusal, refusals } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import { QuestionsResponse } from "./model";
import type { QuestionsService } from "./service";

/** The questionnaire's item texts, which an admin may replace. */
export const questionsController = (guards: RouteGuards, questions: QuestionsService) =>
  new Elysia({ prefix: "/api/kuesioner", tags: ["questions"] })
    .use(guards)
    .get("/questions", () => questions.list(), {
      access: access.any,
      response: { 200: QuestionsResponse, ...refusals(refusal.accessToken, reading) },
      detail: { summary: "The 68 questionnaire items with their scales", security: bearer },
    });
