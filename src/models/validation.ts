import type { Database } from "bun:sqlite";
import { brierScore, calibrationBins, confusion, type CalibrationBin, type Confusion, type Forecast } from "../measurement/agreement";
import { fallbackMotivationLevel, fallbackStressLevel, type Level } from "../skrining/scoring";
import type { ModelType } from "./classifier";

// Decisions §20, local validation (`skrining model validate`, the console's Model page): the
// active model and the threshold rules against the handlers' judgements. A closed case's
// `perlu_dukungan` (§19) is the outcome of the screening that opened it; no other screening
// has one. docs/measurement.md says what this can and cannot tell.

export const validationTypes: readonly ModelType[] = ["stress", "motivasi"];

/** Said first in every format: who has an outcome, and so what the figures describe. */
export const selectionCaveat =
  "Hanya skrining yang membuka tindak lanjut dan sudah ditutup dengan penilaian penangan (perlu_dukungan) yang punya hasil. " +
  "Skrining lain tidak pernah dinilai, dan yang membuka kasus adalah yang sudah tampak berisiko: angka di bawah ini menggambarkan kelompok itu, " +
  "bukan semua mahasiswa. Sensitivitas terlihat lebih tinggi dan spesifisitas lebih rendah daripada yang sebenarnya, " +
  "dan mahasiswa yang perlu dukungan tetapi tidak pernah tertangkap skrining tidak terhitung sama sekali.";

/**
 * How a level becomes a yes/no call for one row: the call is positive when the screening's
 * level is at least as worrying as the row's. Stress worsens upwards (Rendah < Sedang <
 * Tinggi), motivation downwards (Tinggi < Sedang < Rendah). The row of the mildest level calls
 * every screening positive: its ppv is the share of `ya`, the base rate the others compare with.
 */
const worry: Record<ModelType, Record<Level, number>> = {
  stress: { Rendah: 0, Sedang: 1, Tinggi: 2 },
  motivasi: { Tinggi: 0, Sedang: 1, Rendah: 2 },
};
const rowLevels: Record<ModelType, readonly Level[]> = { stress: ["Rendah", "Sedang", "Tinggi"], motivasi: ["Tinggi", "Sedang", "Rendah"] };
const positiveWhen: Record<ModelType, Record<Level, string>> = {
  stress: { Rendah: "Rendah, Sedang atau Tinggi", Sedang: "Sedang atau Tinggi", Tinggi: "Tinggi" },
  motivasi: { Tinggi: "Tinggi, Sedang atau Rendah", Sedang: "Sedang atau Rendah", Rendah: "Rendah" },
};
const calls = (type: ModelType, level: Level, row: Level) => worry[type][level] >= worry[type][row];

export interface LevelRow extends Confusion {
  tingkat: Level;
  /** The levels whose screenings this row calls positive (predicting perlu_dukungan = ya). */
  positif_bila: string;
}

export interface CalibrationRow {
  tingkat: Level;
  n: number;
  brier: number | null;
  bin: CalibrationBin[];
}

export interface ModelValidation {
  id: number;
  algoritma: string;
  versi: string;
  /** Screenings with an outcome that this model classified (its own stored levels and probabilities). */
  n: number;
  per_tingkat: LevelRow[];
  /** Null when the model gave no probabilities for them (`keterangan` says so). */
  kalibrasi: CalibrationRow[] | null;
  keterangan: string[];
}

export interface TypeValidation {
  jenis: ModelType;
  /** Screenings with an outcome, and how many of them were judged `ya` and `tidak`. */
  n: number;
  ya: number;
  tidak: number;
  aturan_ambang: { n: number; per_tingkat: LevelRow[] };
  /** Null when no model of this type is active (`keterangan` says so). */
  model: ModelValidation | null;
  keterangan: string[];
}

export interface ValidationReport {
  catatan_bias_seleksi: string;
  jenis: TypeValidation[];
}

interface Outcome {
  scoreStress: number;
  scoreSdi: number;
  tingkatStres: Level;
  tingkatMotivasi: Level;
  stressModelId: number | null;
  motivasiModelId: number | null;
  stressProbability: number | null;
  motivasiProbability: number | null;
  ya: number;
}

export const validationNotes = {
  noModel: "Tidak ada model aktif untuk jenis ini: hanya aturan ambang yang dinilai.",
  noOutcomes: "Belum ada skrining dengan hasil: tidak ada tindak lanjut yang ditutup dengan penilaian perlu_dukungan.",
  noProbabilities: "Model ini tidak memberi probabilitas untuk skrining yang dinilainya: kalibrasi dan skor Brier tidak dapat dihitung.",
  notClassified: "Model aktif belum mengklasifikasikan satu pun skrining yang punya hasil.",
} as const;

