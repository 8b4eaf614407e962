import {
  modelFormatName,
  modelFormatVersion,
  type CategoryValue,
  type ClassList,
  type ColumnPart,
  type ColumnTransformer,
  type Estimator,
  type InputFeature,
  type InputType,
  type ModelDocument,
  type Transform,
  type TreeArrays,
} from "../format";
import { NdArray } from "./numpy";
import { PyObject, describe } from "./pickle";
import { InvalidInput } from "../../errors";

/**
 * Turns the inert objects of a scikit-learn joblib file into the project's JSON model
 * format. Only fitted attributes that `predict` uses are read; anything that would change
 * predictions and is not reproduced (transformer weights, infrequent categories, imputer
 * indicators, custom functions) is refused by name.
 */

export class ConversionError extends InvalidInput {}

function fail(message: string): never {
  throw new ConversionError(message);
}

function isObject(value: unknown, ...classNames: string[]): value is PyObject {
  return value instanceof PyObject && (classNames.length === 0 || classNames.includes(value.className));
}

function attribute(object: PyObject, key: string): unknown {
  if (!object.has(key)) fail(`${object.className} tidak punya atribut ${key} (belum dilatih?)`);
  return object.get(key);
}

function sequence(value: unknown, what: string): unknown[] {
  if (value instanceof NdArray) return value.toList();
  if (Array.isArray(value)) return value;
  return fail(`${what} berupa ${describe(value)}, bukan daftar`);
}

function finiteNumbers(value: unknown, what: string): number[] {
  return sequence(value, what).map((item) => (typeof item === "number" && Number.isFinite(item) ? item : fail(`${what} berisi ${describe(item)} yang bukan angka berhingga`)));
}

function integer(value: unknown, what: string): number {
  return Number.isSafeInteger(value) ? (value as number) : fail(`${what} bukan bilangan bulat`);
}

function text(value: unknown, what: string): string {
  return typeof value === "string" ? value : fail(`${what} bukan teks`);
}

function matrix(value: unknown, what: string): number[][] {
  if (!(value instanceof NdArray) || value.shape.length !== 2 || !value.numbers) fail(`${what} bukan matriks angka`);
  const [rows, columns] = value.shape as [number, number];
  const numbers = Array.from(value.numbers);
  if (!numbers.every(Number.isFinite)) fail(`${what} berisi nilai tidak berhingga`);
  return Array.from({ length: rows }, (_, row) => numbers.slice(row * columns, (row + 1) * columns));
}

/** Category values: texts, or numbers that match numerically. Missing values are refused. */
function categories(value: unknown, what: string): CategoryValue[] {
  return sequence(value, what).map((item) => {
    if (typeof item === "string") return item;
    if (typeof item === "number" && Number.isFinite(item)) return item;
    return fail(`${what} berisi ${typeof item === "number" ? String(item) : describe(item)}; kategori kosong (NaN/None) tidak didukung`);
  });
}

function classList(value: unknown, what: string): ClassList {
  if (value instanceof NdArray && value.numbers) {
    if (value.dtype.kind === "b") fail(`${what}: kelas boolean tidak didukung`);
    return { type: value.dtype.kind === "f" ? "float" : "int", values: finiteNumbers(value, what) };
  }
  const values = categories(value, what);
  if (values.every((item) => typeof item === "string")) return { type: "string", values };
  if (values.every((item) => Number.isInteger(item))) return { type: "int", values };
  return fail(`${what}: kelas campuran teks dan angka tidak didukung`);
}

/** "1.6.1" → [1, 6]; the pickling version decides a few stored layouts. */
function sklearnVersion(object: PyObject): [number, number] {
  const version = object.has("_sklearn_version") ? object.get("_sklearn_version") : undefined;
  const match = typeof version === "string" ? /^(\d+)\.(\d+)/.exec(version) : null;
  if (!match) return fail(`${object.className} tanpa _sklearn_version`);
  return [Number(match[1]), Number(match[2])];
}

function atLeast(version: [number, number], major: number, minor: number): boolean {
  return version[0] > major || (version[0] === major && version[1] >= minor);
}

// ---------------------------------------------------------------------------------------
// Estimators

const treeClasses = ["DecisionTreeClassifier", "ExtraTreeClassifier"];
const forestClasses = ["RandomForestClassifier", "ExtraTreesClassifier"];

function outputsOf(object: PyObject): ClassList[] {
  const nOutputs = integer(attribute(object, "n_outputs_"), `${object.className}.n_outputs_`);
  const classes = attribute(object, "classes_");
  if (nOutputs === 1) return [classList(classes, `${object.className}.classes_`)];
  const lists = sequence(classes, `${object.className}.classes_`);
  if (lists.length !== nOutputs) fail(`${object.className}.classes_ tidak berisi ${nOutputs} keluaran`);
  return lists.map((list, index) => classList(list, `${object.className}.classes_[${index}]`));
}

function nFeaturesOf(object: PyObject): number {
  return integer(attribute(object, "n_features_in_"), `${object.className}.n_features_in_`);
}

