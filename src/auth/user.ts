import { Type } from "@sinclair/typebox";
import { t, type Static } from "elysia";
import type { Principal } from "../requests/principal";

// The signed-in account as the interface serializes it: its schema beside the function that
// builds it (the login's `user` and GET /api/auth/me).

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

/** The user's serialized form merged with role and the NIM/NIP and name of its profile (`GET /api/auth/me`, a login's `user`). */
export type SerializedUser = Static<typeof UserResponse>;

export function serializeUser(principal: Principal): SerializedUser {
  const serialized: SerializedUser = {
    Id_User: principal.id,
    username: principal.username,
    role: principal.role,
    created_at: principal.createdAt,
    is_activated: principal.isActivated,
  };
  if (principal.role === "mahasiswa" && principal.nim !== null) Object.assign(serialized, { NIM: principal.nim, nama: principal.nama });
  if (principal.role === "dosen" && principal.nip !== null) Object.assign(serialized, { NIP: principal.nip, nama: principal.nama });
  if (principal.mustChangePassword) serialized.must_change_password = true;
  return serialized;
}
