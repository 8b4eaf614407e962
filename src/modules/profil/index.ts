import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import { bearer, jsonBody, reading, refusal, refusals, responseObjects, writing, studentWriteRefusals } from "../../http/documentation";
import { auditStudents } from "../../http/audit";
import { access, type RouteGuards } from "../../http/guards";
import { PhotoDeleteResponse, PhotoUploadResponse, ProfilBody, ProfilDataResponse, ProfilStatusResponse, ProfilUpdateResponse, photoAnswers, photoRequestBody } from "./model";
import type { AppContext } from "../../context";
import { PhotoStore } from "../../photos/storage";
import { PhotoService } from "./photo";
import { profilMessages, ProfilService } from "./service";

// Nobody else may cache a student's photo; browsers keep it and revalidate with the ETag.
const photoCacheControl = "private, no-cache";

/** A student account without a profile row has no profile to read or change. */
const noProfile = { status: 404, when: "the student account has no profile" };

/** The student's profile: the fields the models use, their summary, and the photo. */
/** The profile and its photo; the photo folder (PhotoStore) is this module's, lent to the erasure. */
export function profilModule(core: AppContext, guards: RouteGuards) {
  const { config, db, writes, logger } = core;
  const profil = new ProfilService(db, writes);
  const photoStore = new PhotoStore(config.dataDir, config.photosDir);
  const photos = new PhotoService(db, writes, photoStore, config.photoLimitBytes, logger);
  return { profil, photos, photoStore, routes: profilRoutes(guards, profil, photos) };
}

const profilRoutes = (guards: RouteGuards, profil: ProfilService, photos: PhotoService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["profil"] })
    .use(guards)
    .put("/profil", ({ principal, body }) => profil.update(principal, body as JsonObject), {
      access: access.mahasiswaOnly(),
      studentWrite: true,
      response: {
        200: ProfilUpdateResponse,
        ...studentWriteRefusals(
          { status: 400, when: "`usia`, `IPK` or a text field breaks its rule" },
          noProfile,
        ),
      },
      detail: { summary: "Update the student's own profile fields", security: bearer, requestBody: jsonBody(ProfilBody) },
      audit: { action: "update", students: auditStudents.caller },
    })
    .get("/profil/status", ({ principal }) => profil.status(principal), {
      access: access.mahasiswaOnly(),
      response: { 200: ProfilStatusResponse, ...refusals(refusal.accessToken, refusal.role, noProfile, reading) },
      detail: { summary: "Whether the profile fields the models use are filled in", security: bearer },
    })
    .get("/profil/data/:nim", ({ params }) => profil.data(params.nim), {
      access: access.any,
      ownNim: true,
      advisee: { unknownStudent: profilMessages.studentUnknown },
      restriction: "staff",
      response: { 200: ProfilDataResponse, ...refusals(refusal.accessToken, refusal.ownNim, refusal.notAdvisee, refusal.restricted, refusal.studentUnknown, reading) },
      detail: { summary: "The student's profile summary", security: bearer },
      audit: { action: "view", students: auditStudents.path },
    })
    .put("/profil/foto", ({ principal, body }) => photos.upload(principal, body), {
      access: access.mahasiswaOnly(),
      studentWrite: true,
      response: {
        200: PhotoUploadResponse,
        ...refusals(
          { status: 400, when: "no `foto` part, an empty file name, a file too large, or not a readable JPEG, PNG, GIF or WebP picture" },
          refusal.accessToken,
          refusal.role,
          noProfile,
          { status: 413, when: "the form is larger than the photo limit allows" },
          refusal.fairUse,
          { status: 500, when: "the picture could not be saved" },
          writing,
        ),
      },
      detail: { summary: "Upload or replace the student's profile photo (multipart, part `foto`)", security: bearer, requestBody: photoRequestBody },
      audit: { action: "update", students: auditStudents.caller },
    })
    .get("/profil/foto/:nim", ({ params, headers }) => {
      const photo = photos.find(params.nim);
      const common = { "cache-control": photoCacheControl, etag: photo.etag, "x-content-type-options": "nosniff" };
      if (matches(headers["if-none-match"], photo.etag)) return new Response(null, { status: 304, headers: common });
      return new Response(Bun.file(photo.path), { headers: { ...common, "content-type": photo.mediaType } });
    }, {
      tokenless: true,
      detail: {
        summary: "The student's profile photo (no token needed, except the student's own while their processing is restricted)",
        responses: {
          ...photoAnswers,
          ...responseObjects(
            refusals(
              { status: 403, when: "the student's processing is restricted (`privacy restrict`) and the request carries no access token of that student" },
              { status: 404, when: "the student does not exist, has no photo, or its file is missing on the server" },
              { status: 429, when: "without a token: more reads from this client address than its limit a minute (120 by default, decisions §16)" },
              reading,
            ),
          ),
        },
      },
      // No token is needed (the mobile app sends none; the web interface does): a caller without one is noted as `anonim`.
      audit: { action: "view", students: auditStudents.path },
    })
    .delete("/profil/foto/:nim", ({ params }) => photos.remove(params.nim), {
      access: access.mahasiswaOnly(),
      studentWrite: true,
      ownNim: true,
      response: {
        200: PhotoDeleteResponse,
        ...refusals(refusal.accessToken, refusal.role, refusal.ownNim, refusal.fairUse, refusal.studentUnknown, writing),
      },
      detail: { summary: "Remove the student's own profile photo", security: bearer },
      audit: { action: "delete", students: auditStudents.path },
    });

/** `If-None-Match` holds a list of validators, or `*`; weak ones compare by their value. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const value = candidate.trim().replace(/^W\//, "");
    return value === "*" || value === etag;
  });
}
