import { Elysia } from "elysia";
import { access, authGuard } from "../../http/guards";
import { ErrorResponse } from "../auth/model";
import type { AuthService } from "../auth/service";
import { FotoDeleteResponse, FotoUploadResponse, fotoRequestBody } from "./model";
import type { FotoService } from "./service";

const bearer = [{ bearer: [] }];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 500: ErrorResponse };

// Nobody else may cache a student's photo; browsers keep it and revalidate with the ETag.
const cacheControl = "private, no-cache";

export const fotoController = (auth: AuthService, foto: FotoService) =>
  new Elysia({ prefix: "/api/mahasiswa", tags: ["mahasiswa"] })
    .use(authGuard(auth))
    .put("/profil/foto", ({ principal, body }) => foto.upload(principal, body), {
      access: access.mahasiswaOnly(),
      studentWrite: true,
      response: { 200: FotoUploadResponse, ...errors },
      detail: { summary: "Upload or replace the student's profile photo (multipart, part `foto`)", security: bearer, requestBody: fotoRequestBody },
    })
    .get("/profil/foto/:nim", ({ params, headers }) => {
      const photo = foto.find(params.nim);
      const common = { "cache-control": cacheControl, etag: photo.etag, "x-content-type-options": "nosniff" };
      if (matches(headers["if-none-match"], photo.etag)) return new Response(null, { status: 304, headers: common });
      return new Response(Bun.file(photo.path), { headers: { ...common, "content-type": photo.mediaType } });
    }, {
      detail: { summary: "The student's profile photo (no token needed)", responses: { 200: { description: "the image bytes" }, 304: { description: "not modified" } } },
    })
    .delete("/profil/foto/:nim", ({ principal, params }) => foto.remove(principal, params.nim), {
      access: access.mahasiswaOnly(),
      studentWrite: true,
      response: { 200: FotoDeleteResponse, ...errors },
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
