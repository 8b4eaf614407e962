import { Type } from "@sinclair/typebox";
import { t, type Static } from "elysia";
import type { catatanKonseling, diaryEntries, mahasiswa, moodEntries, riwayatSkrining } from "./db/schema";
import { changeDirections, type ChangeDirection } from "./measurement/reliability";
import { readValidity, validityReasons, type ValidityReason } from "./measurement/validity";

// The serialized records of decisions §2, each once: its schema (the OpenAPI document and
// the response check) beside the function that builds it from a row, typed by that schema,
// so that the two cannot drift apart. Integers are TypeBox's own: Elysia's `t.Integer` also
// accepts a string of digits (meant for query strings), which no record holds.

export const level = t.Union([t.Literal("Rendah"), t.Literal("Sedang"), t.Literal("Tinggi")]);

/** Decisions §20: whether a screening's answers can be read as they stand. */
export const ValidityRecord = t.Object(
  {
    status: t.Union([t.Literal("baik"), t.Literal("hati_hati")], { description: "`hati_hati`: read with caution (the screening is classified and opens cases like any other)" }),
    alasan: t.Array(Type.Unsafe<ValidityReason>(t.String({ enum: [...validityReasons] })), {
      description: "jawaban_seragam: one answer throughout a scale; terlalu_cepat: under 2 seconds an item by durasi_detik; pola_berulang: one answer over 20 or more consecutive items",
    }),
  },
  { additionalProperties: false },
);

export const MahasiswaRecord = t.Object(
  {
    NIM: t.String(),
    nama_mahasiswa: t.Nullable(t.String()),
    kelas: t.Nullable(t.String()),
    id_jurusan: t.Nullable(Type.Integer()),
    IPK: t.Nullable(t.Number()),
    NIP_doswal: t.Nullable(t.String()),
    Id_User: Type.Integer(),
    foto_profil: t.Nullable(t.String()),
    angkatan: t.Nullable(t.String()),
    gender: t.Nullable(t.String()),
    usia: t.Nullable(Type.Integer()),
    freq_olahraga: t.Nullable(t.String()),
    durasi_tidur: t.Nullable(t.String()),
  },
  { additionalProperties: false },
);

export function serializeMahasiswa(row: typeof mahasiswa.$inferSelect): Static<typeof MahasiswaRecord> {
  return {
    NIM: row.nim,
    nama_mahasiswa: row.nama,
    kelas: row.kelas,
    id_jurusan: row.jurusanId,
    IPK: row.ipk,
    NIP_doswal: row.nipDoswal,
    Id_User: row.userId,
    foto_profil: row.fotoProfil,
    angkatan: row.angkatan,
    gender: row.gender,
    usia: row.usia,
    freq_olahraga: row.freqOlahraga,
    durasi_tidur: row.durasiTidur,
  };
}

export const SkriningRecord = t.Object(
  {
    Id_skrining: Type.Integer(),
    NIM: t.String(),
    tanggal_skrining: t.String(),
    tingkat_stres: level,
    tingkat_motivasi: level,
    saran: t.String(),
    score_stress: t.Number(),
    score_sdi: t.Number(),
    probabilitas_stres: t.Nullable(t.Number({ description: "the model's probability (0–1) of tingkat_stres; null under the thresholds or when the model gives none" })),
    probabilitas_motivasi: t.Nullable(t.Number({ description: "the model's probability (0–1) of tingkat_motivasi; null as probabilitas_stres" })),
    // Decisions §20, additions (docs/measurement.md):
    validitas: t.Nullable(ValidityRecord, { description: "null only for a screening the service did not write (the sqlite3 shell), which nobody judged" }),
    // A nullable enum as a string whose enum names null too (a union of literals loses null beside it in the document).
    perubahan_andal: Type.Unsafe<ChangeDirection | null>(
      t.Nullable(
        t.String({
          enum: [...changeDirections, null],
          description: "the reliable change (Jacobson–Truax) of score_stress from the student's previous screening; null for the first screening, and for screenings stored before it was computed",
        }),
      ),
    ),
    persentil_stres: t.Nullable(Type.Integer({ minimum: 0, maximum: 100, description: "where score_stress sat among the latest screenings of the faculty's students in the last 365 days (higher: more stress)" })),
    persentil_motivasi: t.Nullable(Type.Integer({ minimum: 0, maximum: 100, description: "the same for score_sdi (higher: more self-determined motivation); both null below 100 students" })),
    durasi_detik: t.Nullable(t.Number({ description: "seconds the client reports from the first item to sending; null when not sent" })),
    jawaban_keselamatan: t.Nullable(Type.Integer({ minimum: 1, maximum: 5, description: "the optional safety question's answer; null when it was not asked or not answered" })),
    // An object with any keys, checked as one (a Record would test every key of every answer sent).
    input_jawaban: t.Optional(t.Object({}, { additionalProperties: true, description: "the answers as submitted, by item key; detail views only" })),
  },
  { additionalProperties: false },
);

