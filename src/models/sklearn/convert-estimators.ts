import type { ClassList, Estimator, InputFeature, TreeArrays } from "../format";
import { atLeast, attribute, categories, fail, finiteNumbers, integer, isObject, sequence, sklearnVersion, text } from "./convert-attributes";
import { NdArray } from "./numpy";
import { describe, type PyObject } from "./pickle-values";

/** Fitted trees, forests, MultiOutputClassifier and ClassifierChain as model estimators. */

const treeClasses = ["DecisionTreeClassifier", "ExtraTreeClassifier"];
const forestClasses = ["RandomForestClassifier", "ExtraTreesClassifier"];

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

export function convertEstimator(object: unknown): { estimator: Estimator; label: string } {
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

/** Inputs of a tree or forest used without preprocessing: all numbers, by fitted names. */
export function bareInputs(estimator: PyObject, featureNames: string[] | null): InputFeature[] {
  const nFeatures = nFeaturesOf(estimator);
  const names = estimator.has("feature_names_in_")
    ? sequence(estimator.get("feature_names_in_"), "feature_names_in_").map((name) => text(name, "feature_names_in_"))
    : featureNames?.length === nFeatures
      ? featureNames
      : fail(`${estimator.className} tanpa nama fitur (feature_names_in_)`);
  return names.map((name) => ({ name, type: "number" }));
}
