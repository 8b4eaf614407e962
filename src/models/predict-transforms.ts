import type { CategoryValue, Transform } from "./format";
import { PredictionError, estimatorInput, invalidModel, type Cell } from "./predict-values";

/**
 * The preprocessing steps (scaler, imputer, encoders, PCA, pipelines) compiled once per
 * model. They compute in float64 in the order scikit-learn does.
 */

/** What flows between steps: numbers, or category texts before an encoder. */
type CellKind = "number" | "string";

export interface CompiledTransform {
  /** Output kinds for these input kinds; throws when a step cannot take them. */
  kinds(input: CellKind[]): CellKind[];
  apply(cells: Cell[]): Cell[];
  /**
   * What `apply` gives for the row's `columns`, written as the estimator's numbers into
   * `out` from `offset`: for a part that turns each column into one number (a scaler, an
   * ordinal encoder, passthrough), without the arrays in between. Every submission runs
   * this (issue 28).
   */
  applyInto?(row: readonly Cell[], columns: Int32Array, out: Float64Array, offset: number): void;
}

/** `applyInto` of a step that maps each column on its own, from that step's cell function. */
function intoEstimator(cellOf: (cell: Cell, index: number) => Cell): NonNullable<CompiledTransform["applyInto"]> {
  return (row, columns, out, offset) => {
    for (let index = 0; index < columns.length; index++) out[offset + index] = estimatorInput(cellOf(row[columns[index]!]!, index));
  };
}

/** A numeric step needs a number; missing values were filled by an imputer or refused before. */
function numberCell(cell: Cell, step: string): number {
  if (typeof cell !== "number") throw new PredictionError(`${step} menerima ${cell === null ? "nilai kosong" : "teks"}`);
  return cell;
}

function requireNumbers(input: CellKind[], step: string): void {
  if (input.some((kind) => kind !== "number")) invalidModel(`${step} menerima kolom teks`);
}

function requireWidth(input: CellKind[], width: number, step: string): void {
  if (input.length !== width) invalidModel(`${step} dibuat untuk ${width} kolom, menerima ${input.length}`);
}

/** Category lookup: numbers match numerically (3.5 = 3.50), texts exactly. */
function categoryIndex(categories: CategoryValue[], step: string): Map<CategoryValue, number> {
  const index = new Map<CategoryValue, number>();
  categories.forEach((value, position) => {
    if (index.has(value)) invalidModel(`${step}: kategori ganda ${JSON.stringify(value)}`);
    index.set(value, position);
  });
  return index;
}

