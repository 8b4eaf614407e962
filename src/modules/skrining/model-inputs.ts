import type { ModelFeatures } from "../../models/classifier";
import { motivationKeys, stressKeys, type Answers, type Level } from "../../skrining/scoring";

// What a classification is made from: the student's profile as the models read it, with the
// answers; the same on the service's thread (predictions ahead of the job) and in the job.

/** One output's classification: the model's, or the thresholds' (no model id, no probability). */
export interface Classified {
  level: Level;
  modelId: number | null;
  probability: number | null;
}

/** A screening's two classifications. */
export interface Predictions {
  stress: Classified;
  motivasi: Classified;
}

/** The levels of interface rule 7's thresholds, for when no model answers. */
export interface Fallbacks {
  stress: Level;
  motivasi: Level;
}

/**
 * What a classification reads of the student, the questionnaire's habits taken over: with
 * the answers, everything the model inputs are made of.
 */
export interface ProfileInputs {
  angkatan: string | null;
  ipk: number | null;
  usia: number | null;
  gender: string | null;
  freqOlahraga: string | null;
  durasiTidur: string | null;
  jurusanNama: string | null;
}

/** What a submission is classified from, and what it falls back to. */
export interface ClassificationInputs {
  features: ModelFeatures;
  fallbacks: Fallbacks;
}

/** Where a recording gets its classifications: the models, asked in the job. */
export type Predictor = (inputs: ClassificationInputs) => Predictions;

/** Model inputs from the answers and the profile, named and typed as the bundles expect. */
export function modelFeatures(
  answers: Answers,
  profile: Omit<ProfileInputs, "jurusanNama">,
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
