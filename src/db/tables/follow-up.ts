// Follow-up cases (tindak lanjut) and their timelines (decisions: Follow-up cases).
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { dosen, mahasiswa } from "./people";
import { riwayatSkrining } from "./screening";

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
