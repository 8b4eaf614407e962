import { Type, type TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import type { ValueError } from "@sinclair/typebox/errors";
import { InvalidInput } from "../errors";

/**
 * The project's own model format (docs/model-format.md): one JSON document that says which
 * inputs a model reads, how they are preprocessed and which trees decide. The server only
 * ever loads this format; scikit-learn files are converted to it when they are added.
 */

export const modelFormatName = "skrining-model";
export const modelFormatVersion = 1;

export type CategoryValue = string | number;
export type InputType = "number" | "string";

export interface InputFeature {
  name: string;
  type: InputType;
}

export type Transform =
  | { kind: "passthrough" }
  | { kind: "pipeline"; steps: Transform[] }
  | { kind: "standard_scaler"; mean: number[] | null; scale: number[] | null }
  | { kind: "simple_imputer"; fill: CategoryValue[] }
  | { kind: "ordinal_encoder"; categories: CategoryValue[][]; handle_unknown: "error" | "use_encoded_value"; unknown_value: number | null }
  | { kind: "one_hot_encoder"; categories: CategoryValue[][]; drop: (number | null)[]; handle_unknown: "error" | "ignore" }
  | { kind: "pca"; mean: number[]; components: number[][]; centering: "before" | "after"; whiten_scale: number[] | null }
  | { kind: "column_parts"; width: number; parts: { columns: number[]; transform: Transform }[] };

export interface ColumnPart {
  name: string;
  columns: string[];
  transform: Transform;
}

export interface ColumnTransformer {
  kind: "column_transformer";
  parts: ColumnPart[];
}

/** Class values of one output; `type` says how sklearn would print them. */
export interface ClassList {
  type: "int" | "float" | "string";
  values: CategoryValue[];
}

/**
 * One tree as flat arrays indexed by node (0 is the root). A leaf has `left = right = -1`.
 * `value` holds node × output × class, each output padded to the widest class list.
 */
export interface TreeArrays {
  left: number[];
  right: number[];
  feature: number[];
  threshold: number[];
  value: number[];
}

/** A regression tree of a gradient boosting model: one value per node. */
export interface RegressionTree {
  left: number[];
  right: number[];
  feature: number[];
  threshold: number[];
  value: number[];
}

/**
 * A tree of HistGradientBoosting: float64 thresholds, where a missing value goes, and for
 * a categorical split the index of its bitset (8 × 32 bits of the categories going left).
 */
export interface HistogramTree {
  left: number[];
  right: number[];
  feature: number[];
  threshold: number[];
  missing_left: number[];
  categorical: number[];
  bitset: number[];
  value: number[];
  bitsets: number[][];
}

/** How a booster turns its raw scores into a class: scikit-learn < 1.4 took the argmax of the probabilities. */
export type BoostingDecision = "raw" | "probability";

export type Estimator =
  | { kind: "decision_tree"; n_features: number; outputs: ClassList[]; value_kind: "counts" | "fractions"; tree: TreeArrays }
  | { kind: "forest"; n_features: number; outputs: ClassList[]; value_kind: "counts" | "fractions"; trees: TreeArrays[] }
  | { kind: "multi_output"; estimators: Estimator[] }
  | { kind: "classifier_chain"; order: number[]; estimators: Estimator[] }
  | { kind: "linear"; n_features: number; outputs: [ClassList]; coef: number[][]; intercept: number[]; probability: "ovr" | "softmax"; all_zero_uniform: boolean }
  | { kind: "gaussian_nb"; n_features: number; outputs: [ClassList]; theta: number[][]; var: number[][]; class_prior: number[] }
  | { kind: "voting"; outputs: [ClassList]; voting: "hard" | "soft"; weights: number[] | null; estimators: Estimator[] }
  | { kind: "pipeline"; steps: Transform[]; estimator: Estimator }
  | {
      kind: "gradient_boosting";
      n_features: number;
      outputs: [ClassList];
      baseline: number[];
      learning_rate: number;
      decision: BoostingDecision;
      stages: RegressionTree[][];
    }
  | {
      kind: "hist_gradient_boosting";
      n_features: number;
      outputs: [ClassList];
      baseline: number[];
      decision: BoostingDecision;
      known_categories: (number[] | null)[];
      iterations: HistogramTree[][];
    };

export interface ModelDocument {
  format: typeof modelFormatName;
  format_version: typeof modelFormatVersion;
  algorithm: string;
  version: string;
  inputs: InputFeature[];
  preprocess: ColumnTransformer | null;
  estimator: Estimator;
  /** Class value → label pairs (the bundle's `label_map`); null prints the class values. */
  label_map: [CategoryValue, string][] | null;
  thresholds?: Record<string, number[]> | null;
  metrics?: Record<string, number> | null;
  source?: Record<string, unknown> | null;
}

const categoryValue = Type.Union([Type.String(), Type.Number()]);
const numbers = Type.Array(Type.Number());
const integers = Type.Array(Type.Integer());
const kind = <K extends string, P extends Record<string, TSchema>>(name: K, properties: P) =>
  Type.Object({ kind: Type.Literal(name), ...properties }, { additionalProperties: false });

// Steps and estimators nest, so their unions are referenced by id.
const transformRef = Type.Ref("Transform");
const estimatorRef = Type.Ref("Estimator");

const transformVariants = {
  passthrough: kind("passthrough", {}),
  pipeline: kind("pipeline", { steps: Type.Array(transformRef) }),
  standard_scaler: kind("standard_scaler", { mean: Type.Union([numbers, Type.Null()]), scale: Type.Union([numbers, Type.Null()]) }),
  simple_imputer: kind("simple_imputer", { fill: Type.Array(categoryValue) }),
  ordinal_encoder: kind("ordinal_encoder", {
    categories: Type.Array(Type.Array(categoryValue)),
    handle_unknown: Type.Union([Type.Literal("error"), Type.Literal("use_encoded_value")]),
    unknown_value: Type.Union([Type.Number(), Type.Null()]),
  }),
  one_hot_encoder: kind("one_hot_encoder", {
    categories: Type.Array(Type.Array(categoryValue)),
    drop: Type.Array(Type.Union([Type.Integer(), Type.Null()])),
    handle_unknown: Type.Union([Type.Literal("error"), Type.Literal("ignore")]),
  }),
  pca: kind("pca", {
    mean: numbers,
    components: Type.Array(numbers),
    centering: Type.Union([Type.Literal("before"), Type.Literal("after")]),
    whiten_scale: Type.Union([numbers, Type.Null()]),
  }),
  column_parts: kind("column_parts", {
    width: Type.Integer({ minimum: 0 }),
    parts: Type.Array(Type.Object({ columns: integers, transform: transformRef }, { additionalProperties: false })),
  }),
};

const classList = Type.Object(
  { type: Type.Union([Type.Literal("int"), Type.Literal("float"), Type.Literal("string")]), values: Type.Array(categoryValue, { minItems: 1 }) },
  { additionalProperties: false },
);
const tree = Type.Object({ left: integers, right: integers, feature: integers, threshold: numbers, value: numbers }, { additionalProperties: false });
const valueKind = Type.Union([Type.Literal("counts"), Type.Literal("fractions")]);

const regressionTree = Type.Object({ left: integers, right: integers, feature: integers, threshold: numbers, value: numbers }, { additionalProperties: false });
const histogramTree = Type.Object(
  {
    left: integers,
    right: integers,
    feature: integers,
    threshold: numbers,
    missing_left: integers,
    categorical: integers,
    bitset: integers,
    value: numbers,
    bitsets: Type.Array(Type.Array(Type.Integer({ minimum: 0, maximum: 0xffffffff }), { minItems: 8, maxItems: 8 })),
  },
  { additionalProperties: false },
);
const oneOutput = Type.Tuple([classList]);
const decision = Type.Union([Type.Literal("raw"), Type.Literal("probability")]);

const estimatorVariants = {
  decision_tree: kind("decision_tree", { n_features: Type.Integer({ minimum: 0 }), outputs: Type.Array(classList, { minItems: 1 }), value_kind: valueKind, tree }),
  forest: kind("forest", {
    n_features: Type.Integer({ minimum: 0 }),
    outputs: Type.Array(classList, { minItems: 1 }),
    value_kind: valueKind,
    trees: Type.Array(tree, { minItems: 1 }),
  }),
  multi_output: kind("multi_output", { estimators: Type.Array(estimatorRef, { minItems: 1 }) }),
  classifier_chain: kind("classifier_chain", { order: integers, estimators: Type.Array(estimatorRef, { minItems: 1 }) }),
  linear: kind("linear", {
    n_features: Type.Integer({ minimum: 0 }),
    outputs: oneOutput,
    coef: Type.Array(numbers, { minItems: 1 }),
    intercept: numbers,
    probability: Type.Union([Type.Literal("ovr"), Type.Literal("softmax")]),
    all_zero_uniform: Type.Boolean(),
  }),
  gaussian_nb: kind("gaussian_nb", { n_features: Type.Integer({ minimum: 0 }), outputs: oneOutput, theta: Type.Array(numbers), var: Type.Array(numbers), class_prior: numbers }),
  voting: kind("voting", {
    outputs: oneOutput,
    voting: Type.Union([Type.Literal("hard"), Type.Literal("soft")]),
    weights: Type.Union([numbers, Type.Null()]),
    estimators: Type.Array(estimatorRef, { minItems: 1 }),
  }),
  pipeline: kind("pipeline", { steps: Type.Array(transformRef), estimator: estimatorRef }),
  gradient_boosting: kind("gradient_boosting", {
    n_features: Type.Integer({ minimum: 0 }),
    outputs: oneOutput,
    baseline: numbers,
    learning_rate: Type.Number(),
    decision,
    stages: Type.Array(Type.Array(regressionTree, { minItems: 1 }), { minItems: 1 }),
  }),
  hist_gradient_boosting: kind("hist_gradient_boosting", {
    n_features: Type.Integer({ minimum: 0 }),
    outputs: oneOutput,
    baseline: numbers,
    decision,
    known_categories: Type.Array(Type.Union([integers, Type.Null()])),
    iterations: Type.Array(Type.Array(histogramTree, { minItems: 1 })),
  }),
};

const columnTransformer = kind("column_transformer", {
  parts: Type.Array(Type.Object({ name: Type.String(), columns: Type.Array(Type.String()), transform: transformRef }, { additionalProperties: false })),
});

const references = [
  Type.Union(Object.values(transformVariants), { $id: "Transform" }),
  Type.Union(Object.values(estimatorVariants), { $id: "Estimator" }),
];

const documentSchema = Type.Object({
  format: Type.Literal(modelFormatName),
  format_version: Type.Literal(modelFormatVersion),
  algorithm: Type.String(),
  version: Type.String(),
  inputs: Type.Array(
    Type.Object({ name: Type.String({ minLength: 1 }), type: Type.Union([Type.Literal("number"), Type.Literal("string")]) }, { additionalProperties: false }),
  ),
  preprocess: Type.Union([columnTransformer, Type.Null()]),
  estimator: estimatorRef,
  label_map: Type.Union([Type.Array(Type.Tuple([categoryValue, Type.String()])), Type.Null()]),
  thresholds: Type.Optional(Type.Union([Type.Record(Type.String(), numbers), Type.Null()])),
  metrics: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Number()), Type.Null()])),
  source: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
}, { additionalProperties: false });

