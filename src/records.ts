import type { catatanKonseling, diaryEntries, mahasiswa, moodEntries, riwayatSkrining } from "./db/schema";

// The serialized keys of decisions §2, in one place for every module that returns records.

export function serializeMahasiswa(row: typeof mahasiswa.$inferSelect) {
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

export function serializeSkrining(row: typeof riwayatSkrining.$inferSelect, options: { withAnswers?: boolean } = {}) {
  const record: {
    Id_skrining: number;
    NIM: string;
    tanggal_skrining: string;
    tingkat_stres: typeof row.tingkatStres;
    tingkat_motivasi: typeof row.tingkatMotivasi;
    saran: string;
    score_stress: number;
    score_sdi: number;
    input_jawaban?: Record<string, unknown>;
  } = {
    Id_skrining: row.id,
    NIM: row.nim,
    tanggal_skrining: row.tanggal,
    tingkat_stres: row.tingkatStres,
    tingkat_motivasi: row.tingkatMotivasi,
    saran: row.saran,
    score_stress: row.scoreStress,
    score_sdi: row.scoreSdi,
  };
  if (options.withAnswers) record.input_jawaban = JSON.parse(row.inputJawaban);
  return record;
}

export function serializeCatatan(row: typeof catatanKonseling.$inferSelect) {
  return {
    Id_catatan: row.id,
    NIM: row.nim,
    NIP: row.nip,
    isi_catatan: row.isi,
    tanggal_catat: row.tanggalCatat,
    reply: row.reply,
    tanggal_reply: row.tanggalReply,
    status: row.reply ? ("sudah_dibalas" as const) : ("belum_dibalas" as const),
  };
}

export function serializeMood(row: typeof moodEntries.$inferSelect) {
  return { id: row.id, nim: row.nim, date: row.date, mood_value: row.moodValue, created_at: row.createdAt, updated_at: row.updatedAt };
}

export function serializeDiary(row: typeof diaryEntries.$inferSelect) {
  return { id: row.id, nim: row.nim, date: row.date, title: row.title, content: row.content, created_at: row.createdAt, updated_at: row.updatedAt };
}

/** UTC now as ISO 8601 with milliseconds and `Z`, the one timestamp format stored. */
export const nowIso = () => new Date().toISOString();
