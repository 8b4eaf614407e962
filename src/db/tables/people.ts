// The accounts and the people behind them: students, lecturers, their departments, an
// account's sessions and its acknowledgements of the privacy notice.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { insertedAt } from "./columns";

export const jurusan = sqliteTable("jurusan", {
  id: integer("Id_Jurusan").primaryKey({ autoIncrement: true }),
  nama: text("nama_jurusan").notNull().unique(),
});

export const roles = ["mahasiswa", "dosen", "admin"] as const;
export type Role = (typeof roles)[number];

export const users = sqliteTable(
  "users",
  {
    id: integer("Id_User").primaryKey({ autoIncrement: true }),
    username: text("username").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: roles }).notNull(),
    isActivated: integer("is_activated", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull().default(insertedAt),
    /** Decisions §14: since when `accounts deactivate` shut the account out (no login, no activation); null while it may sign in. */
    disabledAt: text("disabled_at"),
    /** A one-time password set by an admin's reset: the owner must replace it at the next sign-in. */
    mustChangePassword: integer("must_change_password", { mode: "boolean" }).notNull().default(false),
    /** Decisions §21: when a one-time password stops opening the account (72 hours after the reset); null for any other password. */
    passwordExpiresAt: text("password_expires_at"),
  },
  (table) => [
    check("users_role_check", sql`${table.role} IN ('mahasiswa', 'dosen', 'admin')`),
    index("users_role_index").on(table.role),
  ],
);

export const dosen = sqliteTable("dosen", {
  nip: text("NIP").primaryKey(),
  nama: text("nama_dosen").notNull().default(""),
  userId: integer("Id_User")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "restrict" }),
  /** A telephone/WhatsApp number the lecturer gives their advisees (decisions §19); null when none. */
  telepon: text("telepon"),
});

export const mahasiswa = sqliteTable(
  "mahasiswa",
  {
    nim: text("NIM").primaryKey(),
    nama: text("nama_mahasiswa"),
    userId: integer("Id_User")
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "restrict" }),
    jurusanId: integer("id_jurusan").references(() => jurusan.id, { onDelete: "set null" }),
    angkatan: text("angkatan"),
    kelas: text("kelas"),
    nipDoswal: text("NIP_doswal").references(() => dosen.nip, { onDelete: "set null", onUpdate: "cascade" }),
    ipk: real("IPK"),
    usia: integer("usia"),
    gender: text("gender"),
    freqOlahraga: text("freq_olahraga"),
    durasiTidur: text("durasi_tidur"),
    fotoProfil: text("foto_profil"),
    /** UU PDP: processing restricted since this moment (`privacy restrict`); null when not restricted. */
    restrictedAt: text("dibatasi_sejak"),
  },
  (table) => [
    check("mahasiswa_ipk_check", sql`${table.ipk} IS NULL OR (${table.ipk} >= 0 AND ${table.ipk} <= 4)`),
    // The restriction is in the index too, so that the statistics, which leave restricted
    // students out, still read one lecturer's advisees from the index alone.
    index("mahasiswa_nip_doswal_index").on(table.nipDoswal, table.nim, table.restrictedAt),
  ],
);

/**
 * One login: its access and refresh tokens carry the session id (decisions §9). Logout ends
 * the session, a password change ends every session of the user; a token of an ended
 * session is refused. Rows are purged once their refresh token has expired. Only the
 * SHA-256 of the id is stored (decisions §21): a copy of the database (a backup) names no
 * session a token could carry.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: integer("Id_User")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull(),
    /** Unix seconds: when the session's refresh token expires. */
    expiresAt: integer("expires_at").notNull(),
    endedAt: text("ended_at"),
  },
  (table) => [index("sessions_user_index").on(table.userId), index("sessions_expires_index").on(table.expiresAt)],
);

/** A student's acknowledgement of a version of the privacy notice. */
export const privacyAcknowledgements = sqliteTable(
  "privacy_acknowledgements",
  {
    userId: integer("Id_User")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    noticeVersion: text("notice_version").notNull(),
    acknowledgedAt: text("acknowledged_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.noticeVersion] })],
);