// Compiled on first use, not when the module loads: compiling them takes ≈ 40 ms, and
// `serve` loads this module at every start but checks a document only when it loads a model.
let compiledDocument: TypeCheck<typeof documentSchema> | undefined;
const documentCheck = () => (compiledDocument ??= TypeCompiler.Compile(documentSchema, references));
const variantSchemas: Record<string, TSchema> = { ...transformVariants, ...estimatorVariants, column_transformer: columnTransformer };
const variantChecks = new Map<string, TypeCheck<TSchema>>();

/** The compiled check of one `kind`, or undefined for a kind the format does not know. */
function variantCheck(kind: string): TypeCheck<TSchema> | undefined {
  if (!Object.hasOwn(variantSchemas, kind)) return undefined;
  let check = variantChecks.get(kind);
  if (!check) {
    check = TypeCompiler.Compile(variantSchemas[kind]!, references);
    variantChecks.set(kind, check);
  }
  return check;
}

export class ModelFormatError extends InvalidInput {}

/**
 * The first problem, explained inside the variant its `kind` names: a union alone would
 * only say that no variant matched.
 */
function firstProblem(check: { Errors(value: unknown): { First(): ValueError | undefined } }, value: unknown, prefix: string): string {
  const error = check.Errors(value).First();
  if (!error) return `${prefix || "/"}: tidak valid`;
  const target = error.value as { kind?: unknown } | null;
  if ("anyOf" in error.schema && typeof target === "object" && target !== null && typeof target.kind === "string") {
    const variant = variantCheck(target.kind);
    if (!variant) return `${prefix}${error.path}/kind: jenis ${JSON.stringify(target.kind)} tidak dikenal`;
    return firstProblem(variant, target, `${prefix}${error.path}`);
  }
  return `${prefix}${error.path || "/"}: ${error.message}`;
}

