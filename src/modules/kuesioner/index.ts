import { Elysia } from "elysia";
import { access, authGuard } from "../../http/guards";
import { ErrorResponse } from "../auth/model";
import type { AuthService } from "../auth/service";
import { QuestionsResponse } from "./model";
import type { QuestionsService } from "./service";

export const kuesionerController = (auth: AuthService, questions: QuestionsService) =>
  new Elysia({ prefix: "/api/kuesioner", tags: ["kuesioner"] })
    .use(authGuard(auth))
    .get("/questions", () => questions.list(), {
      access: access.any,
      response: { 200: QuestionsResponse, 401: ErrorResponse },
      detail: { summary: "The 68 questionnaire items with their scales", security: [{ bearer: [] }] },
    });
