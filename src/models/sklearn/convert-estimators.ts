import type { ClassList, Estimator, InputFeature, TreeArrays } from "../format";
import { atLeast, attribute, categories, fail, finiteNumbers, integer, isObject, matrix, sequence, sklearnVersion, text } from "./convert-attributes";
import { convertGradientBoosting, convertHistGradientBoosting } from "./convert-boosting";
import { convertPositionalColumns, convertTransform, pipelineSteps } from "./convert-transforms";
import { NdArray } from "./numpy";
import { describe, type PyObject } from "./pickle-values";
import { supportedEstimators } from "./whitelist";

/**
 * Fitted estimators as model estimators: trees, forests, boosters, logistic regression,
 * GaussianNB, voting, and the MultiOutputClassifier and ClassifierChain around them.
 */

const treeClasses = ["DecisionTreeClassifier", "ExtraTreeClassifier"];
const forestClasses = ["RandomForestClassifier", "ExtraTreesClassifier"];

export function classList(value: unknown, what: string): ClassList {
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
  if (isObject(object, "LogisticRegression")) return { estimator: convertLogisticRegression(object), label: "LogisticRegression" };
  if (isObject(object, "GaussianNB")) {
    return {
      estimator: {
        kind: "gaussian_nb",
        n_features: nFeaturesOf(object),
        outputs: [classList(attribute(object, "classes_"), "GaussianNB.classes_")],
        theta: matrix(attribute(object, "theta_"), "GaussianNB.theta_"),
        // `var_` since 1.0 (`sigma_` before); it already holds the added epsilon.
        var: matrix(object.has("var_") ? object.get("var_") : attribute(object, "sigma_"), "GaussianNB.var_"),
        class_prior: finiteNumbers(attribute(object, "class_prior_"), "GaussianNB.class_prior_"),
      },
      label: "GaussianNB",
    };
  }
  if (isObject(object, "GradientBoostingClassifier")) {
    const estimator = convertGradientBoosting(object, [classList(attribute(object, "classes_"), "GradientBoostingClassifier.classes_")]);
    return { estimator, label: `GradientBoostingClassifier×${estimator.kind === "gradient_boosting" ? estimator.stages.length : 0}` };
  }
  if (isObject(object, "HistGradientBoostingClassifier")) {
    const estimator = convertHistGradientBoosting(object, [classList(attribute(object, "classes_"), "HistGradientBoostingClassifier.classes_")]);
    const label = `HistGradientBoostingClassifier×${estimator.kind === "hist_gradient_boosting" ? estimator.iterations.length : 0}`;
    // From 1.4 its categorical features pass its own OrdinalEncoder first (categories first in its output).
    const own = object.has("_preprocessor") ? object.get("_preprocessor") : null;
    if (own === null) return { estimator, label };
    if (!isObject(own, "ColumnTransformer")) return fail(`_preprocessor berupa ${describe(own)}`);
    return { estimator: { kind: "pipeline", steps: [convertPositionalColumns(own)], estimator }, label };
  }
  if (isObject(object, "VotingClassifier")) return convertVoting(object);
  if (isObject(object, "GridSearchCV", "RandomizedSearchCV")) return convertEstimator(bestEstimator(object));
  if (isObject(object, "Pipeline")) {
    // A member's own pipeline (a scaler before a logistic regression in a vote): numbers in, numbers out.
    const steps = pipelineSteps(object);
    const inner = convertEstimator(steps[steps.length - 1]);
    return {
      estimator: { kind: "pipeline", steps: steps.slice(0, -1).map((step) => convertTransform(step)), estimator: inner.estimator },
      label: `Pipeline(${[...steps.slice(0, -1).map(describe), inner.label].join(", ")})`,
    };
  }
  return fail(`estimator tidak didukung: ${describe(object)}. Estimator yang didukung: ${supportedEstimators}`);
}

/** A saved search predicts with its refitted best pipeline. */
export function bestEstimator(search: PyObject): unknown {
  if (!search.has("best_estimator_")) fail(`${search.className} tanpa best_estimator_ (dilatih dengan refit=False); simpan best_estimator_`);
  return search.get("best_estimator_");
}

function convertLogisticRegression(object: PyObject): Estimator {
  const version = sklearnVersion(object);
  const outputs: [ClassList] = [classList(attribute(object, "classes_"), "LogisticRegression.classes_")];
  const coefficients = attribute(object, "coef_");
  // 1.8+ may keep a binary model's coefficients as one row without the second axis.
  const coef = coefficients instanceof NdArray && coefficients.shape.length === 1 ? [finiteNumbers(coefficients, "coef_")] : matrix(coefficients, "LogisticRegression.coef_");
  const interceptValue = attribute(object, "intercept_");
  const intercept = typeof interceptValue === "number" ? coef.map(() => interceptValue) : finiteNumbers(interceptValue, "LogisticRegression.intercept_");
  const multiClass = object.has("multi_class") ? object.get("multi_class") : "auto";
  const solver = object.has("solver") ? object.get("solver") : "lbfgs";
  const binary = outputs[0].values.length <= 2;
  // predict_proba: one-vs-rest (expit, normalised) or softmax, by the version's rule.
  let ovr: boolean;
  if (!atLeast(version, 1, 8) && (multiClass === "ovr" || multiClass === "warn")) ovr = true;
  else if (!atLeast(version, 1, 8) && multiClass === "multinomial") ovr = false;
  else if (binary) ovr = true;
  else if (atLeast(version, 1, 8)) ovr = false;
  else ovr = solver === "liblinear" || (!atLeast(version, 1, 3) && solver === "newton-cholesky");
  return {
    kind: "linear",
    n_features: nFeaturesOf(object),
    outputs,
    coef,
    intercept,
    probability: ovr ? "ovr" : "softmax",
    all_zero_uniform: atLeast(version, 1, 8),
  };
}

/** VotingClassifier: members learned the indexes of `classes_` (its LabelEncoder `le_`). */
function convertVoting(object: PyObject): { estimator: Estimator; label: string } {
  const voting = attribute(object, "voting");
  if (voting !== "hard" && voting !== "soft") fail(`VotingClassifier voting=${String(voting)} tidak didukung`);
  const members = sequence(attribute(object, "estimators_"), "VotingClassifier.estimators_").map(convertEstimator);
  const weightsValue = attribute(object, "weights");
  let weights: number[] | null = null;
  if (weightsValue !== null) {
    // `_weights_not_none`: the weights of the members that were not dropped.
    const declared = sequence(attribute(object, "estimators"), "VotingClassifier.estimators");
    const all = finiteNumbers(weightsValue, "VotingClassifier.weights");
    weights = all.filter((_, index) => {
      const entry = declared[index];
      return !(Array.isArray(entry) && (entry[1] === "drop" || entry[1] === null));
    });
  }
  return {
    estimator: {
      kind: "voting",
      outputs: [classList(attribute(object, "classes_"), "VotingClassifier.classes_")],
      voting,
      weights,
      estimators: members.map((member) => member.estimator),
    },
    label: `VotingClassifier(${voting}; ${members.map((member) => member.label).join(", ")})`,
  };
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
