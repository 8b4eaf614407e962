import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { passwordRule } from "../../accounts/password-rule";

// Request bodies are documentation only (src/http/documentation.ts `jsonBody`): the
// services read them leniently and answer with the interface's own texts.

export const CredentialsBody = t.Object({
  username: t.String({ description: "trimmed; required" }),
  password: t.String({ description: "required" }),
});

export const ActivationBody = t.Object({
  ...CredentialsBody.properties,
  password_baru: t.Optional(t.String({ description: `decisions §14: the owner's own password, set in the same step (different from the initial one); the rule: ${passwordRule}` })),
});

export const PasswordChangeBody = t.Object({
  old_password: t.String({ description: "the current password" }),
  new_password: t.String({ description: `the rule: ${passwordRule}` }),
});

export const UserResponse = t.Object(
  {
    Id_User: Type.Integer(),
    username: t.String(),
    role: t.Union([t.Literal("mahasiswa"), t.Literal("dosen"), t.Literal("admin")]),
    created_at: t.String({ description: "ISO 8601, UTC" }),
    is_activated: t.Boolean(),
    NIM: t.Optional(t.String({ description: "a student with a profile" })),
    NIP: t.Optional(t.String({ description: "a lecturer with a profile" })),
    nama: t.Optional(t.Nullable(t.String({ description: "with NIM or NIP: the profile's name" }))),
    pergantian_dosen_wali: t.Optional(
      t.Object(
        {
          nama_sebelumnya: t.Nullable(t.String({ description: "the former advisor's name; null when the student had none (or a nameless one)" })),
          nama_baru: t.Nullable(t.String({ description: "the new advisor's name; null when the student now has none" })),
          tanggal: t.String({ description: "UTC, ISO 8601: when the advisor changed" }),
        },
        { additionalProperties: false, description: "decisions §19, an addition on `GET /api/auth/me` only: a student's change of advisor, for 14 days after it" },
      ),
    ),
    must_change_password: t.Optional(
      t.Literal(true, { description: "an addition, only when true: the account signed in with a one-time password an admin set, and must set its own (POST /api/auth/password)" }),
    ),
  },
  { additionalProperties: false },
);

export const LoginResponse = t.Object(
  {
    access_token: t.String({ description: "JWT for `Authorization: Bearer`" }),
    refresh_token: t.String({ description: "JWT for POST /api/auth/refresh only" }),
    user: UserResponse,
  },
  { additionalProperties: false },
);

export const RefreshResponse = t.Object({ access_token: t.String({ description: "a new access token of the same session" }) }, { additionalProperties: false });

export const ActivationResponse = t.Object(
  {
    message: t.String(),
    user: t.Object(
      {
        username: t.String(),
        NIM: t.Nullable(t.String({ description: "null unless a student with a profile" })),
        nama: t.String({ description: "the profile's name, else the username" }),
        jurusan: t.String({ description: "empty when unknown" }),
        angkatan: t.String({ description: "empty when unknown" }),
        kelas: t.String({ description: "empty when unknown" }),
        nip_doswal: t.String({ description: "empty when unknown" }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
