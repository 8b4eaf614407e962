import { modelFormatName, modelFormatVersion, type CategoryValue, type ModelDocument } from "../format";
import { attribute, fail, isObject, sequence, sklearnVersion, text } from "./convert-attributes";
import { bestEstimator } from "./convert-estimators";
import { convertPipeline } from "./convert-pipeline";
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

const bundleKeys = new Set(["pipeline", "model", "feature_names", "label_map", "demo_categories", "params", "best_params", "metrics"]);

/**
 * A LabelEncoder kept in the bundle (any key, or a list or dict of them, one per output)
 * as the label map: class i is `classes_[i]`. Encoders of several outputs must agree.
 */
function labelEncoderMap(bundle: Map<unknown, unknown>): [CategoryValue, string][] | null {
  const encoders: PyObject[] = [];
  const collect = (value: unknown) => {
    if (isObject(value, "LabelEncoder")) encoders.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value instanceof Map && value !== bundle) [...value.values()].forEach(collect);
  };
  [...bundle.values()].forEach(collect);
  if (encoders.length === 0) return null;
  const maps = encoders.map((encoder) =>
    sequence(attribute(encoder, "classes_"), "LabelEncoder.classes_").map((value, index): [CategoryValue, string] => [index, typeof value === "string" ? value : String(toJson(value))]),
  );
  if (maps.some((map) => JSON.stringify(map) !== JSON.stringify(maps[0]))) fail("LabelEncoder dalam bundle punya kelas yang berbeda; yang didukung: satu peta label untuk semua keluaran");
  return maps[0]!;
}

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
    model = root.has("pipeline") ? root.get("pipeline") : root.has("model") ? root.get("model") : fail("bundle joblib tanpa kunci 'pipeline'");
    if (root.has("feature_names")) featureNames = sequence(root.get("feature_names"), "feature_names").map((name) => text(name, "feature_names"));
    const labels = root.get("label_map");
    if (labels !== undefined && labels !== null) {
      if (!(labels instanceof Map)) fail("label_map bukan dict");
      labelMap = [...labels].map(([key, label]) => {
        if (typeof key !== "string" && !(typeof key === "number" && Number.isFinite(key))) fail(`kunci label_map tidak didukung: ${describe(key)}`);
        return [key, typeof label === "string" ? label : String(toJson(label))];
      });
    } else {
      labelMap = labelEncoderMap(root);
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
  if (isObject(model, "GridSearchCV", "RandomizedSearchCV")) {
    extra.search = model.className;
    if (model.has("best_params_")) extra.best_params ??= toJson(model.get("best_params_"));
    model = bestEstimator(model);
    if (!(model instanceof PyObject)) return fail(`best_estimator_ berupa ${describe(model)}`);
  }
  const top = model;
  const { preprocess, inputs, estimator, label } = convertPipeline(model, featureNames);

  sklearnVersion(top);
  const version = String(top.get("_sklearn_version"));
  return {
    format: modelFormatName,
    format_version: modelFormatVersion,
    algorithm: label,
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
