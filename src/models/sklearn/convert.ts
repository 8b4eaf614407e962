import { modelFormatName, modelFormatVersion, type CategoryValue, type ColumnTransformer, type InputFeature, type ModelDocument } from "../format";
import { fail, isObject, sequence, sklearnVersion, text } from "./convert-attributes";
import { bareInputs, convertEstimator } from "./convert-estimators";
import { convertColumnTransformer, pipelineSteps } from "./convert-transforms";
import { NdArray } from "./numpy";
import { PyObject, describe } from "./pickle-values";

/**
 * Turns the inert objects of a scikit-learn joblib file into the project's JSON model
 * format. Only fitted attributes that `predict` uses are read; anything that would change
 * predictions and is not reproduced (transformer weights, infrequent categories, imputer
 * indicators, custom functions) is refused by name. Preprocessing and estimators are
 * converted in convert-transforms.ts and convert-estimators.ts; this file reads the bundle.
 */

/** Python values of a bundle's metadata as JSON (numbers, texts, lists, objects). */
function toJson(value: unknown): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "bigint") return value.toString();
  if (value instanceof NdArray) return value.numbers || value.items ? toJson(value.toList()) : describe(value);
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof Map) return Object.fromEntries([...value].map(([key, item]) => [String(key), toJson(item)]));
  return describe(value);
}

function numericList(value: unknown): number[] | null {
  if (!(value instanceof NdArray) && !Array.isArray(value)) return null;
  const list = value instanceof NdArray ? (value.numbers ? Array.from(value.numbers) : null) : value;
  return list && list.length > 0 && list.every((item) => typeof item === "number" && Number.isFinite(item)) ? (list as number[]) : null;
}

const bundleKeys = new Set(["pipeline", "feature_names", "label_map", "demo_categories", "params", "best_params", "metrics"]);

interface SourceInfo {
  fileName: string;
  sha256: string;
}

/**
 * A joblib file's content (a bundle dict, or a Pipeline, forest or tree saved alone) as a
 * model document.
 */
export function convertSklearnModel(root: unknown, source: SourceInfo): ModelDocument {
  let model: unknown = root;
  let featureNames: string[] | null = null;
  let labelMap: [CategoryValue, string][] | null = null;
  const thresholds: Record<string, number[]> = {};
  const metrics: Record<string, number> = {};
  const extra: Record<string, unknown> = {};

  if (root instanceof Map) {
    if (!root.has("pipeline")) fail("bundle joblib tanpa kunci 'pipeline'");
    model = root.get("pipeline");
    if (root.has("feature_names")) featureNames = sequence(root.get("feature_names"), "feature_names").map((name) => text(name, "feature_names"));
    const labels = root.get("label_map");
    if (labels !== undefined && labels !== null) {
      if (!(labels instanceof Map)) fail("label_map bukan dict");
      labelMap = [...labels].map(([key, label]) => {
        if (typeof key !== "string" && !(typeof key === "number" && Number.isFinite(key))) fail(`kunci label_map tidak didukung: ${describe(key)}`);
        return [key, typeof label === "string" ? label : String(toJson(label))];
      });
    }
    const bundleMetrics = root.get("metrics");
    if (bundleMetrics instanceof Map) {
      for (const [key, value] of bundleMetrics) if (typeof value === "number" && Number.isFinite(value)) metrics[String(key)] = value;
    }
    for (const [key, value] of root) {
      if (typeof key !== "string") continue;
      const bins = key.startsWith("bins_") ? numericList(value) : null;
      if (bins) thresholds[key] = bins;
      else if (typeof value === "number" && Number.isFinite(value) && !bundleKeys.has(key)) metrics[key] = value;
      else if (["params", "best_params", "demo_categories", "chain_order"].includes(key)) extra[key] = toJson(value);
    }
  } else if (!(model instanceof PyObject)) {
    fail(`isi file joblib berupa ${describe(root)}, bukan model`);
  }

  if (!(model instanceof PyObject)) return fail(`pipeline berupa ${describe(model)}`);
  const top = model;
  let preprocess: ColumnTransformer | null = null;
  let inputs: InputFeature[] | null = null;
  let estimatorObject: unknown = model;
  let prefix = "";
  if (isObject(model, "Pipeline")) {
    const steps = pipelineSteps(model);
    estimatorObject = steps[steps.length - 1];
    const before = steps.slice(0, -1);
    if (before.length > 1 || (before.length === 1 && !isObject(before[0], "ColumnTransformer"))) {
      fail(`Pipeline ${steps.map(describe).join(" → ")} tidak didukung; yang didukung: ColumnTransformer → pengklasifikasi`);
    }
    if (before.length === 1) {
      ({ preprocess, inputs } = convertColumnTransformer(before[0] as PyObject, featureNames));
      prefix = "ColumnTransformer → ";
    }
  }
  const { estimator, label } = convertEstimator(estimatorObject);
  inputs ??= bareInputs(estimatorObject as PyObject, featureNames);

  sklearnVersion(top);
  const version = String(top.get("_sklearn_version"));
  return {
    format: modelFormatName,
    format_version: modelFormatVersion,
    algorithm: `${prefix}${label}`,
    version: `scikit-learn ${version}`,
    inputs,
    preprocess,
    estimator,
    label_map: labelMap,
    thresholds: Object.keys(thresholds).length > 0 ? thresholds : null,
    metrics: Object.keys(metrics).length > 0 ? metrics : null,
    source: { kind: "scikit-learn joblib", file_name: source.fileName, sha256: source.sha256, sklearn_version: version, ...extra },
  };
}