/** `Tree.__getstate__`: structured `nodes` and `values` of shape (nodes, outputs, max classes). */
function treeArrays(classifier: PyObject, nOutputs: number, stride: number): TreeArrays {
  const tree = attribute(classifier, "tree_");
  if (!isObject(tree, "Tree")) fail(`${classifier.className}.tree_ berupa ${describe(tree)}`);
  const nodes = attribute(tree, "nodes");
  const values = attribute(tree, "values");
  if (!(nodes instanceof NdArray) || !nodes.fields) fail("Tree.nodes bukan array terstruktur");
  if (!(values instanceof NdArray) || !values.numbers) fail("Tree.values bukan array angka");
  const count = nodes.size;
  if (values.shape.length !== 3 || values.shape[0] !== count || values.shape[1] !== nOutputs || values.shape[2] !== stride) {
    fail(`Tree.values berbentuk (${values.shape.join(", ")}), seharusnya (${count}, ${nOutputs}, ${stride})`);
  }
  const field = (name: string) => nodes.fields!.get(name) ?? fail(`Tree.nodes tanpa kolom ${name}`);
  return {
    left: Array.from(field("left_child")),
    right: Array.from(field("right_child")),
    feature: Array.from(field("feature")),
    threshold: Array.from(field("threshold")),
    value: Array.from(values.numbers),
  };
}

/** Before 1.4 `tree_.value` holds weighted class counts; from 1.4 on, class fractions. */
function valueKind(classifier: PyObject): "counts" | "fractions" {
  return atLeast(sklearnVersion(classifier), 1, 4) ? "fractions" : "counts";
}

function convertEstimator(object: unknown): { estimator: Estimator; label: string } {
  if (isObject(object, ...treeClasses)) {
    const outputs = outputsOf(object);
    const stride = Math.max(...outputs.map((output) => output.values.length));
    return {
      estimator: {
        kind: "decision_tree",
        n_features: nFeaturesOf(object),
        outputs,
        value_kind: valueKind(object),
        tree: treeArrays(object, outputs.length, stride),
      },
      label: object.className,
    };
  }
  if (isObject(object, ...forestClasses)) {
    const outputs = outputsOf(object);
    const stride = Math.max(...outputs.map((output) => output.values.length));
    const members = sequence(attribute(object, "estimators_"), `${object.className}.estimators_`);
    if (members.length === 0) fail(`${object.className} tanpa pohon`);
    const kinds = new Set<"counts" | "fractions">();
    const trees = members.map((member) => {
      if (!isObject(member, ...treeClasses)) fail(`pohon ${object.className} berupa ${describe(member)}`);
      kinds.add(valueKind(member));
      return treeArrays(member, outputs.length, stride);
    });
    if (kinds.size !== 1) fail(`${object.className} mencampur pohon dari versi scikit-learn berbeda`);
    return {
      estimator: { kind: "forest", n_features: nFeaturesOf(object), outputs, value_kind: [...kinds][0]!, trees },
      label: `${object.className}×${trees.length}`,
    };
  }
  if (isObject(object, "MultiOutputClassifier")) {
    const parts = sequence(attribute(object, "estimators_"), "MultiOutputClassifier.estimators_").map(convertEstimator);
    return { estimator: { kind: "multi_output", estimators: parts.map((part) => part.estimator) }, label: `MultiOutputClassifier(${parts.map((part) => part.label).join(", ")})` };
  }
  if (isObject(object, "ClassifierChain")) {
    const method = object.has("chain_method_") ? object.get("chain_method_") : "predict";
    if (method !== "predict") fail(`ClassifierChain dengan chain_method=${String(method)} tidak didukung`);
    const order = sequence(attribute(object, "order_"), "ClassifierChain.order_").map((value) => integer(value, "ClassifierChain.order_"));
    const parts = sequence(attribute(object, "estimators_"), "ClassifierChain.estimators_").map(convertEstimator);
    return {
      estimator: { kind: "classifier_chain", order, estimators: parts.map((part) => part.estimator) },
      label: `ClassifierChain(order=[${order.join(", ")}]; ${parts.map((part) => part.label).join(", ")})`,
    };
  }
  return fail(`estimator tidak didukung: ${describe(object)}`);
}

// ---------------------------------------------------------------------------------------
// Preprocessing

function convertTransform(object: unknown): Transform {
  if (object === "passthrough" || object === null) return { kind: "passthrough" };
  if (isObject(object, "Pipeline")) {
    return { kind: "pipeline", steps: pipelineSteps(object).map((step) => convertTransform(step)) };
  }
  if (isObject(object, "FunctionTransformer")) {
    if (attribute(object, "func") !== null) fail("FunctionTransformer dengan fungsi tidak didukung");
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
function pipelineSteps(pipeline: PyObject): unknown[] {
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
function inputTypes(transform: Transform, width: number): InputType[] {
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

function convertColumnTransformer(object: PyObject, fallbackNames: string[] | null): { preprocess: ColumnTransformer; inputs: InputFeature[] } {
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

// ---------------------------------------------------------------------------------------
// Bundles

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

export interface SourceInfo {
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

/** Inputs of a tree or forest used without preprocessing: all numbers, by fitted names. */
function bareInputs(estimator: PyObject, featureNames: string[] | null): InputFeature[] {
  const nFeatures = nFeaturesOf(estimator);
  const names = estimator.has("feature_names_in_")
    ? sequence(estimator.get("feature_names_in_"), "feature_names_in_").map((name) => text(name, "feature_names_in_"))
    : featureNames?.length === nFeatures
      ? featureNames
      : fail(`${estimator.className} tanpa nama fitur (feature_names_in_)`);
  return names.map((name) => ({ name, type: "number" }));
}