/**
 * Checks the document's shape; the sizes and references inside it are checked when it is
 * compiled for prediction (predict.ts), so a file is only accepted when both pass.
 */
export function validateModelDocument(value: unknown): ModelDocument {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const header = value as Record<string, unknown>;
    if (header.format !== modelFormatName) throw new ModelFormatError(`bukan model ${modelFormatName} (kunci "format")`);
    if (header.format_version !== modelFormatVersion) {
      throw new ModelFormatError(`versi format model ${String(header.format_version)} tidak didukung (didukung: ${modelFormatVersion})`);
    }
  }
  const check = documentCheck();
  if (!check.Check(value)) throw new ModelFormatError(`model JSON tidak valid di ${firstProblem(check, value, "")}`);
  return value as ModelDocument;
}

export function parseModelJson(text: string): ModelDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ModelFormatError(`model JSON tidak dapat dibaca: ${(error as Error).message}`);
  }
  return validateModelDocument(value);
}

/**
 * The document as an admin would read it: one key per line, short values and number
 * arrays (tree nodes, means, categories) kept on one line each.
 */
export function stringifyModelDocument(document: ModelDocument): string {
  const write = (value: unknown, indent: string): string => {
    const compact = JSON.stringify(value);
    if (value === null || typeof value !== "object" || compact.length <= 100) return compact;
    if (Array.isArray(value) && value.every((item) => item === null || typeof item !== "object")) return compact;
    const inner = `${indent}  `;
    if (Array.isArray(value)) return `[\n${value.map((item) => inner + write(item, inner)).join(",\n")}\n${indent}]`;
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${write(item, inner)}`).join(",\n")}\n${indent}}`;
  };
  return `${write(document, "")}\n`;
}

/** The categories each encoded input knows, for the model record and for neutral rows. */
export function documentCategories(document: ModelDocument): Record<string, CategoryValue[]> {
  const categories: Record<string, CategoryValue[]> = {};
  const visit = (transform: Transform, columns: string[]) => {
    if (transform.kind === "pipeline") {
      // Only the first encoding step sees the input columns themselves.
      for (const step of transform.steps) {
        if (step.kind === "ordinal_encoder" || step.kind === "one_hot_encoder") return visit(step, columns);
        if (step.kind !== "passthrough" && step.kind !== "simple_imputer") return;
      }
    } else if (transform.kind === "ordinal_encoder" || transform.kind === "one_hot_encoder") {
      transform.categories.forEach((values, index) => {
        const column = columns[index];
        if (column !== undefined) categories[column] ??= values;
      });
    }
  };
  for (const part of document.preprocess?.parts ?? []) visit(part.transform, part.columns);
  return categories;
}
