import { Elysia } from "elysia";
import type { JsonObject } from "../../http/body";
import { ErrorResponse, bearer, errorResponses } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import { PhotoDeleteResponse, PhotoUploadResponse, ProfilBody, ProfilDataResponse, ProfilStatusResponse, ProfilUpdateResponse, photoRequestBody } from "./model";
import type { PhotoService } from "./photo";
import { profilMessages, type ProfilService } from "./service";

// Nobody else may cache a student's photo; browsers keep it and revalidate with the ETag.
const photoCacheControl = "private, no-cache";

/** The student's profile: the fields the models use, their summary, and the photo. */
export const profilController = (guards: RouteGuards, profil: ProfilService, photos: PhotoService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["profil"] })
    .use(guards)
    .put("/profil", ({ principal, body }) => profil.update(principal, body as JsonObject), {
      access: access.mahasiswaOnly(),
      studentWrite: true,
      body: ProfilBody,
      response: { 200: ProfilUpdateResponse, ...errorResponses },
      detail: { summary: "Update the student's own profile fields", security: bearer },
    })
    .get("/profil/status", ({ principal }) => profil.status(principal), {
      access: access.mahasiswaOnly(),
      response: { 200: ProfilStatusResponse, ...errorResponses },
      detail: { summary: "Whether the profile fields the models use are filled in", security: bearer },
    })
    .get("/profil/data/:nim", ({ params }) => profil.data(params.nim), {
      access: access.any,
      ownNim: true,
      advisee: { unknownStudent: profilMessages.studentUnknown },
      response: { 200: ProfilDataResponse, ...errorResponses },
      detail: { summary: "The student's profile summary", security: bearer },
    })
    .put("/profil/foto", ({ principal, body }) => photos.upload(principal, body), {
      access: access.mahasiswaOnly(),
      studentWrite: true,
      response: { 200: PhotoUploadResponse, ...errorResponses, 500: ErrorResponse },
      detail: { summary: "Upload or replace the student's profile photo (multipart, part `foto`)", security: bearer, requestBody: photoRequestBody },
    })
    .get("/profil/foto/:nim", ({ params, headers }) => {
      const photo = photos.find(params.nim);
      const common = { "cache-control": photoCacheControl, etag: photo.etag, "x-content-type-options": "nosniff" };
      if (matches(headers["if-none-match"], photo.etag)) return new Response(null, { status: 304, headers: common });
      return new Response(Bun.file(photo.path), { headers: { ...common, "content-type": photo.mediaType } });
    }, {
      detail: { summary: "The student's profile photo (no token needed)", responses: { 200: { description: "the image bytes" }, 304: { description: "not modified" } } },
    })
    .delete("/profil/foto/:nim", ({ params }) => photos.remove(params.nim), {
      access: access.mahasiswaOnly(),
      studentWrite: true,
      ownNim: true,
      response: { 200: PhotoDeleteResponse, ...errorResponses },
      detail: { summary: "Remove the student's own profile photo", security: bearer },
    });

/** `If-None-Match` holds a list of validators, or `*`; weak ones compare by their value. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const value = candidate.trim().replace(/^W\//, "");
    return value === "*" || value === etag;
  });
}