function levelRows(type: ModelType, pairs: readonly { level: Level; ya: boolean }[]): LevelRow[] {
  return rowLevels[type].map((row) => ({
    tingkat: row,
    positif_bila: positiveWhen[type][row],
    ...confusion(pairs.map((pair) => ({ predicted: calls(type, pair.level, row), actual: pair.ya }))),
  }));
}

/**
 * The model's probability of the level it gave, read per row as its probability that its
 * call there is right: p when the call is positive, 1 − p when it is not (docs/measurement.md).
 */
function calibrationRows(type: ModelType, forecasts: readonly { level: Level; probability: number; ya: boolean }[]): CalibrationRow[] {
  return rowLevels[type].map((row) => {
    const perRow: Forecast[] = forecasts.map((forecast) => ({
      probability: calls(type, forecast.level, row) ? forecast.probability : 1 - forecast.probability,
      actual: forecast.ya,
    }));
    return { tingkat: row, n: perRow.length, brier: brierScore(perRow), bin: calibrationBins(perRow) };
  });
}

export class ModelValidator {
  constructor(private readonly sqlite: Database) {}

  /** Every closed case's judgement with the screening that opened it; restricted students' cases left out, as in the figures. */
  private outcomes(): Outcome[] {
    return this.sqlite
      .query<Outcome, []>(
        `SELECT screening.score_stress AS scoreStress, screening.score_sdi AS scoreSdi, screening.tingkat_stres AS tingkatStres, screening.tingkat_motivasi AS tingkatMotivasi,
           screening.stress_model_id AS stressModelId, screening.motivasi_model_id AS motivasiModelId,
           screening.stress_probability AS stressProbability, screening.motivasi_probability AS motivasiProbability, follow_up.perlu_dukungan AS ya
         FROM tindak_lanjut AS follow_up
         JOIN riwayat_skrining AS screening ON screening.Id_skrining = follow_up.Id_skrining
         WHERE follow_up.status = 'selesai' AND follow_up.perlu_dukungan IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM mahasiswa AS student WHERE student.NIM = follow_up.NIM AND student.dibatasi_sejak IS NOT NULL)
         ORDER BY follow_up.Id_tindak_lanjut`,
      )
      .all();
  }

  private activeModel(type: ModelType) {
    return this.sqlite
      .query<{ id: number; algoritma: string; versi: string }, [string]>("SELECT id, algorithm AS algoritma, version AS versi FROM prediction_models WHERE type = ? AND is_active = 1")
      .get(type);
  }

  validate(types: readonly ModelType[] = validationTypes): ValidationReport {
    const outcomes = this.outcomes();
    return { catatan_bias_seleksi: selectionCaveat, jenis: types.map((type) => this.ofType(type, outcomes)) };
  }

  private ofType(type: ModelType, outcomes: readonly Outcome[]): TypeValidation {
    const stress = type === "stress";
    const ya = outcomes.filter((outcome) => outcome.ya === 1).length;
    // The threshold rules' levels, from the stored scores (interface rule 7), whatever classified the screening then.
    const rules = outcomes.map((outcome) => ({ level: stress ? fallbackStressLevel(outcome.scoreStress) : fallbackMotivationLevel(outcome.scoreSdi), ya: outcome.ya === 1 }));
    const active = this.activeModel(type);
    return {
      jenis: type,
      n: outcomes.length,
      ya,
      tidak: outcomes.length - ya,
      aturan_ambang: { n: rules.length, per_tingkat: levelRows(type, rules) },
      model: active ? this.ofModel(type, active, outcomes) : null,
      keterangan: [...(outcomes.length === 0 ? [validationNotes.noOutcomes] : []), ...(active ? [] : [validationNotes.noModel])],
    };
  }

  /** The model's own stored levels and probabilities, for the screenings it classified (not predicted again: the profile then is not kept). */
  private ofModel(type: ModelType, model: { id: number; algoritma: string; versi: string }, outcomes: readonly Outcome[]): ModelValidation {
    const stress = type === "stress";
    const classified = outcomes
      .filter((outcome) => (stress ? outcome.stressModelId : outcome.motivasiModelId) === model.id)
      .map((outcome) => ({
        level: stress ? outcome.tingkatStres : outcome.tingkatMotivasi,
        probability: stress ? outcome.stressProbability : outcome.motivasiProbability,
        ya: outcome.ya === 1,
      }));
    const forecasts = classified.filter((entry): entry is { level: Level; probability: number; ya: boolean } => entry.probability !== null);
    const keterangan = classified.length === 0 ? [validationNotes.notClassified] : forecasts.length === 0 ? [validationNotes.noProbabilities] : [];
    return {
      ...model,
      n: classified.length,
      per_tingkat: levelRows(type, classified),
      kalibrasi: forecasts.length === 0 ? null : calibrationRows(type, forecasts),
      keterangan,
    };
  }
}
