import type { InputType, ModelDocument } from "./format";
import { parseDecimal } from "../numbers";
import { compileEstimator, type CompiledEstimator } from "./predict-estimators";
import { compileTransform, startsWithImputer, type CompiledTransform } from "./predict-transforms";
import { PredictionError, estimatorInput, formatClassValue, invalidModel, type Cell, type ClassValue, type EstimatorOutput } from "./predict-values";

/** One output of a row: its text, whether it is a bare number, and each class's probability (or null). */
export interface RowOutput {
  text: string;
  isNumber: boolean;
  probabilities: Float64Array | null;
}

/**
 * Prediction exactly as scikit-learn's `predict`: preprocessing in float64
 * (predict-transforms.ts), then the trees (predict-estimators.ts).
 */

export class CompiledModel {
  readonly inputNames: string[];
  readonly inputTypes: InputType[];
  readonly nOutputs: number;
  /** Whether an empty number may reach the estimator, which routes it (HistGradientBoosting). */
  readonly acceptsMissing: boolean;
  private readonly inputIndex = new Map<string, number>();
  /** Inputs that may be missing because a SimpleImputer fills them first. */
  private readonly imputed: boolean[];
  private readonly parts: { columns: Int32Array; transform: CompiledTransform }[] | null;
  private readonly width: number;
  private readonly estimator: CompiledEstimator;
  private readonly labels: { numbers: Map<number, string>; texts: Map<string, string> } | null;
  /** classLabels' answers by output: every classification asks for its output's. */
  private readonly labelsOf: (readonly string[] | undefined)[] = [];

  constructor(readonly document: ModelDocument) {
    this.inputNames = document.inputs.map((input) => input.name);
    this.inputTypes = document.inputs.map((input) => input.type);
    this.inputNames.forEach((name, index) => {
      if (this.inputIndex.has(name)) invalidModel(`masukan ganda: ${name}`);
      this.inputIndex.set(name, index);
    });
    this.imputed = this.inputNames.map(() => false);
    this.estimator = compileEstimator(document.estimator, "estimator");
    this.nOutputs = this.estimator.nOutputs;
    this.acceptsMissing = this.estimator.acceptsMissing;
    if (this.nOutputs > 2) invalidModel(`model memprediksi ${this.nOutputs} keluaran; yang didukung 1 (satu jenis) atau 2 (stress, motivasi)`);

    if (document.preprocess) {
      let width = 0;
      this.parts = document.preprocess.parts.map((part) => {
        const columns = Int32Array.from(part.columns, (name) => this.inputIndex.get(name) ?? invalidModel(`bagian ${part.name}: kolom ${name} bukan masukan model`));
        const transform = compileTransform(part.transform);
        const kinds = transform.kinds(Array.from(columns, (column) => this.inputTypes[column]!));
        if (kinds.some((kind) => kind !== "number")) invalidModel(`bagian ${part.name} menghasilkan teks, bukan angka`);
        if (startsWithImputer(part.transform)) columns.forEach((column) => (this.imputed[column] = true));
        width += kinds.length;
        return { columns, transform };
      });
      this.width = width;
    } else {
      if (this.inputTypes.some((type) => type !== "number")) invalidModel("model tanpa preprocess hanya menerima masukan angka");
      this.parts = null;
      this.width = this.inputNames.length;
    }
    if (this.width !== this.estimator.nFeatures) invalidModel(`preprocess menghasilkan ${this.width} fitur, estimator menerima ${this.estimator.nFeatures}`);

    this.labels = document.label_map && {
      numbers: new Map(document.label_map.filter(([key]) => typeof key === "number") as [number, string][]),
      texts: new Map(document.label_map.filter(([key]) => typeof key === "string") as [string, string][]),
    };
  }

  /** Class values (and probabilities) for one row given in `inputNames` order. */
  predictClasses(row: readonly Cell[]): EstimatorOutput[] {
    return this.estimator.predict(this.features(row));
  }

