import type { ClassList, Estimator, HistogramTree, RegressionTree } from "../format";
import { atLeast, attribute, fail, finiteNumbers, integer, isObject, matrix, sequence, sklearnVersion } from "./convert-attributes";
import { NdArray } from "./numpy";
import { describe, type PyObject } from "./pickle-values";

/**
 * GradientBoostingClassifier and HistGradientBoostingClassifier as model estimators. The
 * baseline of GradientBoosting is computed here from the class priors, with the formula
 * of the loss the file was saved with.
 */

const float32Epsilon = 2 ** -23;

/** scipy's `logit` (1.11+): the plain formula away from ½, log1p around it. */
function logit(p: number): number {
  if (p < 0.3 || p > 0.65) return Math.log(p / (1 - p));
  const s = 2 * (p - 0.5);
  return Math.log1p(s) - Math.log1p(-s);
}

/** The raw score every prediction starts from (`_raw_predict_init`), one per tree of a stage. */
function gradientBoostingBaseline(object: PyObject, classes: number): number[] {
  const init = attribute(object, "init_");
  const columns = classes === 2 ? 1 : classes;
  if (init === "zero") return new Array<number>(columns).fill(0);
  if (!isObject(init, "DummyClassifier") || attribute(init, "strategy") !== "prior") {
    return fail(`GradientBoostingClassifier dengan init ${describe(init)} tidak didukung (yang didukung: bawaan atau 'zero')`);
  }
  const priors = finiteNumbers(attribute(init, "class_prior_"), "DummyClassifier.class_prior_");
  if (priors.length !== classes) fail("DummyClassifier.class_prior_ tidak cocok dengan kelas");
  const loss = attribute(object, "_loss");
  const oldLoss = isObject(loss, "BinomialDeviance", "MultinomialDeviance");
  // 1.9 clips at float64's epsilon, earlier versions at float32's.
  const epsilon = atLeast(sklearnVersion(object), 1, 9) ? Number.EPSILON : float32Epsilon;
  const clipped = priors.map((prior) => Math.min(Math.max(prior, epsilon), 1 - epsilon));
  if (classes === 2) {
    const positive = clipped[1]!;
    return [oldLoss ? Math.log(positive / (1 - positive)) : logit(positive)];
  }
  if (oldLoss) return clipped.map((prior) => Math.log(prior));
  // MultinomialLogit: log(p / geometric mean), the mean of the logs in class order.
  let sum = 0;
  for (const prior of clipped) sum += Math.log(prior);
  const mean = Math.exp(sum / clipped.length);
  return clipped.map((prior) => Math.log(prior / mean));
}

function regressionTree(regressor: unknown, where: string): RegressionTree {
  if (!isObject(regressor, "DecisionTreeRegressor")) fail(`${where} berupa ${describe(regressor)}`);
  const tree = attribute(regressor, "tree_");
  if (!isObject(tree, "Tree")) fail(`${where}.tree_ berupa ${describe(tree)}`);
  const nodes = attribute(tree, "nodes");
  const values = attribute(tree, "values");
  if (!(nodes instanceof NdArray) || !nodes.fields) fail("Tree.nodes bukan array terstruktur");
  if (!(values instanceof NdArray) || !values.numbers || values.size !== nodes.size) fail("Tree.values pohon regresi tidak cocok dengan simpulnya");
  const field = (name: string) => Array.from(nodes.fields!.get(name) ?? fail(`Tree.nodes tanpa kolom ${name}`));
  return { left: field("left_child"), right: field("right_child"), feature: field("feature"), threshold: field("threshold"), value: Array.from(values.numbers) };
}

