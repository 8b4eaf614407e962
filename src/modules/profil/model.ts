import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { MahasiswaRecord } from "../../records";

// Request bodies are documentation only (src/http/documentation.ts `jsonBody`): the
// service reads them leniently and answers with the interface's own texts.

/** A profile text: stored trimmed; values the faculty's forms do not know are kept as given. */
const profileText = (description: string) => t.Optional(t.String({ minLength: 1, maxLength: 50, description }));

export const ProfilBody = t.Object(
  {
    angkatan: profileText("the intake year, e.g. \"2023\" (a number is accepted)"),
    gender: profileText("known values: Laki-laki, Perempuan; L and P (any case) are stored as those, as the account import stores them"),
    usia: t.Optional(Type.Integer({ minimum: 10, maximum: 100, description: "a string of digits is accepted" })),
    freq_olahraga: profileText("known values: Tidak pernah, 1-3 kali, 4-6 kali, >7 kali"),
    durasi_tidur: profileText("known values: < 4 Jam, 4-5 Jam, 6-7 Jam, > 7 Jam"),
    IPK: t.Optional(t.Number({ minimum: 0, maximum: 4, description: "a numeric string is accepted" })),
  },
  { description: "a field that is absent, null or empty is left as it is; other keys are ignored" },
);

export const ProfilUpdateResponse = t.Object({ message: t.String(), data: MahasiswaRecord }, { additionalProperties: false });

export const ProfilStatusResponse = t.Object(
  {
    is_complete: t.Boolean(),
    missing_fields: t.Array(t.String(), { description: "of angkatan, gender, usia, freq_olahraga, durasi_tidur" }),
  },
  { additionalProperties: false },
);

export const ProfilDataResponse = t.Object(
  {
    nim: t.String(),
    nama: t.String({ description: "empty when unknown, as the other texts" }),
    program: t.String({ description: "the jurusan's name" }),
    angkatan: t.String(),
    kelas: t.String(),
    ipk: t.Nullable(t.Number()),
    foto_profil: t.Nullable(t.String()),
    gender: t.String(),
    usia: t.Nullable(Type.Integer()),
    freq_olahraga: t.String(),
    durasi_tidur: t.String(),
    nip_doswal: t.String(),
    nama_dosen_wali: t.String(),
    telepon_dosen_wali: t.String({ description: "decisions §19, an addition: the advisor's telephone/WhatsApp number when they gave one; empty otherwise" }),
  },
  { additionalProperties: false },
);

export const PhotoUploadResponse = t.Object(
  { message: t.String(), foto_profil: t.String({ description: "path relative to the data folder" }) },
  { additionalProperties: false },
);

export const PhotoDeleteResponse = t.Object({ message: t.String(), foto_profil: t.Null() }, { additionalProperties: false });

/** For the OpenAPI document only: the body is read by the multipart parser, not validated here. */
export const photoRequestBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: t.Object({
        foto: t.String({ format: "binary", description: "a JPEG, PNG, GIF or WebP picture, at most SKRINING_PHOTO_LIMIT bytes (2 MiB unless set); its metadata is removed" }),
      }),
    },
  },
};

/** The picture a student uploaded, as stored (the type is read from its bytes, not its name). */
const picture = { schema: t.String({ format: "binary" }) };

/** The photo route answers with its own Response: its successful answers as OpenAPI response objects. */
export const photoAnswers = {
  200: {
    description: "the picture; `ETag` identifies it and `Cache-Control: private, no-cache` lets only the browser keep it",
    content: { "image/jpeg": picture, "image/png": picture, "image/gif": picture, "image/webp": picture },
  },
  304: { description: "not modified: `If-None-Match` names the current ETag" },
};
