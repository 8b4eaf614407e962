import { t } from "elysia";

export const FotoUploadResponse = t.Object({ message: t.String(), foto_profil: t.String({ description: "path relative to the data folder" }) });

export const FotoDeleteResponse = t.Object({ message: t.String(), foto_profil: t.Null() });

/** For the OpenAPI document only: the body is read by the multipart parser, not validated here. */
export const fotoRequestBody = {
  content: {
    "multipart/form-data": {
      schema: { type: "object", properties: { foto: { type: "string", format: "binary", description: "JPEG, PNG, GIF or WebP, at most 2 MiB" } } },
    },
  },
} as const;