export function convertGradientBoosting(object: PyObject, outputs: [ClassList]): Estimator {
  const classes = outputs[0].values.length;
  const baseline = gradientBoostingBaseline(object, classes);
  const stagesArray = attribute(object, "estimators_");
  if (!(stagesArray instanceof NdArray) || stagesArray.shape.length !== 2 || !stagesArray.items) fail("GradientBoostingClassifier.estimators_ bukan array pohon");
  const [count, perStage] = stagesArray.shape as [number, number];
  const trees = stagesArray.items.map((tree, index) => regressionTree(tree, `GradientBoostingClassifier.estimators_[${index}]`));
  const stages = Array.from({ length: count }, (_, stage) => trees.slice(stage * perStage, (stage + 1) * perStage));
  const loss = attribute(object, "_loss");
  return {
    kind: "gradient_boosting",
    n_features: integer(attribute(object, "n_features_in_"), "GradientBoostingClassifier.n_features_in_"),
    outputs,
    baseline,
    learning_rate: finiteNumbers([attribute(object, "learning_rate")], "learning_rate")[0]!,
    decision: isObject(loss, "BinomialDeviance", "MultinomialDeviance") ? "probability" : "raw",
    stages,
  };
}

function histogramTree(predictor: unknown, where: string): HistogramTree {
  if (!isObject(predictor, "TreePredictor")) fail(`${where} berupa ${describe(predictor)}`);
  const nodes = attribute(predictor, "nodes");
  if (!(nodes instanceof NdArray) || !nodes.fields) fail(`${where}.nodes bukan array terstruktur`);
  const field = (name: string) => nodes.fields!.get(name) ?? fail(`${where}.nodes tanpa kolom ${name}`);
  const leaf = field("is_leaf");
  const bitsets = attribute(predictor, "raw_left_cat_bitsets");
  const rows = bitsets instanceof NdArray && bitsets.size === 0 ? [] : matrix(bitsets, `${where}.raw_left_cat_bitsets`);
  if (rows.some((row) => row.length !== 8)) fail(`${where}.raw_left_cat_bitsets harus 8 kolom`);
  const isLeaf = (node: number) => leaf[node] === 1;
  return {
    left: Array.from(field("left"), (child, node) => (isLeaf(node) ? -1 : child)),
    right: Array.from(field("right"), (child, node) => (isLeaf(node) ? -1 : child)),
    feature: Array.from(field("feature_idx"), (feature, node) => (isLeaf(node) ? -2 : feature)),
    threshold: Array.from(field("num_threshold")),
    missing_left: Array.from(field("missing_go_to_left")),
    categorical: Array.from(field("is_categorical")),
    bitset: Array.from(field("bitset_idx")),
    value: Array.from(field("value")),
    bitsets: rows,
  };
}

export function convertHistGradientBoosting(object: PyObject, outputs: [ClassList]): Estimator {
  const binMapper = attribute(object, "_bin_mapper");
  if (!isObject(binMapper, "_BinMapper")) fail(`HistGradientBoostingClassifier._bin_mapper berupa ${describe(binMapper)}`);
  const categorical = attribute(binMapper, "is_categorical_");
  const thresholds = sequence(attribute(binMapper, "bin_thresholds_"), "_BinMapper.bin_thresholds_");
  const flags = categorical === null ? thresholds.map(() => 0) : finiteNumbers(categorical, "_BinMapper.is_categorical_");
  if (flags.length !== thresholds.length) fail("_BinMapper.is_categorical_ tidak cocok dengan bin_thresholds_");
  // The categories seen in training, by their codes: another code is handled as missing.
  const known = flags.map((flag, feature) => (flag ? finiteNumbers(thresholds[feature], "_BinMapper.bin_thresholds_").map((code) => integer(code, "kode kategori")) : null));
  const iterations = sequence(attribute(object, "_predictors"), "HistGradientBoostingClassifier._predictors").map((iteration, index) =>
    sequence(iteration, "_predictors").map((predictor, k) => histogramTree(predictor, `_predictors[${index}][${k}]`)),
  );
  return {
    kind: "hist_gradient_boosting",
    n_features: thresholds.length,
    outputs,
    baseline: finiteNumbers(attribute(object, "_baseline_prediction"), "_baseline_prediction"),
    decision: atLeast(sklearnVersion(object), 1, 4) ? "raw" : "probability",
    known_categories: known,
    iterations,
  };
}