export function compileTransform(transform: Transform): CompiledTransform {
  switch (transform.kind) {
    case "passthrough":
      return { kinds: (input) => input, apply: (cells) => cells, applyInto: intoEstimator((cell) => cell) };

    case "pipeline": {
      const steps = transform.steps.map(compileTransform);
      return {
        kinds: (input) => steps.reduce((kinds, step) => step.kinds(kinds), input),
        apply: (cells) => steps.reduce((values, step) => step.apply(values), cells),
      };
    }

    case "standard_scaler": {
      const { mean, scale } = transform;
      const width = mean?.length ?? scale?.length;
      if (mean && scale && mean.length !== scale.length) invalidModel("standard_scaler: panjang mean dan scale berbeda");
      // Two steps, as sklearn does them: subtract the mean, then divide by the scale.
      const scaled = (cell: Cell, index: number) => {
        let value = numberCell(cell, "standard_scaler");
        if (mean) value -= mean[index]!;
        if (scale) value /= scale[index]!;
        return value;
      };
      return {
        kinds: (input) => {
          requireNumbers(input, "standard_scaler");
          if (width !== undefined) requireWidth(input, width, "standard_scaler");
          return input;
        },
        apply: (cells) => cells.map(scaled),
        applyInto: intoEstimator(scaled),
      };
    }

    case "simple_imputer": {
      const { fill } = transform;
      return {
        kinds: (input) => {
          requireWidth(input, fill.length, "simple_imputer");
          return input.map((kind, index) => {
            const fillKind = typeof fill[index] === "number" ? "number" : "string";
            if (fillKind !== kind) invalidModel(`simple_imputer: isian kolom ${index + 1} berupa ${fillKind}, kolomnya ${kind}`);
            return kind;
          });
        },
        apply: (cells) => cells.map((cell, index) => (cell === null || (typeof cell === "number" && Number.isNaN(cell)) ? fill[index]! : cell)),
      };
    }

    case "ordinal_encoder": {
      const indexes = transform.categories.map((values) => categoryIndex(values, "ordinal_encoder"));
      const { handle_unknown: handleUnknown, unknown_value: unknownValue } = transform;
      const encoded = (cell: Cell, column: number) => {
        if (cell === null) throw new PredictionError("ordinal_encoder menerima nilai kosong");
        const position = indexes[column]!.get(cell);
        if (position !== undefined) return position;
        if (handleUnknown === "error") throw new PredictionError(`kategori tidak dikenal: ${JSON.stringify(cell)}`);
        return unknownValue ?? Number.NaN;
      };
      return {
        kinds: (input) => {
          requireWidth(input, indexes.length, "ordinal_encoder");
          return input.map(() => "number");
        },
        apply: (cells) => cells.map(encoded),
        applyInto: intoEstimator(encoded),
      };
    }

    case "one_hot_encoder": {
      const { categories, drop, handle_unknown: handleUnknown } = transform;
      const indexes = categories.map((values) => categoryIndex(values, "one_hot_encoder"));
      if (drop.length !== categories.length) invalidModel("one_hot_encoder: panjang drop tidak sama dengan jumlah kolom");
      drop.forEach((dropped, column) => {
        if (dropped !== null && (dropped < 0 || dropped >= categories[column]!.length)) invalidModel("one_hot_encoder: indeks drop di luar kategori");
      });
      const widths = categories.map((values, column) => values.length - (drop[column] === null ? 0 : 1));
      const width = widths.reduce((total, size) => total + size, 0);
      return {
        kinds: (input) => {
          requireWidth(input, categories.length, "one_hot_encoder");
          return new Array<CellKind>(width).fill("number");
        },
        apply: (cells) => {
          const out = new Array<Cell>(width).fill(0);
          let offset = 0;
          cells.forEach((cell, column) => {
            if (cell === null) throw new PredictionError("one_hot_encoder menerima nilai kosong");
            const position = indexes[column]!.get(cell);
            const dropped = drop[column] ?? null;
            if (position === undefined) {
              if (handleUnknown === "error") throw new PredictionError(`kategori tidak dikenal: ${JSON.stringify(cell)}`);
            } else if (dropped === null || position < dropped) {
              out[offset + position] = 1;
            } else if (position > dropped) {
              out[offset + position - 1] = 1;
            }
            offset += widths[column]!;
          });
          return out;
        },
      };
    }

    case "column_parts":
      return compileColumnParts(transform);

    case "pca": {
      const { mean, components, centering, whiten_scale: whitenScale } = transform;
      const inWidth = mean.length;
      const outWidth = components.length;
      if (components.some((row) => row.length !== inWidth)) invalidModel("pca: ukuran components tidak sama dengan mean");
      if (whitenScale && whitenScale.length !== outWidth) invalidModel("pca: panjang whiten_scale tidak sama dengan jumlah komponen");
      const flat = new Float64Array(components.flat());
      const dot = (values: ArrayLike<number>, component: number) => {
        let sum = 0;
        for (let feature = 0; feature < inWidth; feature++) sum += values[feature]! * flat[component * inWidth + feature]!;
        return sum;
      };
      // sklearn ≥ 1.4 projects first and subtracts the projected mean afterwards.
      const projectedMean = Array.from({ length: outWidth }, (_, component) => dot(mean, component));
      return {
        kinds: (input) => {
          requireNumbers(input, "pca");
          requireWidth(input, inWidth, "pca");
          return new Array<CellKind>(outWidth).fill("number");
        },
        apply: (cells) => {
          const values = cells.map((cell) => {
            const value = numberCell(cell, "pca");
            if (Number.isNaN(value)) throw new PredictionError("pca menerima nilai kosong");
            return value;
          });
          const centred = centering === "before" ? values.map((value, feature) => value - mean[feature]!) : values;
          return Array.from({ length: outWidth }, (_, component) => {
            let value = dot(centred, component);
            if (centering === "after") value -= projectedMean[component]!;
            return whitenScale ? value / whitenScale[component]! : value;
          });
        },
      };
    }
  }
}

/** A ColumnTransformer inside an estimator (HistGradientBoosting's own): parts take columns by position. */
function compileColumnParts(transform: Extract<Transform, { kind: "column_parts" }>): CompiledTransform {
  const { width } = transform;
  const parts = transform.parts.map((part) => {
    if (part.columns.some((column) => column < 0 || column >= width)) invalidModel(`column_parts: kolom di luar 0–${width - 1}`);
    return { columns: part.columns, step: compileTransform(part.transform) };
  });
  return {
    kinds: (input) => {
      requireWidth(input, width, "column_parts");
      return parts.flatMap((part) => part.step.kinds(part.columns.map((column) => input[column]!)));
    },
    apply: (cells) => {
      const out: Cell[] = [];
      for (const part of parts) {
        const taken = new Array<Cell>(part.columns.length);
        for (let index = 0; index < taken.length; index++) taken[index] = cells[part.columns[index]!]!;
        for (const value of part.step.apply(taken)) out.push(value);
      }
      return out;
    },
  };
}

/** Whether a step fills missing values before anything else reads them. */
export function startsWithImputer(transform: Transform): boolean {
  if (transform.kind === "simple_imputer") return true;
  if (transform.kind !== "pipeline") return false;
  const first = transform.steps.find((step) => step.kind !== "passthrough");
  return first !== undefined && startsWithImputer(first);
}