  /** The preprocessed float64 feature vector the estimator reads (ColumnTransformer order). */
  features(row: readonly Cell[]): Float64Array {
    if (row.length !== this.inputNames.length) throw new PredictionError(`baris berisi ${row.length} nilai, model menerima ${this.inputNames.length}`);
    row = row.map((cell, index) => {
      const type = this.inputTypes[index]!;
      if (cell === null || (typeof cell === "number" && Number.isNaN(cell))) {
        const routed = this.acceptsMissing && type === "number";
        if (!this.imputed[index] && !routed) throw new PredictionError(`${this.inputNames[index]} kosong`);
        // numpy's NaN: an imputer fills it, HistGradientBoosting sends it where training decided.
        return type === "number" ? Number.NaN : null;
      }
      if (typeof cell !== (type === "number" ? "number" : "string")) {
        throw new PredictionError(`${this.inputNames[index]} harus berupa ${type === "number" ? "angka" : "teks"}`);
      }
      return cell;
    });
    const x = new Float64Array(this.width);
    if (this.parts) {
      let offset = 0;
      for (const { columns, transform } of this.parts) {
        if (transform.applyInto) {
          transform.applyInto(row, columns, x, offset);
          offset += columns.length;
          continue;
        }
        for (const value of transform.apply(Array.from(columns, (column) => row[column]!))) x[offset++] = estimatorInput(value);
      }
    } else {
      row.forEach((cell, index) => (x[index] = cell as number));
    }
    return x;
  }

  /** Output texts for one row: labels through `label_map`, else the class values. */
  predictRow(row: readonly Cell[]): string[] {
    return this.predictOutputs(row).map((output) => output.text);
  }

  /** As `predictRow`, telling numbers (class values without a `label_map`) from texts, with the probabilities. */
  predictOutputs(row: readonly Cell[]): RowOutput[] {
    return this.predictClasses(row).map((output) => ({
      text: this.label(output),
      isNumber: this.labels === null && typeof output.value === "number",
      probabilities: output.probabilities,
    }));
  }

  /** The texts of an output's classes, in the order of its probabilities (made once per output). */
  classLabels(output: number): readonly string[] {
    const known = this.labelsOf[output];
    if (known) return known;
    const classes = this.estimator.outputs[output];
    if (!classes) throw new PredictionError(`model tidak punya keluaran ${output}`);
    const labels = Object.freeze(classes.values.map((value) => this.label({ value, type: classes.type })));
    this.labelsOf[output] = labels;
    return labels;
  }

  /**
   * The probability the model gave an output's answer: that class's entry of its
   * probabilities, or null for a kind without probabilities (hard voting), a label
   * several classes share, or a value that is not a finite number.
   */
  answerProbability(output: number, answer: RowOutput): number | null {
    if (!answer.probabilities) return null;
    const labels = this.classLabels(output);
    const position = labels.indexOf(answer.text);
    if (position === -1 || labels.indexOf(answer.text, position + 1) !== -1) return null;
    const probability = answer.probabilities[position]!;
    return Number.isFinite(probability) ? probability : null;
  }

  /**
   * A row from named features, converting between the two input types where the meaning
   * is plain (a digit string for a number input, a number for a text input).
   */
  rowFromFeatures(features: Readonly<Record<string, Cell | undefined>>): Cell[] {
    return this.inputNames.map((name, index) => {
      const value = features[name];
      if (value === undefined || value === null) return null;
      if (this.inputTypes[index] === "string") return typeof value === "string" ? value : String(value);
      if (typeof value === "number") return value;
      return parseDecimal(value) ?? failInput(`${name} harus berupa angka, bukan ${JSON.stringify(value)}`);
    });
  }

  private label(value: ClassValue): string {
    if (!this.labels) return formatClassValue(value);
    const label = typeof value.value === "number" ? this.labels.numbers.get(value.value) : this.labels.texts.get(value.value);
    if (label === undefined) throw new PredictionError(`kelas ${formatClassValue(value)} tidak ada dalam label_map`);
    return label;
  }
}

function failInput(message: string): never {
  throw new PredictionError(message);
}
