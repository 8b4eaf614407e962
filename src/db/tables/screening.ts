// Screenings, the models that classify them, and the summaries derived from them for the
// lecturers' lists and statistics (kept by the triggers of src/db/summaries.ts).
import { desc, sql } from "drizzle-orm";
import { blob, check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { changeDirections } from "../../measurement/reliability";
import { stressKeys } from "../../skrining/scoring";
import { insertedAt, levels } from "./columns";
import { mahasiswa } from "./people";

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
    createdAt: text("created_at").notNull().default(insertedAt),
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
    tingkatStres: text("tingkat_stres", { enum: levels }).notNull(),
    tingkatMotivasi: text("tingkat_motivasi", { enum: levels }).notNull(),
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
    // Decisions §20, each computed in the submission's job (docs/measurement.md).
    /**
     * Why to read this screening with caution (src/measurement/validity.ts): the reasons
     * joined by commas, "" when none. Null for a row the service did not write (the sqlite3
     * shell), which nobody judged and which the reliability sums leave out.
     */
    validitasAlasan: text("validitas_alasan"),
    /** The client's `durasi_detik`: seconds from the first item to sending; null when not sent. */
    durasiDetik: real("durasi_detik"),
    /** The reliable change of score_stress from the student's previous screening; null for the first (and before migration 0017). */
    perubahanAndal: text("perubahan_andal", { enum: changeDirections }),
    /** Percentiles (0–100) among the latest screenings of the last 365 days; null below 100 students (and before migration 0017). */
    persentilStres: integer("persentil_stres"),
    persentilMotivasi: integer("persentil_motivasi"),
    /** The optional safety question's answer (1–5); null when it was not asked or not answered. */
    jawabanKeselamatan: integer("jawaban_keselamatan"),
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

/** A student's screenings newest first, the higher Id_skrining first within one tanggal: the order every list and every "latest" reads, which the index above serves. */
export const newestScreeningFirst = [desc(riwayatSkrining.tanggal), desc(riwayatSkrining.id)] as const;

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
  tingkatStres: text("tingkat_stres", { enum: levels }).notNull(),
  tingkatMotivasi: text("tingkat_motivasi", { enum: levels }).notNull(),
  isSpike: integer("is_spike", { mode: "boolean" }).notNull(),
  earlyWarning: integer("early_warning", { mode: "boolean" }).notNull(),
  /** The latest screening's score_stress: the `stres_sangat_tinggi` threshold is a setting, so it is compared when read. */
  scoreStress: real("score_stress"),
  /** The latest screening's score_sdi: the norm group's counts are rebuilt from these rows (decisions §20). */
  scoreSdi: real("score_sdi"),
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
    tingkatStres: text("tingkat_stres", { enum: levels }).notNull(),
    tingkatMotivasi: text("tingkat_motivasi", { enum: levels }).notNull(),
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

/**
 * Decisions §20: the running sums Cronbach's α and the SD of score_stress are computed from,
 * over every screening the service judged (validitas_alasan not null), in two one-row
 * tables (src/db/measures.ts reads them together: the sums are the first less the second).
 * The submission's job adds its screening here, to a blob it reads and writes whole: as 83
 * columns the same addition cost seven times as much (issue 45), and a trigger, which would
 * read the answers out of the JSON text, eight times.
 */
export const stressItemSums = sqliteTable(
  "stress_item_sums",
  {
    id: integer("id").primaryKey(),
    /**
     * A new random value at every change of the screenings the measures read: the job's own
     * addition, and (by triggers) a deletion, an edit, or a screening another writer inserted.
     * A job that keeps the sums and the norm group in memory knows by it whether they are
     * still the database's.
     */
    version: integer("version").notNull().default(0),
    /**
     * What the jobs added: 83 numbers as little-endian float64 (every sum is an integer below
     * 2^53, which a float64 holds exactly): the screenings, Σ score_stress, Σ score_stress²,
     * Σ S1…S40, Σ S1²…S40².
     */
    added: blob("added", { mode: "buffer" }).notNull(),
  },
  (table) => [check("stress_item_sums_one_row", sql`${table.id} = 1`)],
);

/**
 * Decisions §20: what deletions took out of the running sums (a trigger, src/db/summaries.ts,
 * whichever statement deletes a judged screening: SQL cannot edit the blob above), in the
 * same order as columns. One row (id 1).
 */
export const stressItemSumsRemoved = sqliteTable(
  "stress_item_sums_removed",
  {
    id: integer("id").primaryKey(),
    screenings: integer("screenings").notNull().default(0),
    totalSum: integer("total_sum").notNull().default(0),
    totalSquares: integer("total_squares").notNull().default(0),
    ...Object.fromEntries(stressKeys.map((key) => [`${key}Sum`, integer(`${key.toLowerCase()}_sum`).notNull().default(0)])),
    ...Object.fromEntries(stressKeys.map((key) => [`${key}Squares`, integer(`${key.toLowerCase()}_squares`).notNull().default(0)])),
  },
  (table) => [check("stress_item_sums_removed_one_row", sql`${table.id} = 1`)],
);

/**
 * Decisions §20: how many students have a screening (the rows of latest_skrining, kept by its
 * triggers): reliable change uses the faculty's own α and SD from 100 on. One row (id 1).
 */
export const latestSkriningSummary = sqliteTable(
  "latest_skrining_summary",
  {
    id: integer("id").primaryKey(),
    students: integer("students").notNull().default(0),
  },
  (table) => [check("latest_skrining_summary_one_row", sql`${table.id} = 1`)],
);

/**
 * Decisions §20: the optional safety question, off until an admin turns it on
 * (`skrining safety on --contact NAME --phone NUMBER`, the console's Teks page) with the
 * person who answers the same day. One row (id 1); in the database, so that the
 * submission's job reads it in its own transaction on whichever thread runs it.
 */
export const pertanyaanKeselamatan = sqliteTable(
  "pertanyaan_keselamatan",
  {
    id: integer("id").primaryKey(),
    aktif: integer("aktif", { mode: "boolean" }).notNull().default(false),
    namaKontak: text("nama_kontak"),
    teleponKontak: text("telepon_kontak"),
    diubahPada: text("diubah_pada"),
  },
  (table) => [check("pertanyaan_keselamatan_one_row", sql`${table.id} = 1`)],
);
