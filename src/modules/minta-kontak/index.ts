import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import { bearer, jsonBody, reading, refusal, refusals, writing } from "../../http/documentation";
import { auditStudents } from "../../http/audit";
import { access, type RouteGuards } from "../../http/guards";
import { MintaKontakBody, MintaKontakSent, MintaKontakState, MintaKontakTooSoon } from "./model";
import type { AppContext } from "../../context";
import { MintaKontakService } from "./service";

const onlyStudents = "Hanya mahasiswa yang dapat meminta dihubungi.";
const noProfile = { status: 404, when: "the student account has no student profile" };

/** Decisions §19: a student asks to be contacted, and sees where the request stands. */
export function mintaKontakModule(core: AppContext, guards: RouteGuards) {
  return mintaKontakRoutes(guards, new MintaKontakService(core.db, core.writes));
}

const mintaKontakRoutes = (guards: RouteGuards, requests: MintaKontakService) =>
  new Elysia({ prefix: "/api/mahasiswa/minta-kontak", tags: ["tindak lanjut"] })
    .use(guards)
    .get("", ({ principal }) => requests.state(principal), {
      access: access.mahasiswaOnly(onlyStudents),
      response: { 200: MintaKontakState, ...refusals(refusal.accessToken, { status: 403, when: `the caller is not a student (\`${onlyStudents}\`)` }, noProfile, reading) },
      detail: { summary: "The student's advisor, their latest request for contact and where it stands", security: bearer },
    })
    .post("", async ({ principal, body, set }) => {
      const sent = await requests.request(principal, body as JsonObject);
      set.status = 201;
      return sent;
    }, {
      access: access.mahasiswaOnly(onlyStudents),
      studentWrite: true,
      response: {
        201: MintaKontakSent,
        ...refusals(
          { status: 400, when: "`pesan` is not text, or longer than 1000 characters" },
          refusal.accessToken,
          { status: 403, when: `the caller is not a student (\`${onlyStudents}\`), or the student's processing is restricted` },
          noProfile,
          refusal.bodyTooLarge,
          { status: 429, when: "the student asked within the last 24 hours (the time left, and `boleh_minta_lagi_pada`; `Retry-After`)", body: MintaKontakTooSoon },
          refusal.fairUse,
          writing,
        ),
      },
      detail: {
        summary: "Ask to be contacted: opens a follow-up case for the advisor, or adds to the open one; once per 24 hours",
        security: bearer,
        requestBody: jsonBody(MintaKontakBody),
      },
      audit: { action: "create", students: auditStudents.caller },
    });