/** A screening as read; a list leaves its answers out (they are most of the row, and only detail views send them). */
export type ScreeningRow = Omit<typeof riwayatSkrining.$inferSelect, "inputJawaban"> & { inputJawaban?: string };

export function serializeSkrining(row: ScreeningRow, options: { withAnswers?: boolean } = {}): Static<typeof SkriningRecord> {
  const record: Static<typeof SkriningRecord> = {
    Id_skrining: row.id,
    NIM: row.nim,
    tanggal_skrining: row.tanggal,
    tingkat_stres: row.tingkatStres,
    tingkat_motivasi: row.tingkatMotivasi,
    saran: row.saran,
    score_stress: row.scoreStress,
    score_sdi: row.scoreSdi,
    probabilitas_stres: row.stressProbability,
    probabilitas_motivasi: row.motivasiProbability,
    validitas: readValidity(row.validitasAlasan),
    perubahan_andal: row.perubahanAndal,
    persentil_stres: row.persentilStres,
    persentil_motivasi: row.persentilMotivasi,
    durasi_detik: row.durasiDetik,
    jawaban_keselamatan: row.jawabanKeselamatan,
  };
  if (options.withAnswers) {
    if (row.inputJawaban === undefined) throw new Error("serializeSkrining: the screening's answers were not read");
    record.input_jawaban = JSON.parse(row.inputJawaban);
  }
  return record;
}

export const CatatanRecord = t.Object(
  {
    Id_catatan: Type.Integer(),
    NIM: t.String(),
    NIP: t.String(),
    isi_catatan: t.String(),
    tanggal_catat: t.String(),
    reply: t.String({ description: "empty until the student replies" }),
    tanggal_reply: t.Nullable(t.String()),
    status: t.Union([t.Literal("sudah_dibalas"), t.Literal("belum_dibalas")]),
    dibaca_mahasiswa_pada: t.Nullable(t.String({ description: "UTC; when the student first opened the note (its detail route); null while unread" })),
    balasan_dibaca_dosen_pada: t.Nullable(
      t.String({ description: "UTC; when the note's lecturer first saw the reply as it stands (the student's page); null while unseen, and again after the student edits it" }),
    ),
    nama_dosen: t.Nullable(t.String({ description: "the name of the lecturer who wrote the note (an addition); null when the lecturer has no name" })),
    balasan_baru: t.Boolean({
      description:
        "decisions §19: the reply is new for the lecturer reading it: the note's author, or the student's current advisor, until each has seen it as it stands (false for students and admins)",
    }),
  },
  { additionalProperties: false },
);

/** A note's row with the name of its lecturer (`dosen.nama_dosen`, empty or missing when unknown). */
export type CatatanRow = typeof catatanKonseling.$inferSelect & { namaDosen: string | null };

/** A note as the API answers it; `newForReader`: its reply is new for the lecturer reading it (decisions §19). */
export function serializeCatatan(row: CatatanRow, newForReader = false): Static<typeof CatatanRecord> {
  return {
    Id_catatan: row.id,
    NIM: row.nim,
    NIP: row.nip,
    isi_catatan: row.isi,
    tanggal_catat: row.tanggalCatat,
    reply: row.reply,
    tanggal_reply: row.tanggalReply,
    status: row.reply ? "sudah_dibalas" : "belum_dibalas",
    dibaca_mahasiswa_pada: row.dibacaMahasiswaPada,
    balasan_dibaca_dosen_pada: row.balasanDibacaDosenPada,
    nama_dosen: row.namaDosen || null,
    balasan_baru: newForReader,
  };
}

export const MoodEntry = t.Object(
  {
    id: Type.Integer(),
    nim: t.String(),
    date: t.String({ description: "YYYY-MM-DD" }),
    mood_value: Type.Integer({ minimum: 1, maximum: 5 }),
    created_at: t.String(),
    updated_at: t.String(),
  },
  { additionalProperties: false },
);

export function serializeMood(row: typeof moodEntries.$inferSelect): Static<typeof MoodEntry> {
  return { id: row.id, nim: row.nim, date: row.date, mood_value: row.moodValue, created_at: row.createdAt, updated_at: row.updatedAt };
}

export const DiaryEntry = t.Object(
  {
    id: Type.Integer(),
    nim: t.String(),
    date: t.String({ description: "YYYY-MM-DD" }),
    title: t.String(),
    content: t.String(),
    created_at: t.String(),
    updated_at: t.String(),
    dibagikan: t.Boolean({ description: "decisions §19: shared with the student's advisor (and the handler of her open case); staff read only shared entries" }),
  },
  { additionalProperties: false },
);

export function serializeDiary(row: typeof diaryEntries.$inferSelect): Static<typeof DiaryEntry> {
  return { id: row.id, nim: row.nim, date: row.date, title: row.title, content: row.content, created_at: row.createdAt, updated_at: row.updatedAt, dibagikan: row.dibagikan };
}

/** UTC now as ISO 8601 with milliseconds and `Z`, the one timestamp format stored. */
export const nowIso = () => new Date().toISOString();
