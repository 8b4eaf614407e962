import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Column names follow the interface's field names so that the database and the wire
// format read alike; the TypeScript property names are English.

const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

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
    createdAt: text("created_at").notNull().default(nowIso),
    /** Decisions §14: since when `accounts deactivate` shut the account out (no login, no activation); null while it may sign in. */
    disabledAt: text("disabled_at"),
    /** A one-time password set by an admin's reset: the owner must replace it at the next sign-in. */
    mustChangePassword: integer("must_change_password", { mode: "boolean" }).notNull().default(false),
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

const level = ["Rendah", "Sedang", "Tinggi"] as const;

export const predictionModels = sqliteTable(
  "prediction_models",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    type: text("type", { enum: ["stress", "motivasi"] }).notNull(),
    filePath: text("file_path").notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(false),
    thresholds: text("thresholds", { mode: "json" }),
    algorithm: text("algorithm").notNull(),
    version: text("version").notNull(),
    inputFeatures: text("input_features", { mode: "json" }).notNull(),
    categories: text("categories", { mode: "json" }),
    metrics: text("metrics", { mode: "json" }),
    sourceSha256: text("source_sha256").notNull(),
    createdAt: text("created_at").notNull().default(nowIso),
  },
  (table) => [
    check("prediction_models_type_check", sql`${table.type} IN ('stress', 'motivasi')`),
    // At most one active model per type, enforced by the database itself.
    uniqueIndex("prediction_models_one_active_index").on(table.type).where(sql`${table.isActive} = 1`),
  ],
);

export const riwayatSkrining = sqliteTable(
  "riwayat_skrining",
  {
    id: integer("Id_skrining").primaryKey({ autoIncrement: true }),
    nim: text("NIM")
      .notNull()
      .references(() => mahasiswa.nim, { onDelete: "restrict", onUpdate: "cascade" }),
    tanggal: text("tanggal_skrining").notNull(),
    inputJawaban: text("input_jawaban").notNull(),
    tingkatStres: text("tingkat_stres", { enum: level }).notNull(),
    tingkatMotivasi: text("tingkat_motivasi", { enum: level }).notNull(),
    saran: text("saran").notNull(),
    scoreStress: real("score_stress").notNull(),
    scoreSdi: real("score_sdi").notNull(),
    // The model records that classified this screening; null means the threshold fallback.
    stressModelId: integer("stress_model_id").references(() => predictionModels.id, { onDelete: "set null" }),
    motivasiModelId: integer("motivasi_model_id").references(() => predictionModels.id, { onDelete: "set null" }),
    // The model's probability of the level it gave (0–1); null under the threshold fallback,
    // for a model kind without probabilities, and for screenings made before they were kept.
    stressProbability: real("stress_probability"),
    motivasiProbability: real("motivasi_probability"),
  },
  (table) => [
    check("riwayat_tingkat_stres_check", sql`${table.tingkatStres} IN ('Rendah', 'Sedang', 'Tinggi')`),
    check("riwayat_tingkat_motivasi_check", sql`${table.tingkatMotivasi} IN ('Rendah', 'Sedang', 'Tinggi')`),
    // A student's screenings in order, Id_skrining breaking ties in tanggal, with the levels
    // and the stress score: the summary triggers find the latest screening and the one
    // before it (a spike), and the summaries are refilled, from this index alone.
    index("riwayat_nim_tanggal_levels_index").on(table.nim, table.tanggal, table.id, table.tingkatStres, table.tingkatMotivasi, table.scoreStress),
    index("riwayat_tanggal_index").on(table.tanggal),
  ],
);

/**
 * Each student's latest screening (newest tanggal, ties to the highest Id_skrining), with
 * whether it is a spike and an early warning. Derived from riwayat_skrining and kept by
 * the triggers of src/db/summaries.ts; never written by application code. Its migration
 * makes it WITHOUT ROWID, which drizzle cannot declare (see 0002_lecturer_summaries.sql).
 */
