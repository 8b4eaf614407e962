import { desc, eq, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import {
  jurusan,
  latestSkrining,
  latestSkriningSummary,
  lecturerLatestLevels,
  lecturerWeeklyLevels,
  mahasiswa,
  riwayatSkrining,
  stressItemSums,
  stressItemSumsRemoved,
  tindakLanjut,
  tindakLanjutRiwayat,
  type Role,
} from "../../db/schema";
import { ServiceError, forbidden, notFound } from "../../errors";
import { addDays, localDate, localDayStart } from "../../local-time";
import { judgeValidity, storedValidity } from "../../measurement/validity";
import { fallbackMotivationLevel, fallbackStressLevel, scoreSdi, scoreStress } from "../../skrining/scoring";
import { isCriticalAnswer } from "../../skrining/safety-question";
import { suggestionsFor } from "../../skrining/suggestions";
import { restrictionMessages } from "../../privasi/restriction";
import { CaseOpening } from "../tindak-lanjut/opening";
import type { TindakLanjutReachReader } from "../tindak-lanjut/reach";
import { preparedOnFirstUse } from "../../db/prepared";
import { habitKeys, readDuration, readQuestionnaire, readSafetyAnswer, type ReadAnswers, type SubmissionExtras } from "./answers";
import { ScreeningMeasures, type SafetyContact } from "./measures";
import { modelFeatures, type Predictor, type ProfileInputs } from "./model-inputs";

const weekMilliseconds = 7 * 24 * 3600 * 1000;
const dayMilliseconds = 24 * 3600 * 1000;

const submissionMessages = {
  studentUnknown: "Data mahasiswa tidak ditemukan.",
  weeklyLimit: "Batasan Mingguan",
} as const;

/** The 404 of a questionnaire for a student who does not exist. */
export const studentUnknown = () => notFound(submissionMessages.studentUnknown);

/** What the student is told while the weekly limit holds, by can_submit and by the questionnaire. */
export const weeklyLimitMessage = (daysRemaining: number) =>
  `Anda sudah mengisi kuesioner dalam 7 hari terakhir. Silakan isi kembali dalam ${daysRemaining} hari.`;

/** The weekly rule as can_submit and the questionnaire both state it. */
export function weeklyWindow(lastSubmission: string | undefined, now = Date.now()) {
  if (lastSubmission === undefined) return { blocked: false as const };
  const elapsed = now - Date.parse(lastSubmission);
  if (elapsed >= weekMilliseconds) return { blocked: false as const };
  const daysRemaining = Math.max(0, 7 - Math.floor(Math.max(0, elapsed) / dayMilliseconds));
  return { blocked: true as const, lastSubmission, daysRemaining };
}

/** What a submission writes, its summary triggers' tables included (the case it may open too). */
const screeningTables = [riwayatSkrining, latestSkrining, lecturerWeeklyLevels, lecturerLatestLevels, stressItemSums, stressItemSumsRemoved, latestSkriningSummary, tindakLanjut, tindakLanjutRiwayat];
const withHabits = [...screeningTables, mahasiswa];

/**
 * The tables a submission with these answers may write: the student's row only when the
 * answers carry a habit (optionalProfileText), so that otherwise the caches of accounts
 * (every request's caller) keep what they hold.
 */
export const submissionTables = (jawaban: unknown) =>
  jawaban !== null && typeof jawaban === "object" && habitKeys.some((key) => key in jawaban) ? withHabits : screeningTables;

/** Only what a screening reads of the student, flat (the whole nested profile cost twice as much). */
type ScreeningStudent = Omit<ProfileInputs, "jurusanNama"> & { restrictedAt: string | null; jurusanId: number | null };

const profileOf = (student: ScreeningStudent, read: ReadAnswers, jurusanNama: string | null): ProfileInputs => ({
  angkatan: student.angkatan,
  ipk: student.ipk,
  usia: student.usia,
  gender: student.gender,
  freqOlahraga: read.freqOlahraga ?? student.freqOlahraga,
  durasiTidur: read.durasiTidur ?? student.durasiTidur,
  jurusanNama,
});

function classificationInputs(read: ReadAnswers, profile: ProfileInputs) {
  const stressScore = scoreStress(read.answers);
  const sdi = scoreSdi(read.answers);
  return {
    stressScore,
    sdi,
    inputs: {
      // Made only when a model is asked (not when the thresholds classify).
      get features() {
        return modelFeatures(read.answers, profile, profile.jurusanNama);
      },
      fallbacks: { stress: fallbackStressLevel(stressScore), motivasi: fallbackMotivationLevel(sdi) },
    },
  };
}

/** What a submission's answer says (interface: the 201 of POST /api/mahasiswa/kuesioner). */
export type SubmissionResult = ReturnType<ScreeningRecorder["record"]>;

/** What the recorder is set up with: the `stres_sangat_tinggi` threshold, and the faculty's zone, whose day a critical answer's contact target ends with. */
export interface RecorderSettings {
  followUpStressMin: number;
  timeZone: string;
}

/**
 * Decisions §20: the student to be contacted the same day: by its last moment in the
 * faculty's zone (the millisecond before the next day begins, so that the date shown is
 * that day's).
 */
export const sameDayTarget = (now: number, timeZone: string) => new Date(localDayStart(addDays(localDate(now, timeZone), 1), timeZone) - 1).toISOString();

/** Whom a student with a critical answer is pointed to first: the contact the safety question was turned on with. */
export const urgentHelp = (safety: SafetyContact) => ({ nama: safety.namaKontak, telepon: safety.teleponKontak });

/**
 * Questionnaire submission, interface rules 1–8 in their order: what one job of a group
 * commit does (an IMMEDIATE transaction, one savepoint per submission). Two
 * submissions by one student are serialised and only the first can pass the weekly check,
 * and a rejected submission writes nothing. A screening that raises an early warning or a
 * very high stress score opens the student's follow-up case in the same job, and the
 * answer says whether a person was alerted.
 */
export class ScreeningRecorder {
  // Prepared once: building and preparing these on every submission cost more than running them.
  private readonly latestSubmission;
  private readonly studentForScreening;
  private readonly jurusanName;
  private readonly updateHabits;
  private readonly insertRecord;
  private readonly caseOpening;
  private readonly measures;

  constructor(
    db: DatabaseClient,
    private readonly settings: RecorderSettings,
    private readonly followUpReach: TindakLanjutReachReader,
  ) {
    this.latestSubmission = preparedOnFirstUse(() =>
      db
        .select({ tanggal: riwayatSkrining.tanggal })
        .from(riwayatSkrining)
        .where(eq(riwayatSkrining.nim, sql.placeholder("nim")))
        .orderBy(desc(riwayatSkrining.tanggal))
        .limit(1)
        .prepare(),
    );
    // The programme's name by its own lookup: a join cost more than both.
    this.studentForScreening = preparedOnFirstUse(() =>
      db
        .select({
          restrictedAt: mahasiswa.restrictedAt,
          angkatan: mahasiswa.angkatan,
          ipk: mahasiswa.ipk,
          usia: mahasiswa.usia,
          gender: mahasiswa.gender,
          freqOlahraga: mahasiswa.freqOlahraga,
          durasiTidur: mahasiswa.durasiTidur,
          jurusanId: mahasiswa.jurusanId,
        })
        .from(mahasiswa)
        .where(eq(mahasiswa.nim, sql.placeholder("nim")))
        .prepare(),
    );
    this.jurusanName = preparedOnFirstUse(() =>
      db
        .select({ nama: jurusan.nama })
        .from(jurusan)
        .where(eq(jurusan.id, sql.placeholder("id")))
        .prepare(),
    );
    this.updateHabits = preparedOnFirstUse(() =>
      db
        .update(mahasiswa)
        .set({ freqOlahraga: sql`${sql.placeholder("freqOlahraga")}`, durasiTidur: sql`${sql.placeholder("durasiTidur")}` })
        .where(eq(mahasiswa.nim, sql.placeholder("nim")))
        .prepare(),
    );
    this.insertRecord = preparedOnFirstUse(() =>
      db
        .insert(riwayatSkrining)
        .values({
          nim: sql.placeholder("nim"),
          tanggal: sql.placeholder("tanggal"),
          inputJawaban: sql.placeholder("inputJawaban"),
          tingkatStres: sql.placeholder("tingkatStres"),
          tingkatMotivasi: sql.placeholder("tingkatMotivasi"),
          saran: sql.placeholder("saran"),
          scoreStress: sql.placeholder("scoreStress"),
          scoreSdi: sql.placeholder("scoreSdi"),
          stressModelId: sql.placeholder("stressModelId"),
          motivasiModelId: sql.placeholder("motivasiModelId"),
          stressProbability: sql.placeholder("stressProbability"),
          motivasiProbability: sql.placeholder("motivasiProbability"),
          validitasAlasan: sql.placeholder("validitasAlasan"),
          durasiDetik: sql.placeholder("durasiDetik"),
          perubahanAndal: sql.placeholder("perubahanAndal"),
          persentilStres: sql.placeholder("persentilStres"),
          persentilMotivasi: sql.placeholder("persentilMotivasi"),
          jawabanKeselamatan: sql.placeholder("jawabanKeselamatan"),
        })
        .returning({ id: riwayatSkrining.id })
        .prepare(),
    );
    this.caseOpening = new CaseOpening(db.$client, settings.followUpStressMin);
    this.measures = new ScreeningMeasures(db.$client);
  }

  lastSubmissionOf(nim: string): string | undefined {
    return this.latestSubmission.get({ nim })?.tanggal;
  }

  /**
   * The job: call inside a transaction of the write queue. `extras`: the top-level values
   * beside `jawaban` (decisions §20).
   */
  record(role: Role, nim: string, jawaban: unknown, predict: Predictor, extras: SubmissionExtras = {}) {
    const student = this.studentForScreening.get({ nim });
    if (!student) throw studentUnknown();
    // An admin does not submit for a student whose processing is restricted.
    if (role !== "mahasiswa" && student.restrictedAt !== null) throw forbidden(restrictionMessages.staffRefused);

    if (role === "mahasiswa") {
      const window = weeklyWindow(this.lastSubmissionOf(nim));
      if (window.blocked) {
        throw new ServiceError("forbidden", submissionMessages.weeklyLimit, {
          body: {
            message: weeklyLimitMessage(window.daysRemaining),
            last_submission_date: window.lastSubmission,
            days_remaining: window.daysRemaining,
          },
        });
      }
    }

    const read = readQuestionnaire(jawaban);
    const before = this.measures.read(nim);
    const durasiDetik = readDuration(extras.durasiDetik);
    const jawabanKeselamatan = readSafetyAnswer(extras.jawabanKeselamatan, before.safetyOn);
    const profile = profileOf(student, read, this.jurusanNameOf(student.jurusanId));
    const { stressScore, sdi, inputs } = classificationInputs(read, profile);
    const { stress, motivasi } = predict(inputs);
    if (read.freqOlahraga !== undefined || read.durasiTidur !== undefined) {
      this.updateHabits.run({ nim, freqOlahraga: profile.freqOlahraga, durasiTidur: profile.durasiTidur });
    }
    const suggestions = suggestionsFor(stress.level, motivasi.level);

    const now = Date.now();
    const tanggal = new Date(now).toISOString();
    const validity = judgeValidity([read.answers.stress, read.answers.motivation], durasiDetik);
    const measured = this.measures.measure(before, read.answers, stressScore, sdi, now, tanggal);
    try {
      const record = this.insertRecord.get({
        nim,
        tanggal,
        inputJawaban: JSON.stringify(read.jawaban),
        tingkatStres: stress.level,
        tingkatMotivasi: motivasi.level,
        saran: suggestions.saran,
        scoreStress: stressScore,
        scoreSdi: sdi,
        stressModelId: stress.modelId,
        motivasiModelId: motivasi.modelId,
        stressProbability: stress.probability,
        motivasiProbability: motivasi.probability,
        validitasAlasan: storedValidity(validity),
        durasiDetik,
        perubahanAndal: measured.perubahanAndal,
        persentilStres: measured.persentilStres,
        persentilMotivasi: measured.persentilMotivasi,
        jawabanKeselamatan,
      })!;
      // In the same job: the screening and the case it raises are committed together or not at all.
      const critical = isCriticalAnswer(jawabanKeselamatan);
      this.caseOpening.openIfFlagged(nim, record.id, tanggal, {
        // Decisions §20: a reliably worse score that ends at Sedang or Tinggi.
        reliablyWorse: measured.perubahanAndal === "memburuk" && stress.level !== "Rendah",
        smallestReliableChange: measured.reliability.smallestReliableChange,
        critical: critical ? { answer: jawabanKeselamatan!, target: sameDayTarget(now, this.settings.timeZone) } : null,
      });
      this.measures.settled();
      return {
        message: "Kuesioner berhasil disimpan.",
        Id_skrining: record.id,
        tingkat_stres: stress.level,
        tingkat_motivasi: motivasi.level,
        score_stress: stressScore,
        score_sdi: sdi,
        saran: suggestions.saran,
        detailed_suggestions: suggestions.detailed_suggestions,
        tindak_lanjut: this.followUpReach.of(nim, record.id),
        validitas: validity,
        perubahan_andal: measured.perubahanAndal,
        persentil_stres: measured.persentilStres,
        persentil_motivasi: measured.persentilMotivasi,
        bantuan_segera: critical ? urgentHelp(this.measures.safetyContact()) : null,
      };
    } catch (error) {
      this.measures.forget();
      throw error;
    }
  }

  private jurusanNameOf(id: number | null): string | null {
    return id === null ? null : (this.jurusanName.get({ id })?.nama ?? null);
  }
}
