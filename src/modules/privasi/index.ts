import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import { bearer, described, jsonBody, reading, refusal, refusals, writing } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import type { AuthService } from "../../auth/service";
import type { PrivacyNotice } from "../../konten/privacy-notice";
import type { ReplaceableFile } from "../../konten/replaceable-file";
import type { AppContext } from "../../context";
import { AcknowledgeBody, AcknowledgementResponse, OutdatedVersionResponse, PrivacyNoticeResponse } from "./model";
import { privasiMessages, PrivasiService } from "./service";

/**
 * The privacy notice (UU 27/2022) and a student's acknowledgement of it. The notice is
 * readable without a token, because the activation page shows it before the account is
 * usable; with a token, a student also learns whether they have acknowledged it.
 */
export function privasiModule(core: AppContext, guards: RouteGuards, notice: ReplaceableFile<PrivacyNotice>, clientAddress: (request: Request) => string) {
  return privasiRoutes(guards, core.auth, new PrivasiService(core.db, core.writes, notice), clientAddress);
}

const privasiRoutes = (guards: RouteGuards, auth: AuthService, privasi: PrivasiService, clientAddress: (request: Request) => string) =>
  new Elysia({ prefix: "/api/privasi", tags: ["privasi"] })
    .use(guards)
    .get(
      "/pemberitahuan",
      async ({ headers }) => {
        // A token that is given must be valid: a client that sent one expects an answer about its account.
        const caller = headers.authorization === undefined ? null : await auth.authenticate(headers.authorization, "access");
        if (caller) auth.refuseWhilePasswordMustChange(caller.principal);
        return privasi.current(caller?.principal ?? null);
      },
      {
        response: {
          200: PrivacyNoticeResponse,
          ...refusals(
            { status: 401, when: "a token is given but it is invalid, expired or of an ended session" },
            { status: 403, when: "a token is given of an account that must first replace its password (decisions §21)" },
            reading,
          ),
        },
        detail: {
          summary: "The privacy notice in force; with a student's token, whether they have acknowledged this version (no token needed)",
          security: [{}, ...bearer],
        },
      },
    )
    .post(
      "/pemberitahuan/setuju",
      async ({ principal, body, request, set }) => {
        const { created, acknowledgement } = await privasi.acknowledge(principal, body as JsonObject, clientAddress(request));
        set.status = created ? 201 : 200;
        return acknowledgement;
      },
      {
        access: access.mahasiswaOnly(privasiMessages.studentsOnly),
        studentWrite: true,
        response: {
          200: described(AcknowledgementResponse, "this version was acknowledged before: nothing changes, the first time is answered"),
          201: described(AcknowledgementResponse, "the acknowledgement is recorded, with an audit row"),
          ...refusals(
            { status: 400, when: "`version` is missing or empty" },
            refusal.accessToken,
            { status: 403, when: "the caller is not a student" },
            { status: 409, when: "`version` is not the version in force (the notice changed since it was shown)", body: OutdatedVersionResponse },
            refusal.bodyTooLarge,
            refusal.fairUse,
            writing,
          ),
        },
        detail: { summary: "A student acknowledges the privacy notice's version in force", security: bearer, requestBody: jsonBody(AcknowledgeBody) },
      },
    );
