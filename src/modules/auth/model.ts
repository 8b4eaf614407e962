import { t } from "elysia";
import { passwordRule } from "../../accounts/password-rule";
import { UserResponse } from "../../auth/user";


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
