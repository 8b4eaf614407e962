import { t } from "elysia";
import { bodyField } from "../../http/documentation";

export const CredentialsBody = t.Object(
  {
    username: bodyField("string, trimmed, required"),
    password: bodyField("string, required"),
  },
  { additionalProperties: true },
);

export const PasswordChangeBody = t.Object(
  {
    old_password: bodyField("string, required"),
    new_password: bodyField("string, 8 characters to 72 bytes"),
  },
  { additionalProperties: true },
);

export const UserResponse = t.Object(
  {
    Id_User: t.Integer(),
    username: t.String(),
    role: t.Union([t.Literal("mahasiswa"), t.Literal("dosen"), t.Literal("admin")]),
    created_at: t.String({ description: "ISO 8601, UTC" }),
    is_activated: t.Boolean(),
    NIM: t.Optional(t.String()),
    NIP: t.Optional(t.String()),
    nama: t.Optional(t.Nullable(t.String())),
  },
  { additionalProperties: false },
);

export const LoginResponse = t.Object({
  access_token: t.String(),
  refresh_token: t.String(),
  user: UserResponse,
});

export const ActivationResponse = t.Object({
  message: t.String(),
  user: t.Object({
    username: t.String(),
    NIM: t.Nullable(t.String()),
    nama: t.String(),
    jurusan: t.String(),
    angkatan: t.String(),
    kelas: t.String(),
    nip_doswal: t.String(),
  }),
});
