import type { CategoryValue, ColumnPart, ColumnTransformer, InputFeature, InputType, Transform } from "../format";
import { atLeast, attribute, categories, fail, finiteNumbers, integer, isObject, matrix, sequence, sklearnVersion, text } from "./convert-attributes";
import { NdArray, PyType } from "./numpy";
import { describe, type PyObject } from "./pickle-values";
import { OpaqueObject } from "./whitelist";

/**
 * Fitted preprocessing (ColumnTransformer, Pipeline, StandardScaler, SimpleImputer,
 * encoders, PCA) as model transforms, and the inputs each column must be.
 */

export function convertTransform(object: unknown): Transform {
  if (object === "passthrough" || object === null) return { kind: "passthrough" };
  if (isObject(object, "Pipeline")) {
    return { kind: "pipeline", steps: pipelineSteps(object).map((step) => convertTransform(step)) };
  }
  if (isObject(object, "FunctionTransformer")) {
    const func = attribute(object, "func");
    // HistGradientBoosting's own preprocessor checks its numbers with check_array(dtype=float64): nothing to do.
    const checksNumbers = func instanceof OpaqueObject && func.className === "partial" && Array.isArray(func.state) && func.state[0] instanceof PyType && func.state[0].qualifiedName === "sklearn.utils.validation.check_array";
    if (func !== null && !checksNumbers) fail("FunctionTransformer dengan fungsi tidak didukung");
    return { kind: "passthrough" };
  }
  if (isObject(object, "StandardScaler")) {
    return {
      kind: "standard_scaler",
      mean: attribute(object, "with_mean") === true ? finiteNumbers(attribute(object, "mean_"), "StandardScaler.mean_") : null,
      scale: attribute(object, "with_std") === true ? finiteNumbers(attribute(object, "scale_"), "StandardScaler.scale_") : null,
    };
  }
  if (isObject(object, "SimpleImputer")) {
    if (attribute(object, "add_indicator") !== false) fail("SimpleImputer dengan add_indicator tidak didukung");
    const missing = attribute(object, "missing_values");
    if (missing !== null && !(typeof missing === "number" && Number.isNaN(missing))) fail("SimpleImputer hanya didukung dengan missing_values=NaN atau None");
    const fill = sequence(attribute(object, "statistics_"), "SimpleImputer.statistics_").map((value) => {
      if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) return value;
      return fail("SimpleImputer punya kolom yang kosong seluruhnya saat pelatihan; tidak didukung");
    });
    return { kind: "simple_imputer", fill };
  }
  if (isObject(object, "OrdinalEncoder", "OneHotEncoder")) {
    if (object.has("_infrequent_enabled") && object.get("_infrequent_enabled") !== false) fail(`${object.className} dengan kategori jarang (infrequent) tidak didukung`);
    const lists = sequence(attribute(object, "categories_"), `${object.className}.categories_`).map((list, index) => categories(list, `${object.className}.categories_[${index}]`));
    const handleUnknown = attribute(object, "handle_unknown");
    if (object.className === "OrdinalEncoder") {
      if (handleUnknown === "error") return { kind: "ordinal_encoder", categories: lists, handle_unknown: "error", unknown_value: null };
      if (handleUnknown !== "use_encoded_value") fail(`OrdinalEncoder handle_unknown=${String(handleUnknown)} tidak didukung`);
      const unknown = attribute(object, "unknown_value");
      if (typeof unknown !== "number") fail("OrdinalEncoder.unknown_value bukan angka");
      return { kind: "ordinal_encoder", categories: lists, handle_unknown: "use_encoded_value", unknown_value: Number.isNaN(unknown) ? null : unknown };
    }
    if (handleUnknown !== "error" && handleUnknown !== "ignore" && handleUnknown !== "infrequent_if_exist" && handleUnknown !== "warn") {
      fail(`OneHotEncoder handle_unknown=${String(handleUnknown)} tidak didukung`);
    }
    const dropIndex = attribute(object, "drop_idx_");
    const drop = dropIndex === null ? lists.map(() => null) : sequence(dropIndex, "OneHotEncoder.drop_idx_").map((value) => (value === null ? null : integer(value, "OneHotEncoder.drop_idx_")));
    // Without infrequent categories, 'infrequent_if_exist' and 'warn' (1.6) treat unknown values as 'ignore' does.
    return { kind: "one_hot_encoder", categories: lists, drop, handle_unknown: handleUnknown === "error" ? "error" : "ignore" };
  }
  if (isObject(object, "PCA")) {
    const version = sklearnVersion(object);
    let whitenScale: number[] | null = null;
    if (attribute(object, "whiten") === true) {
      // sklearn ≥ 1.5 clips the scale at machine epsilon to avoid dividing by ~0.
      whitenScale = finiteNumbers(attribute(object, "explained_variance_"), "PCA.explained_variance_").map((variance) => {
        const scale = Math.sqrt(variance);
        return atLeast(version, 1, 5) && scale < Number.EPSILON ? Number.EPSILON : scale;
      });
    }
    return {
      kind: "pca",
      mean: finiteNumbers(attribute(object, "mean_"), "PCA.mean_"),
      components: matrix(attribute(object, "components_"), "PCA.components_"),
      centering: atLeast(version, 1, 4) ? "after" : "before",
      whiten_scale: whitenScale,
    };
  }
  return fail(`transformer tidak didukung: ${describe(object)}`);
}

