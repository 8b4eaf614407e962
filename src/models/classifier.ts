import type { Level } from "../skrining/scoring";

export type ModelType = "stress" | "motivasi";

/**
 * A model's inputs, by the feature names the bundles use: S1..S40 and M1..M28, `IPK`,
 * `Usia`, `Angkatan` (numbers or null when unknown) and `Jurusan`, `Gender`,
 * `freq_olahraga`, `durasi_tidur` (strings or null).
 */
export type ModelFeatures = Record<string, number | string | null>;

export interface Classification {
  level: Level;
  /** The model record that decided, kept with the screening for tracing. */
  modelId: number;
  /** The model's probability of `level` (0–1), or null when the model kind gives none. */
  probability: number | null;
}

/**
 * What the questionnaire asks a prediction model. `null` (or a throw) means "no usable
 * model": the caller then applies the threshold fallback of interface rule 7. The
 * implementation backed by the model records is `RegistryClassifier` (registry.ts).
 */
export interface Classifier {
  classify(type: ModelType, features: ModelFeatures): Classification | null;
}
