import { t } from "elysia";

// Request bodies are read leniently (anything that is not a JSON object is `{}`) and
// checked by the service with the interface's exact texts and order; these schemas
// describe the documented fields for the OpenAPI document.
const anyValue = (description: string) => t.Optional(t.Any({ description }));

export const CredentialsBody = t.Object(
  {
    username: anyValue("string, trimmed, required"),
    password: anyValue("string, required"),
  },
  { additionalProperties: true },
);

export const PasswordChangeBody = t.Object(
  {
    old_password: anyValue("string, required"),
    new_password: anyValue("string, 8 characters to 72 bytes"),
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
