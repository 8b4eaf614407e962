import { t } from "elysia";
import { bodyField } from "../../http/documentation";
import { MahasiswaRecord } from "../../records";

export const ProfilBody = t.Object(
  {
    angkatan: bodyField("string, e.g. 2023 (at most 50 characters)"),
    gender: bodyField("string: Laki-laki, Perempuan"),
    usia: bodyField("integer 10-100 (a digit string is accepted)"),
    freq_olahraga: bodyField("string: Tidak pernah, 1-3 kali, 4-6 kali, >7 kali"),
    durasi_tidur: bodyField("string: < 4 Jam, 4-5 Jam, 6-7 Jam, > 7 Jam"),
    IPK: bodyField("number 0.00-4.00"),
  },
  { additionalProperties: true },
);

export const ProfilUpdateResponse = t.Object({ message: t.String(), data: MahasiswaRecord });

export const ProfilStatusResponse = t.Object({ is_complete: t.Boolean(), missing_fields: t.Array(t.String()) });

export const ProfilDataResponse = t.Object(
  {
    nim: t.String(),
    nama: t.String(),
    program: t.String(),
    angkatan: t.String(),
    kelas: t.String(),
    ipk: t.Nullable(t.Number()),
    foto_profil: t.Nullable(t.String()),
    gender: t.String(),
    usia: t.Nullable(t.Integer()),
    freq_olahraga: t.String(),
    durasi_tidur: t.String(),
    nip_doswal: t.String(),
    nama_dosen_wali: t.String(),
  },
  { additionalProperties: false },
);

export const PhotoUploadResponse = t.Object({ message: t.String(), foto_profil: t.String({ description: "path relative to the data folder" }) });

export const PhotoDeleteResponse = t.Object({ message: t.String(), foto_profil: t.Null() });

/** For the OpenAPI document only: the body is read by the multipart parser, not validated here. */
export const photoRequestBody = {
  content: {
    "multipart/form-data": {
      schema: { type: "object", properties: { foto: { type: "string", format: "binary", description: "JPEG, PNG, GIF or WebP, at most 2 MiB" } } },
    },
  },
} as const;
