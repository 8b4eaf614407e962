import type { ColumnTransformer, Estimator, InputFeature } from "../format";
import { attribute, fail, isObject, sequence, text } from "./convert-attributes";
import { convertHistGradientBoosting } from "./convert-boosting";
import { bareInputs, classList, convertEstimator } from "./convert-estimators";
import { convertColumnTransformer, convertTransform, inputTypes, pipelineSteps } from "./convert-transforms";
import { describe, type PyObject } from "./pickle-values";

/**
 * The shapes a model may have: `ColumnTransformer → classifier`, plain steps
 * (StandardScaler, SimpleImputer, PCA, encoders) before a classifier, a classifier alone,
 * and a HistGradientBoosting that encodes pandas categories itself. Plain steps become
 * one preprocessing part over all inputs, in the order the first step learned them.
 */

interface ConvertedPipeline {
  preprocess: ColumnTransformer | null;
  inputs: InputFeature[];
  estimator: Estimator;
  label: string;
}

function namesOf(object: PyObject): string[] | null {
  return object.has("feature_names_in_") ? sequence(object.get("feature_names_in_"), "feature_names_in_").map((name) => text(name, "feature_names_in_")) : null;
}

export function convertPipeline(model: PyObject, featureNames: string[] | null): ConvertedPipeline {
  let final: unknown = model;
  let before: unknown[] = [];
  if (isObject(model, "Pipeline")) {
    const steps = pipelineSteps(model);
    final = steps[steps.length - 1];
    before = steps.slice(0, -1);
  }
  if (!isObject(final)) return fail(`langkah terakhir Pipeline berupa ${describe(final)}, bukan pengklasifikasi`);

  // A HistGradientBoosting fitted on pandas categories carries its own ColumnTransformer.
  // After other steps it reads an array, and convertEstimator gives it its positional columns.
  const ownPreprocessor = before.length === 0 && isObject(final, "HistGradientBoostingClassifier") && final.has("_preprocessor") ? final.get("_preprocessor") : null;
  if (ownPreprocessor !== null) {
    if (!isObject(ownPreprocessor, "ColumnTransformer")) return fail(`_preprocessor berupa ${describe(ownPreprocessor)}`);
    const estimator = convertHistGradientBoosting(final, [classList(attribute(final, "classes_"), "HistGradientBoostingClassifier.classes_")]);
    return { ...convertColumnTransformer(ownPreprocessor, featureNames), estimator, label: "HistGradientBoostingClassifier (kategori pandas)" };
  }

  const { estimator, label } = convertEstimator(final);
  if (before.length === 0) return { preprocess: null, inputs: bareInputs(final, featureNames), estimator, label };
  if (before.length === 1 && isObject(before[0], "ColumnTransformer")) {
    return { ...convertColumnTransformer(before[0], featureNames), estimator, label: `ColumnTransformer → ${label}` };
  }
  if (before.some((step) => isObject(step, "ColumnTransformer"))) {
    fail(`Pipeline ${[...before, final].map(describe).join(" → ")} tidak didukung; yang didukung: ColumnTransformer → pengklasifikasi, atau langkah biasa → pengklasifikasi`);
  }
  const first = before[0];
  const names = (isObject(first) ? namesOf(first) : null) ?? featureNames ?? fail("Pipeline tanpa nama kolom (feature_names_in_ atau feature_names)");
  const transform = { kind: "pipeline" as const, steps: before.map((step) => convertTransform(step)) };
  const types = inputTypes(transform, names.length);
  return {
    preprocess: { kind: "column_transformer", parts: [{ name: "pipeline", columns: names, transform }] },
    inputs: names.map((name, index) => ({ name, type: types[index]! })),
    estimator,
    label: `Pipeline(${before.map(describe).join(", ")}) → ${label}`,
  };
}
