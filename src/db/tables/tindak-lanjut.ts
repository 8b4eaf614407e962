// Follow-up cases (tindak lanjut) and their timelines (decisions: Follow-up cases).
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { closingReasons, contactOutcomes, followUpStatuses } from "./tindak-lanjut-values";

export { followUpStatuses, type TindakLanjutStatus } from "./tindak-lanjut-values";
import { dosen, mahasiswa } from "./people";
import { riwayatSkrining } from "./screening";

/**
 * A follow-up case (tindak lanjut): opened by a screening that raised an early warning, a
 * sudden change or a very high stress score, or by the student's own request for contact
 * (decisions §19). `NIP` is its handler (penangan): the student's advisor when it opens,
 * another lecturer once an admin hands it over, null when the student has no advisor (then
 * only admins act on it). A student has at most one open case, enforced by the database
 * itself.
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
    /** The student asked to be contacted (POST /api/mahasiswa/minta-kontak, decisions §19). */
    studentRequest: integer("alasan_permintaan_mahasiswa", { mode: "boolean" }).notNull().default(false),
    /** Decisions §20: a reliably worse stress score that ended at Sedang or Tinggi. */
    reliablyWorse: integer("alasan_memburuk_andal", { mode: "boolean" }).notNull().default(false),
    /** Decisions §20: the safety question answered 3 or more. */
    criticalItem: integer("alasan_butir_kritis", { mode: "boolean" }).notNull().default(false),
    /**
     * Decisions §20: the same-day contact target a critical answer set (the end of that day
     * in the faculty's zone); cleared by a contact that reached the student, and by a
     * reopening. While set, the case is urgent, and late once the moment has passed.
     */
    batasKontakSegera: text("batas_kontak_segera"),
    /** The screening that opened the case; null once a purge removed it. */
    skriningId: integer("Id_skrining").references(() => riwayatSkrining.id, { onDelete: "set null" }),
    status: text("status", { enum: followUpStatuses }).notNull(),
    dibukaPada: text("dibuka_pada").notNull(),
    /** The first move out of `baru` in the current episode (a reopening clears it). */
    pertamaDihubungiPada: text("pertama_dihubungi_pada"),
    ditutupPada: text("ditutup_pada"),
    diperbaruiPada: text("diperbarui_pada").notNull(),
    /** Why the current episode was closed (decisions §19); null while open, and for a case closed before reasons were recorded. */
    alasanSelesai: text("alasan_selesai", { enum: closingReasons }),
    /** The handler's judgement at closing: the student needed support (the outcome §20 measures the screening by); null as alasan_selesai. */
    perluDukungan: integer("perlu_dukungan", { mode: "boolean" }),
    /** When the student's advisor (not the handler) first opened the case after it closed; null until then (`baru_ditutup`). */
    ditutupDilihatDoswalPada: text("ditutup_dilihat_doswal_pada"),
  },
  (table) => [
    check("tindak_lanjut_status_check", sql`${table.status} IN ('baru', 'dihubungi', 'dirujuk', 'selesai')`),
    check(
      "tindak_lanjut_alasan_check",
      sql`${table.earlyWarning} = 1 OR ${table.suddenChange} = 1 OR ${table.veryHighStress} = 1 OR ${table.studentRequest} = 1 OR ${table.reliablyWorse} = 1 OR ${table.criticalItem} = 1`,
    ),
    check("tindak_lanjut_alasan_selesai_check", sql`${table.alasanSelesai} IS NULL OR ${table.alasanSelesai} IN (${sql.raw(closingReasons.map((reason) => `'${reason}'`).join(", "))})`),
    uniqueIndex("tindak_lanjut_one_open_index").on(table.nim).where(sql`${table.status} <> 'selesai'`),
    index("tindak_lanjut_nip_index").on(table.nip, table.status, table.dibukaPada),
    // The cases of one student, whatever their status: their advisor's list and the advisor scope read it.
    index("tindak_lanjut_nim_index").on(table.nim, table.status),
  ],
);

/**
 * A case's timeline: its opening, every status change, contact attempt, reassignment and
 * request of the student, each with an internal note (staff only, never shown to the
 * student), its author and time. The author is kept by id and name without a foreign key,
 * so the timeline outlives the account.
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
    /** A contact attempt's outcome (every move to `dihubungi` since decisions §19); null on other entries and on earlier moves. */
    hasilKontak: text("hasil_kontak", { enum: contactOutcomes }),
    /** A closing's reason and judgement, kept here too so that a reopened case keeps its earlier episodes'. */
    alasanSelesai: text("alasan_selesai", { enum: closingReasons }),
    perluDukungan: integer("perlu_dukungan", { mode: "boolean" }),
    /** Decisions §20: the entry made the case urgent (a critical answer) with this same-day contact target; the weekly report reads past lateness from it. */
    batasKontakSegera: text("batas_kontak_segera"),
  },
  (table) => [
    check("tindak_lanjut_riwayat_catatan_check", sql`length(${table.catatan}) BETWEEN 1 AND 2000`),
    index("tindak_lanjut_riwayat_case_index").on(table.caseId, table.id),
    index("tindak_lanjut_riwayat_waktu_index").on(table.waktu),
  ],
);

/**
 * A student's requests to be contacted (POST /api/mahasiswa/minta-kontak, decisions §19):
 * at most one per 24 hours, each opening a case (`permintaan_mahasiswa`) or adding a
 * timeline entry to the open one. The student's own data: erased with them, in Data saya.
 */
export const permintaanKontak = sqliteTable(
  "permintaan_kontak",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    nim: text("NIM")
      .notNull()
      .references(() => mahasiswa.nim, { onDelete: "cascade", onUpdate: "cascade" }),
    /** The case it opened or was added to; null once that case is erased. */
    caseId: integer("Id_tindak_lanjut").references(() => tindakLanjut.id, { onDelete: "set null" }),
    pesan: text("pesan").notNull().default(""),
    waktu: text("waktu").notNull(),
  },
  (table) => [index("permintaan_kontak_nim_index").on(table.nim, table.waktu)],
);

/**
 * Every change of a student's advisor (decisions §19), written by the trigger that moves
 * the open cases (src/db/tindak-lanjut-advisor.ts): the student is told for 14 days, and the
 * former advisor's page says the student moved. The names are kept as they were then.
 */
export const pergantianDosenWali = sqliteTable(
  "pergantian_dosen_wali",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    nim: text("NIM")
      .notNull()
      .references(() => mahasiswa.nim, { onDelete: "cascade", onUpdate: "cascade" }),
    nipSebelumnya: text("NIP_sebelumnya").references(() => dosen.nip, { onDelete: "set null", onUpdate: "cascade" }),
    nipBaru: text("NIP_baru").references(() => dosen.nip, { onDelete: "set null", onUpdate: "cascade" }),
    namaSebelumnya: text("nama_sebelumnya"),
    namaBaru: text("nama_baru"),
    waktu: text("waktu").notNull(),
  },
  (table) => [index("pergantian_dosen_wali_nim_index").on(table.nim, table.waktu)],
);
