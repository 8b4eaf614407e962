import { desc, eq, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import type { WriteQueue } from "../../db/write-queue";
import { jurusan, latestSkrining, lecturerLatestLevels, lecturerWeeklyLevels, mahasiswa, riwayatSkrining, tindakLanjut, tindakLanjutRiwayat } from "../../db/schema";
import { ServiceError, forbidden, invalid, notFound } from "../../errors";
import { type JsonObject, requestedNim } from "../../requests/values";
import type { Logger } from "../../logger";
import type { Classifier, ModelFeatures, ModelType } from "../../models/classifier";
import { nowIso } from "../../records";
import {
  fallbackMotivationLevel,
  fallbackStressLevel,
  motivationKeys,
  readAnswers,
  scoreSdi,
  scoreStress,
  stressKeys,
  type Answers,
  type Level,
} from "../../screening/scoring";
import { suggestionsFor } from "../../screening/suggestions";
import type { Principal } from "../../requests/principal";
import { restrictionMessages } from "../../privacy/restriction";
import { CaseOpening } from "../tindak-lanjut/opening";
import { FollowUpReachReader } from "../tindak-lanjut/reach";
import { preparedOnFirstUse } from "../../db/prepared";

const weekMilliseconds = 7 * 24 * 3600 * 1000;
const dayMilliseconds = 24 * 3600 * 1000;

const submissionMessages = {
  studentUnknown: "Data mahasiswa tidak ditemukan.",
  weeklyLimit: "Batasan Mingguan",
  jawabanNotObject: "jawaban harus berupa objek.",
} as const;

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

/** The habits a questionnaire may carry, which the student's profile takes over. */
const habitKeys = ["freq_olahraga", "durasi_tidur"] as const;

function optionalProfileText(jawaban: JsonObject, key: (typeof habitKeys)[number]): string | undefined {
  if (!(key in jawaban)) return undefined;
  const value = jawaban[key];
  if (typeof value !== "string" || value.length > 50) throw invalid(`${key} harus teks maksimal 50 karakter.`);
  return value;
}

/** What a submission writes, its summary triggers' tables included (the case it may open too). */
const screeningTables = [riwayatSkrining, latestSkrining, lecturerWeeklyLevels, lecturerLatestLevels, tindakLanjut, tindakLanjutRiwayat];
const withHabits = [...screeningTables, mahasiswa];

/**
 * The tables a submission with these answers may write: the student's row only when the
 * answers carry a habit (optionalProfileText), so that otherwise the caches of accounts
 * (every request's caller) keep what they hold.
 */
export const submissionTables = (jawaban: unknown) =>
  jawaban !== null && typeof jawaban === "object" && habitKeys.some((key) => key in jawaban) ? withHabits : screeningTables;

/**
 * Questionnaire submission, interface rules 1–8 in their order. The weekly check, the
 * profile update and the insert run as one job of a group commit (an IMMEDIATE transaction,
 * one savepoint per submission): two submissions by one student are serialised and only
 * the first can pass the weekly check, and a rejected submission writes nothing. A
 * screening that raises an early warning or a very high stress score opens the student's
 * follow-up case in the same job, and the answer says whether a person was alerted.
 */
export class SubmissionService {
  // Prepared once: building and preparing these on every submission cost more than running them.
  private readonly latestSubmission;
  private readonly studentForScreening;
  private readonly jurusanName;
  private readonly updateHabits;
  private readonly insertRecord;
  private readonly caseOpening;
  private readonly followUpReach;

  constructor(
    db: DatabaseClient,
    private readonly writes: WriteQueue,
    private readonly classifier: Classifier,
    private readonly logger: Logger,
    followUpStressMin: number,
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
    // Only what a screening reads of the student, flat (the whole nested profile cost twice
    // as much), and the programme's name by its own lookup (a join cost more than both).
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
        })
        .returning({ id: riwayatSkrining.id })
        .prepare(),
    );
    this.caseOpening = new CaseOpening(db.$client, followUpStressMin);
    this.followUpReach = new FollowUpReachReader(db.$client);
  }

  lastSubmissionOf(nim: string): string | undefined {
    return this.latestSubmission.get({ nim })?.tanggal;
  }

  /** Settles once the record is committed to disk together with its group (see WriteQueue). */
  async submit(principal: Principal, body: JsonObject) {
    const nim = requestedNim(principal, body.NIM);
    if (nim === null) throw notFound(submissionMessages.studentUnknown);
    const touches = submissionTables(body.jawaban);
    return this.writes.run(() => {
      const student = this.studentForScreening.get({ nim });
      if (!student) throw notFound(submissionMessages.studentUnknown);
      // An admin does not submit for a student whose processing is restricted.
      if (principal.role !== "mahasiswa" && student.restrictedAt !== null) throw forbidden(restrictionMessages.staffRefused);

      if (principal.role === "mahasiswa") {
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

      const jawaban = body.jawaban;
      if (jawaban === null || typeof jawaban !== "object" || Array.isArray(jawaban)) throw invalid(submissionMessages.jawabanNotObject);
      const answers = readAnswers(jawaban as JsonObject);
      const freqOlahraga = optionalProfileText(jawaban as JsonObject, "freq_olahraga");
      const durasiTidur = optionalProfileText(jawaban as JsonObject, "durasi_tidur");
      const profile = { ...student, freqOlahraga: freqOlahraga ?? student.freqOlahraga, durasiTidur: durasiTidur ?? student.durasiTidur };
      if (freqOlahraga !== undefined || durasiTidur !== undefined) {
        this.updateHabits.run({ nim, freqOlahraga: profile.freqOlahraga, durasiTidur: profile.durasiTidur });
      }

      const stressScore = scoreStress(answers);
      const sdi = scoreSdi(answers);
      const jurusanNama = student.jurusanId === null ? null : (this.jurusanName.get({ id: student.jurusanId })?.nama ?? null);
      const features = modelFeatures(answers, profile, jurusanNama);
      const stress = this.classify("stress", features, fallbackStressLevel(stressScore));
      const motivasi = this.classify("motivasi", features, fallbackMotivationLevel(sdi));
      const suggestions = suggestionsFor(stress.level, motivasi.level);

      const tanggal = nowIso();
      const record = this.insertRecord.get({
        nim,
        tanggal,
        inputJawaban: JSON.stringify(jawaban),
        tingkatStres: stress.level,
        tingkatMotivasi: motivasi.level,
        saran: suggestions.saran,
        scoreStress: stressScore,
        scoreSdi: sdi,
        stressModelId: stress.modelId,
        motivasiModelId: motivasi.modelId,
        stressProbability: stress.probability,
        motivasiProbability: motivasi.probability,
      })!;
      // In the same job: the screening and the case it raises are committed together or not at all.
      this.caseOpening.openIfFlagged(nim, record.id, tanggal);
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
      };
    }, { touches });
  }

  /** A model's answer, or the thresholds when there is none or it fails (logged, never a 500). */
  private classify(type: ModelType, features: ModelFeatures, fallback: Level): { level: Level; modelId: number | null; probability: number | null } {
    try {
      const result = this.classifier.classify(type, features);
      if (result) return result;
    } catch (error) {
      this.logger.error(`model ${type} gagal, memakai ambang batas: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { level: fallback, modelId: null, probability: null };
  }
}

/** Model inputs from the answers and the profile, named and typed as the bundles expect. */
export function modelFeatures(
  answers: Answers,
  profile: Pick<typeof mahasiswa.$inferSelect, "angkatan" | "ipk" | "usia" | "gender" | "freqOlahraga" | "durasiTidur">,
  jurusanNama: string | null,
): ModelFeatures {
  const features: ModelFeatures = {};
  stressKeys.forEach((key, index) => (features[key] = answers.stress[index]!));
  motivationKeys.forEach((key, index) => (features[key] = answers.motivation[index]!));
  const angkatan = profile.angkatan !== null && /^\d{4}$/.test(profile.angkatan) ? Number(profile.angkatan) : null;
  Object.assign(features, {
    IPK: profile.ipk,
    Usia: profile.usia,
    Angkatan: angkatan,
    Jurusan: jurusanNama,
    Gender: profile.gender,
    freq_olahraga: profile.freqOlahraga,
    durasi_tidur: profile.durasiTidur,
  });
  return features;
}