/** A Pipeline's steps without the `None`/'passthrough' placeholders. */
export function pipelineSteps(pipeline: PyObject): unknown[] {
  return sequence(attribute(pipeline, "steps"), "Pipeline.steps")
    .map((step) => {
      if (!Array.isArray(step) || step.length !== 2) fail("langkah Pipeline bukan pasangan (nama, objek)");
      return step[1] as unknown;
    })
    .filter((step) => step !== null && step !== "passthrough");
}

/** A ColumnTransformer's column selection as input names. */
function columnNames(selection: unknown, names: string[] | null, where: string): string[] {
  if (isObject(selection, "_RemainderColsList")) selection = attribute(selection, "data");
  if (selection instanceof NdArray && selection.dtype.kind === "b") selection = selection.toList().map((flag) => flag === 1);
  const items = typeof selection === "string" || typeof selection === "number" ? [selection] : sequence(selection, `kolom ${where}`);
  if (items.length > 0 && items.every((item) => typeof item === "boolean")) {
    if (!names || items.length !== names.length) fail(`mask kolom ${where} tidak cocok dengan jumlah masukan`);
    return names.filter((_, index) => items[index] === true);
  }
  return items.map((item) => {
    if (typeof item === "string") {
      if (names && !names.includes(item)) fail(`kolom ${item} (${where}) tidak ada di feature_names_in_`);
      return item;
    }
    if (Number.isSafeInteger(item) && names) {
      const name = names[item as number];
      if (name !== undefined) return name;
    }
    return fail(`pemilihan kolom ${where} tidak didukung: ${describe(item)}`);
  });
}

/** For each column a step receives, the input type the step needs. */
export function inputTypes(transform: Transform, width: number): InputType[] {
  const all = (type: InputType) => new Array<InputType>(width).fill(type);
  const ofCategories = (lists: CategoryValue[][]) =>
    lists.map((list) => {
      if (list.every((value) => typeof value === "string")) return "string";
      if (list.every((value) => typeof value === "number")) return "number";
      return fail("kategori campuran teks dan angka dalam satu kolom tidak didukung");
    });
  switch (transform.kind) {
    case "pipeline": {
      const first = transform.steps.find((step) => step.kind !== "passthrough");
      return first ? inputTypes(first, width) : all("number");
    }
    case "simple_imputer":
      return transform.fill.map((value) => (typeof value === "string" ? "string" : "number"));
    case "ordinal_encoder":
    case "one_hot_encoder":
      return ofCategories(transform.categories);
    default:
      return all("number");
  }
}

export function convertColumnTransformer(object: PyObject, fallbackNames: string[] | null): { preprocess: ColumnTransformer; inputs: InputFeature[] } {
  const weights = attribute(object, "transformer_weights");
  if (weights !== null) fail("ColumnTransformer dengan transformer_weights tidak didukung");
  const names = object.has("feature_names_in_")
    ? sequence(object.get("feature_names_in_"), "feature_names_in_").map((name) => text(name, "feature_names_in_"))
    : fallbackNames;
  if (!names) fail("ColumnTransformer tanpa nama kolom (feature_names_in_)");

  const parts: ColumnPart[] = [];
  const types = new Map<string, InputType>();
  for (const entry of sequence(attribute(object, "transformers_"), "ColumnTransformer.transformers_")) {
    if (!Array.isArray(entry) || entry.length !== 3) fail("entri transformers_ bukan (nama, transformer, kolom)");
    const [name, transformer, selection] = entry as [unknown, unknown, unknown];
    const partName = text(name, "nama transformer");
    const columns = columnNames(selection, names, partName);
    if (transformer === "drop" || columns.length === 0) continue;
    const transform = convertTransform(transformer);
    inputTypes(transform, columns.length).forEach((type, index) => {
      const column = columns[index]!;
      if (types.has(column) && types.get(column) !== type) fail(`kolom ${column} dipakai sebagai angka dan teks sekaligus`);
      types.set(column, type);
    });
    parts.push({ name: partName, columns, transform });
  }
  const inputs = names.filter((name) => types.has(name)).map((name) => ({ name, type: types.get(name)! }));
  return { preprocess: { kind: "column_transformer", parts }, inputs };
}

/**
 * A ColumnTransformer that receives an array, not named columns (HistGradientBoosting's
 * own, after another step): its parts select columns by position or boolean mask.
 */
export function convertPositionalColumns(object: PyObject): Transform {
  const width = integer(attribute(object, "n_features_in_"), "ColumnTransformer.n_features_in_");
  const positions = Array.from({ length: width }, (_, index) => index);
  const parts: { columns: number[]; transform: Transform }[] = [];
  for (const entry of sequence(attribute(object, "transformers_"), "ColumnTransformer.transformers_")) {
    if (!Array.isArray(entry) || entry.length !== 3) fail("entri transformers_ bukan (nama, transformer, kolom)");
    const [name, transformer, selection] = entry as [unknown, unknown, unknown];
    const names = positions.map(String);
    const columns = columnNames(selection, names, text(name, "nama transformer")).map(Number);
    if (transformer === "drop" || columns.length === 0) continue;
    parts.push({ columns, transform: convertTransform(transformer) });
  }
  return { kind: "column_parts", width, parts };
}
