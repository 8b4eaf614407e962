import { Elysia } from "elysia";
import { bearer, reading, refusal, refusals } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import { SafetyQuestionResponse } from "./model";
import type { AppContext } from "../../context";
import { SafetyQuestionService } from "./service";

/** Decisions §20: whether the questionnaire asks the safety question, what, and who answers the same day. */
export function keselamatanModule(core: AppContext, guards: RouteGuards) {
  const safety = new SafetyQuestionService(core.db, core.writes);
  return { safety, routes: keselamatanRoutes(guards, safety) };
}

const keselamatanRoutes = (guards: RouteGuards, safety: SafetyQuestionService) =>
  new Elysia({ prefix: "/api/kuesioner", tags: ["questions"] })
    .use(guards)
    .get("/keselamatan", () => safety.forStudents(), {
      access: access.any,
      response: { 200: SafetyQuestionResponse, ...refusals(refusal.accessToken, reading) },
      detail: { summary: "The optional safety question (decisions §20): whether to ask it after the 68 items, and its contact", security: bearer },
    });
