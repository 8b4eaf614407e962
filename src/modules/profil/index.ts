import { Elysia } from "elysia";
import type { JsonObject } from "../../http/body";
import { access, authGuard } from "../../http/guards";
import { ErrorResponse } from "../auth/model";
import type { AuthService } from "../auth/service";
import { ProfilBody, ProfilDataResponse, ProfilStatusResponse, ProfilUpdateResponse } from "./model";
import type { ProfilService } from "./service";

const bearer = [{ bearer: [] }];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

export const profilController = (auth: AuthService, profil: ProfilService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["mahasiswa"] })
    .use(authGuard(auth))
    .put("/profil", ({ principal, body }) => profil.update(principal, body as JsonObject), {
      access: access.mahasiswaOnly(),
      studentWrite: true,
      body: ProfilBody,
      response: { 200: ProfilUpdateResponse, ...errors },
      detail: { summary: "Update the student's own profile fields", security: bearer },
    })
    .get("/profil/status", ({ principal }) => profil.status(principal), {
      access: access.mahasiswaOnly(),
      response: { 200: ProfilStatusResponse, ...errors },
      detail: { summary: "Whether the profile fields the models use are filled in", security: bearer },
    })
    .get("/profil/data/:nim", ({ principal, params }) => profil.data(principal, params.nim), {
      access: access.any,
      response: { 200: ProfilDataResponse, ...errors },
      detail: { summary: "The student's profile summary", security: bearer },
    });
