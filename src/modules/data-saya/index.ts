import { Elysia } from "elysia";
import { bearer, reading, refusal, refusals } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import { StudentData } from "./model";
import type { AppContext } from "../../context";
import { StudentDataDocuments, type DocumentSources } from "./document";
import { DataSayaService } from "./service";

/** UU PDP's right of access: everything skrining holds about the student asking. */
export function dataSayaModule(core: AppContext, guards: RouteGuards, sources: DocumentSources) {
  const documents = new StudentDataDocuments(core.db, sources);
  return { documents, routes: dataSayaRoutes(guards, new DataSayaService(documents, core.config.dataDocumentsPerMinute)) };
}

const dataSayaRoutes = (guards: RouteGuards, dataSaya: DataSayaService) =>
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