export const latestSkrining = sqliteTable("latest_skrining", {
  nim: text("NIM").primaryKey(),
  id: integer("Id_skrining").notNull(),
  tanggal: text("tanggal_skrining").notNull(),
  tingkatStres: text("tingkat_stres", { enum: level }).notNull(),
  tingkatMotivasi: text("tingkat_motivasi", { enum: level }).notNull(),
  isSpike: integer("is_spike", { mode: "boolean" }).notNull(),
  earlyWarning: integer("early_warning", { mode: "boolean" }).notNull(),
  /** The latest screening's score_stress: the `stres_sangat_tinggi` threshold is a setting, so it is compared when read. */
  scoreStress: real("score_stress"),
  /** The lecturer the student is counted under: their advisor, null while their processing is restricted (or without one). */
  nip: text("NIP"),
}, (table) => [
  // A lecturer's screened advisees, newest latest screening first (ties by NIM), with what
  // asks for attention: `sort=risk` walks it and stops at the page (src/modules/dosen/risk-pages.ts).
  index("latest_skrining_nip_tanggal_index").on(table.nip, sql`${table.tanggal} DESC`, table.nim, table.earlyWarning, table.scoreStress),
]);

/**
 * Per lecturer, how many of their (unrestricted) advisees' latest screenings have each pair
 * of levels: the statistics of a lecturer in a few rows, however many advisees and
 * screenings. Kept by triggers on latest_skrining (src/db/summaries.ts); WITHOUT ROWID.
 */
export const lecturerLatestLevels = sqliteTable(
  "lecturer_latest_levels",
  {
    nip: text("NIP").notNull(),
    tingkatStres: text("tingkat_stres", { enum: level }).notNull(),
    tingkatMotivasi: text("tingkat_motivasi", { enum: level }).notNull(),
    students: integer("students").notNull(),
  },
  (table) => [primaryKey({ columns: [table.nip, table.tingkatStres, table.tingkatMotivasi] })],
);

/**
 * Per lecturer and week (the date of its Monday in the faculty's time zone), the level
 * counts of the screenings made that week by the lecturer's current advisees. Derived like latest_skrining: moving a
 * student to another lecturer moves their weeks with them. WITHOUT ROWID as well.
 */
export const lecturerWeeklyLevels = sqliteTable(
  "lecturer_weekly_levels",
  {
    nip: text("NIP").notNull(),
    weekStart: text("week_start").notNull(),
    stressRendah: integer("stress_rendah").notNull(),
    stressSedang: integer("stress_sedang").notNull(),
    stressTinggi: integer("stress_tinggi").notNull(),
    motivasiRendah: integer("motivasi_rendah").notNull(),
    motivasiSedang: integer("motivasi_sedang").notNull(),
    motivasiTinggi: integer("motivasi_tinggi").notNull(),
  },
  (table) => [primaryKey({ columns: [table.nip, table.weekStart] })],
);

/**
 * The faculty time zone's UTC offsets over time (src/local-time.ts): the summary triggers
 * read the offset in force at a screening's moment to find its local week. `serve` fills
 * it for its zone (recounting the weeks when the zone changed); `zone` names that zone.
 */
export const timeZoneOffsets = sqliteTable("time_zone_offsets", {
  startsAt: integer("starts_at").primaryKey(),
  offsetMinutes: integer("offset_minutes").notNull(),
  zone: text("zone").notNull(),
});

export const catatanKonseling = sqliteTable(
  "catatan_konseling",
  {
    id: integer("Id_catatan").primaryKey({ autoIncrement: true }),
    nim: text("NIM")
      .notNull()
      .references(() => mahasiswa.nim, { onDelete: "restrict", onUpdate: "cascade" }),
    nip: text("NIP")
      .notNull()
      .references(() => dosen.nip, { onDelete: "restrict", onUpdate: "cascade" }),
    isi: text("isi_catatan").notNull(),
    tanggalCatat: text("tanggal_catat").notNull(),
    reply: text("reply").notNull().default(""),
    tanggalReply: text("tanggal_reply"),
    /** When the note's student first opened it (decisions §13); null while unread. */
    dibacaMahasiswaPada: text("dibaca_mahasiswa_pada"),
    /** When the note's lecturer first saw the reply as it stands; null while unseen, and again after the student edits it. */
    balasanDibacaDosenPada: text("balasan_dibaca_dosen_pada"),
  },
  (table) => [
    index("catatan_nim_index").on(table.nim, table.tanggalCatat),
    index("catatan_nip_index").on(table.nip),
  ],
);

