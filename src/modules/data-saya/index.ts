import { Elysia } from "elysia";
import { bearer, reading, refusal, refusals } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import { StudentData } from "./model";
import type { DataSayaService } from "./service";

/** UU PDP's right of access: everything skrining holds about the student asking. */
export const dataSayaController = (guards: RouteGuards, dataSaya: DataSayaService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["privasi"] })
    .use(guards)
    .get("/data-saya", ({ principal }) => dataSaya.own(principal), {
      access: access.mahasiswaOnly(),
      response: {
        200: StudentData,
        ...refusals(
          refusal.accessToken,
          refusal.role,
          { status: 404, when: "the student account has no profile" },
          { status: 429, when: "more than 6 a minute by this account (the largest answer the service gives; configurable)" },
          reading,
        ),
      },
      detail: {
        summary: "Everything skrining holds about the signed-in student, and who else accessed it (the student only)",
        security: bearer,
      },
    });
