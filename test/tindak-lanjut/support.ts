import { riwayatSkrining } from "../../src/db/schema";
import { jawaban, snapshotFixture, type TestService } from "../helpers";
import { lecturerService, type Lecturers } from "../dosen/support";

// Shared pieces of the follow-up tests: answers that raise an early warning, a service
// whose N001 (advisee of D001) has an open case, and the case rows as stored.

const stressItems = (from: number, to: number, value: number) => Object.fromEntries(Array.from({ length: to - from + 1 }, (_, index) => [`S${from + index}`, value]));

/** Stress 140 (Tinggi, under the very-high threshold of 160) and an SDI of -12 (Rendah): an early warning by the levels. */
export const flaggedAnswers = jawaban(3, 1, { ...stressItems(1, 20, 4), M25: 7, M26: 7, M27: 7, M28: 7 });

/** Issue 25's student: 5 on every stress item (200, Tinggi) and 1 on every motivation item (SDI 0, Sedang): no early warning, very high stress. */
export const veryHighStressAnswers = jawaban(5, 1);

/** Stress `score` (the first items at 5, then 4s, the rest at 1... as needed) with an SDI of 0 (Sedang). */
export function stressScoring(score: number): Record<string, unknown> {
  const answers = jawaban(1, 1);
  let rest = score - 40;
  for (let item = 1; item <= 40 && rest > 0; item++) {
    const raise = Math.min(4, rest);
    answers[`S${item}`] = 1 + raise;
    rest -= raise;
  }
  return answers;
}

/** Stress 120 (Sedang), SDI 0 (Sedang): no warning by the levels. */
export const calmAnswers = jawaban(3, 2);

export const caseTexts = {
  unknown: "Tindak lanjut tidak ditemukan.",
  notAdvisee: "Mahasiswa bukan bimbingan Anda.",
  denied: "Akses ditolak.",
  anotherOpen: "Mahasiswa ini sudah memiliki tindak lanjut lain yang masih terbuka; kasus ini tidak dapat dibuka kembali.",
  handlerOnly: "Hanya penangan tindak lanjut ini atau admin yang dapat mengubah statusnya.",
  reopenAdvisorOnly: "Hanya dosen wali mahasiswa ini atau admin yang dapat membuka kembali tindak lanjut yang sudah selesai.",
  closedNotMovable: "Tindak lanjut yang sudah selesai tidak dapat dipindahkan; buka kembali dahulu bila mahasiswa perlu ditindaklanjuti lagi.",
  restricted:
    "Pemrosesan data mahasiswa ini sedang dibatasi atas permintaannya; dosen dan admin tidak dapat melihat atau mengubah datanya selama pembatasan berlaku.",
} as const;

export interface StoredCase {
  id: number;
  NIM: string;
  NIP: string | null;
  status: string;
  early: number;
  sudden: number;
  veryHigh: number;
  reliablyWorse: number;
  critical: number;
  skrining: number | null;
}

export const storedCases = (service: TestService): StoredCase[] =>
  service.context.db.$client
    .query<StoredCase, []>(
      `SELECT Id_tindak_lanjut AS id, NIM, NIP, status, alasan_early_warning AS early, alasan_perubahan_mendadak AS sudden, alasan_stres_sangat_tinggi AS veryHigh,
         alasan_memburuk_andal AS reliablyWorse, alasan_butir_kritis AS critical, Id_skrining AS skrining FROM tindak_lanjut ORDER BY Id_tindak_lanjut`,
    )
    .all();

export const storedTimeline = (service: TestService) =>
  service.context.db.$client
    .query<{ case_id: number; status_dari: string | null; status_ke: string; catatan: string; nama: string; Id_User: number | null }, []>(
      "SELECT Id_tindak_lanjut AS case_id, status_dari, status_ke, catatan, nama, Id_User FROM tindak_lanjut_riwayat ORDER BY id",
    )
    .all();

/** A screening of `nim` written straight into the table, as an earlier one (no case opens this way). */
export function earlierScreening(service: TestService, nim: string, tanggal: string, scoreStress: number): void {
  service.context.db
    .insert(riwayatSkrining)
    .values({ nim, tanggal, inputJawaban: "{}", tingkatStres: "Rendah", tingkatMotivasi: "Tinggi", saran: "saran", scoreStress, scoreSdi: 5 })
    .run();
}

/** Submits the questionnaire as the student of `token` (or, for an admin, for `nim`); fails the test on another status. */
export async function submit(service: TestService, token: string, answers: Record<string, unknown>, nim?: string): Promise<void> {
  const response = await service.request("POST", "/api/mahasiswa/kuesioner", { token, body: { jawaban: answers, ...(nim ? { NIM: nim } : {}) } });
  if (response.status !== 201) throw new Error(`kuesioner: ${response.status} ${JSON.stringify(response.body)}`);
}

/** The lecturer fixture with an open case for N001 (mhs1, advisee of D001); its id. Built once per test process and copied (snapshotFixture). */
export function serviceWithCase(): Promise<Lecturers & { caseId: number }> {
  return snapshotFixture("lecturers with a case", async () => {
    const lecturers = await lecturerService();
    await submit(lecturers.service, lecturers.tokens.mhs1, flaggedAnswers);
    const [opened] = storedCases(lecturers.service);
    if (!opened) throw new Error("no case opened");
    return { ...lecturers, caseId: opened.id };
  });
}

/**
 * A status body with what the move records (decisions §19): a reaching contact for
 * `dihubungi`, a reason and a judgement for `selesai`.
 */
export function moveBody(to: string, catatan: string): { status: string; catatan: string; hasil_kontak?: string; alasan_selesai?: string; perlu_dukungan?: string } {
  if (to === "dihubungi") return { status: to, catatan, hasil_kontak: "berhasil" };
  if (to === "selesai") return { status: to, catatan, alasan_selesai: "teratasi", perlu_dukungan: "tidak" };
  return { status: to, catatan };
}

/** Puts a case in a status directly (the start of a transition test). */
export function setStatus(service: TestService, caseId: number, status: string): void {
  service.context.db.$client.run(
    "UPDATE tindak_lanjut SET status = ?, ditutup_pada = CASE WHEN ? = 'selesai' THEN '2026-01-01T00:00:00.000Z' END WHERE Id_tindak_lanjut = ?",
    [status, status, caseId],
  );
}