export const moodEntries = sqliteTable(
  "mood_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    nim: text("nim")
      .notNull()
      .references(() => mahasiswa.nim, { onDelete: "restrict", onUpdate: "cascade" }),
    date: text("date").notNull(),
    moodValue: integer("mood_value").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    check("mood_value_check", sql`${table.moodValue} BETWEEN 1 AND 5`),
    uniqueIndex("mood_nim_date_index").on(table.nim, table.date),
  ],
);

export const diaryEntries = sqliteTable(
  "diary_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    nim: text("nim")
      .notNull()
      .references(() => mahasiswa.nim, { onDelete: "restrict", onUpdate: "cascade" }),
    date: text("date").notNull(),
    title: text("title").notNull().default(""),
    content: text("content").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("diary_nim_date_index").on(table.nim, table.date, table.createdAt)],
);

/**
 * One login: its access and refresh tokens carry the session id (decisions §9). Logout ends
 * the session, a password change ends every session of the user; a token of an ended
 * session is refused. Rows are purged once their refresh token has expired.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
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

/** What an audit row records (decisions: Privacy and audit). */
export { auditActions, type AuditAction } from "../audit/actions";
import { auditActions } from "../audit/actions";

/**
 * Append-only: triggers refuse UPDATE and DELETE (migration 0005). Each row's `hash` is
 * SHA-256 over its content, its students and the previous row's hash, so a row changed or
 * removed by editing the file is found by `skrining audit verify`. No foreign keys: the
 * trail outlives the accounts and students it names. Rows of `format` 2 (migration 0011)
 * keep their students in audit_subjects and no actor name (looked up when shown, decisions
 * §16); rows of format 1, written before, keep `nim` and `actor_name` as they were hashed.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: text("at").notNull(),
    actorUserId: integer("actor_user_id"),
    actorUsername: text("actor_username"),
    /** `mahasiswa`, `dosen`, `admin`, `cli` (a command on the PC) or `anonim` (a failed login). */
    actorRole: text("actor_role").notNull(),
    actorName: text("actor_name"),
    clientAddress: text("client_address"),
    action: text("action", { enum: auditActions }).notNull(),
    nim: text("nim"),
    /** The route (`GET /api/dosen/mahasiswa/:nim`) or the command (`skrining privacy erase`). */
    target: text("target").notNull(),
    detail: text("detail"),
    /** How many identical reads the row stands for (decisions: Audit trail); 1 for every other action. */
    reads: integer("reads").notNull().default(1),
    previousHash: text("previous_hash").notNull(),
    hash: text("hash").notNull(),
    /** 1: written before migration 0011 (`nim`, `actor_name`); 2: students in audit_subjects, no name. */
    format: integer("format").notNull().default(1),
  },
  (table) => [
    index("audit_log_actor_index").on(table.actorUsername, table.id),
    index("audit_log_at_index").on(table.at),
    index("audit_log_action_index").on(table.action, table.id),
  ],
);

/**
 * The students each audit row concerns, one row per student: what `data-saya` and
 * `audit list --nim` read, by NIM. Append-only like the trail; a row of the trail hashes
 * its students, so one added or removed here is found by `audit verify`. WITHOUT ROWID
 * (its migration), so a student's rows sit together in primary-key order.
 */
