import { Elysia } from "elysia";
import { bearer, reading, refusal, refusals } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import { QuestionsResponse } from "./model";
import type { AppContext } from "../../context";
import { QuestionsService } from "./service";

/** The questionnaire's item texts, which an admin may replace. */
export function questionsModule(core: AppContext, guards: RouteGuards) {
  return questionsRoutes(guards, new QuestionsService(core.config.dataDir, core.logger));
}

const questionsRoutes = (guards: RouteGuards, questions: QuestionsService) =>
  new Elysia({ prefix: "/api/kuesioner", tags: ["questions"] })
    .use(guards)
    .get("/questions", () => questions.list(), {
      access: access.any,
      response: { 200: QuestionsResponse, ...refusals(refusal.accessToken, reading) },
      detail: { summary: "The 68 questionnaire items with their scales", security: bearer },
    });