export const auditSubjects = sqliteTable(
  "audit_subjects",
  {
    nim: text("nim").notNull(),
    auditId: integer("audit_id").notNull(),
  },
  (table) => [primaryKey({ columns: [table.nim, table.auditId] }), index("audit_subjects_row_index").on(table.auditId, table.nim)],
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

/** A follow-up case's status (decisions: Follow-up cases); every status but `selesai` is open. */
export const followUpStatuses = ["baru", "dihubungi", "dirujuk", "selesai"] as const;
export type FollowUpStatus = (typeof followUpStatuses)[number];

/**
 * A follow-up case (tindak lanjut): opened by a screening that raised an early warning, a
 * sudden change or a very high stress score. `NIP` is its handler (penangan): the student's
 * advisor when it opens, another lecturer once an admin hands it over, null when the
 * student has no advisor (then only admins act on it). A student has at most one open
 * case, enforced by the database itself.
 */
export const tindakLanjut = sqliteTable(
  "tindak_lanjut",
  {
    id: integer("Id_tindak_lanjut").primaryKey({ autoIncrement: true }),
    nim: text("NIM")
      .notNull()
      .references(() => mahasiswa.nim, { onDelete: "restrict", onUpdate: "cascade" }),
    nip: text("NIP").references(() => dosen.nip, { onDelete: "set null", onUpdate: "cascade" }),
    /** Stress Tinggi with motivation Rendah. */
    earlyWarning: integer("alasan_early_warning", { mode: "boolean" }).notNull(),
    /** score_stress at least 30 above the previous screening. */
    suddenChange: integer("alasan_perubahan_mendadak", { mode: "boolean" }).notNull(),
    /** score_stress at or above the follow-up threshold (decisions §13, 160 by default). */
    veryHighStress: integer("alasan_stres_sangat_tinggi", { mode: "boolean" }).notNull().default(false),
    /** The screening that opened the case; null once a purge removed it. */
    skriningId: integer("Id_skrining").references(() => riwayatSkrining.id, { onDelete: "set null" }),
    status: text("status", { enum: followUpStatuses }).notNull(),
    dibukaPada: text("dibuka_pada").notNull(),
    /** The first move out of `baru` in the current episode (a reopening clears it). */
    pertamaDihubungiPada: text("pertama_dihubungi_pada"),
    ditutupPada: text("ditutup_pada"),
    diperbaruiPada: text("diperbarui_pada").notNull(),
  },
  (table) => [
    check("tindak_lanjut_status_check", sql`${table.status} IN ('baru', 'dihubungi', 'dirujuk', 'selesai')`),
    check("tindak_lanjut_alasan_check", sql`${table.earlyWarning} = 1 OR ${table.suddenChange} = 1 OR ${table.veryHighStress} = 1`),
    uniqueIndex("tindak_lanjut_one_open_index").on(table.nim).where(sql`${table.status} <> 'selesai'`),
    index("tindak_lanjut_nip_index").on(table.nip, table.status, table.dibukaPada),
    // The cases of one student, whatever their status: their advisor's list and the advisor scope read it.
    index("tindak_lanjut_nim_index").on(table.nim, table.status),
  ],
);

/**
 * A case's timeline: its opening, every status change and every reassignment, each with an
 * internal note (staff only, never shown to the student), its author and time. The author
 * is kept by id and name without a foreign key, so the timeline outlives the account.
 */
export const tindakLanjutRiwayat = sqliteTable(
  "tindak_lanjut_riwayat",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    caseId: integer("Id_tindak_lanjut")
      .notNull()
      .references(() => tindakLanjut.id, { onDelete: "cascade" }),
    /** Null for the automatic opening. */
    statusDari: text("status_dari", { enum: followUpStatuses }),
    statusKe: text("status_ke", { enum: followUpStatuses }).notNull(),
    catatan: text("catatan").notNull(),
    /** The author's account; null for the automatic opening. */
    authorUserId: integer("Id_User"),
    authorName: text("nama").notNull(),
    waktu: text("waktu").notNull(),
  },
  (table) => [
    check("tindak_lanjut_riwayat_catatan_check", sql`length(${table.catatan}) BETWEEN 1 AND 2000`),
    index("tindak_lanjut_riwayat_case_index").on(table.caseId, table.id),
    index("tindak_lanjut_riwayat_waktu_index").on(table.waktu),
  ],
);
