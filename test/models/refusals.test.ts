import { describe, expect, test } from "bun:test";
import { readJoblib } from "../../src/models/sklearn/joblib";
import { convertSklearnModel } from "../../src/models/sklearn/convert";
import { NdArray, DType } from "../../src/models/sklearn/numpy";
import { PyObject } from "../../src/models/sklearn/pickle-values";
import { PickleBuilder } from "./support";

/** What is refused, and that each refusal says why (and what is supported). */

const source = { fileName: "uji.joblib", sha256: "0".repeat(64) };

function object(className: string, state: Record<string, unknown>): PyObject {
  const made = new PyObject(className);
  for (const [key, value] of Object.entries({ _sklearn_version: "1.6.1", ...state })) made.state.set(key, value);
  return made;
}

function numbers(values: number[], shape = [values.length]): NdArray {
  const array = new NdArray(new DType("f8"), shape);
  array.numbers = Float64Array.from(values);
  return array;
}

function texts(values: string[]): NdArray {
  const array = new NdArray(new DType("O8"), [values.length]);
  array.items = values;
  return array;
}

const logistic = () =>
  object("LogisticRegression", {
    classes_: numbers([0, 1, 2]),
    coef_: numbers([1, 2, 3], [3, 1]),
    intercept_: numbers([0, 0, 0]),
    n_features_in_: 1,
    feature_names_in_: texts(["S1"]),
    multi_class: "auto",
    solver: "lbfgs",
  });

describe("estimators that are not supported", () => {
  test("SVC, KNN and MLP are refused by name before anything is built, with the supported list", () => {
    for (const [module, name, extra] of [
      ["sklearn.svm._classes", "SVC", ""],
      ["sklearn.neighbors._classification", "KNeighborsClassifier", " (model ini menyimpan seluruh baris data latih, yaitu data pribadi)"],
      ["sklearn.neural_network._multilayer_perceptron", "MLPClassifier", ""],
    ] as const) {
      const file = new PickleBuilder(4).str(module).str(name).stackGlobal().emptyTuple().newobj().stop().done();
      expect(() => readJoblib(file)).toThrow(`kelas tidak diizinkan dalam file model: ${module}.${name}${extra}. Estimator yang didukung: LogisticRegression, GaussianNB,`);
    }
  });

  test("an estimator class that reads but is not a classifier skrining predicts with is refused with the list", () => {
    expect(() => convertSklearnModel(object("DummyClassifier", {}), source)).toThrow("estimator tidak didukung: DummyClassifier. Estimator yang didukung: LogisticRegression");
  });
});

describe("shapes whose predictions could not be reproduced", () => {
  test("a search saved without its refitted best estimator", () => {
    expect(() => convertSklearnModel(object("GridSearchCV", { best_params_: new Map() }), source)).toThrow("GridSearchCV tanpa best_estimator_ (dilatih dengan refit=False)");
  });

  test("a search is read through its best estimator", () => {
    const document = convertSklearnModel(object("RandomizedSearchCV", { best_estimator_: logistic(), best_params_: new Map([["C", 1]]) }), { ...source });
    expect(document.estimator).toMatchObject({ kind: "linear", probability: "softmax" });
    expect(document.source).toMatchObject({ search: "RandomizedSearchCV", best_params: { C: 1 } });
  });

  test("GradientBoosting with another init estimator", () => {
    const booster = object("GradientBoostingClassifier", { classes_: numbers([0, 1]), init_: logistic(), _loss: object("HalfBinomialLoss", {}), n_features_in_: 1, learning_rate: 0.1, estimators_: null });
    expect(() => convertSklearnModel(booster, source)).toThrow("GradientBoostingClassifier dengan init LogisticRegression tidak didukung");
  });

  test("LabelEncoders of the outputs that disagree", () => {
    const encoder = (classes: string[]) => object("LabelEncoder", { classes_: texts(classes) });
    const bundle = new Map<unknown, unknown>([
      ["pipeline", logistic()],
      ["feature_names", ["S1"]],
      ["encoders", [encoder(["Rendah", "Sedang", "Tinggi"]), encoder(["Tinggi", "Sedang", "Rendah"])]],
    ]);
    expect(() => convertSklearnModel(bundle, source)).toThrow("LabelEncoder dalam bundle punya kelas yang berbeda");
    bundle.set("encoders", [encoder(["Rendah", "Sedang", "Tinggi"])]);
    expect(convertSklearnModel(bundle, source).label_map).toEqual([[0, "Rendah"], [1, "Sedang"], [2, "Tinggi"]]);
  });

  test("a FunctionTransformer with a function of its own, in a plain-steps pipeline", () => {
    const steps = [Object.freeze(["f", object("FunctionTransformer", { func: object("partial", {}) })]), Object.freeze(["clf", logistic()])];
    const pipeline = object("Pipeline", { steps });
    expect(() => convertSklearnModel(new Map<unknown, unknown>([["pipeline", pipeline], ["feature_names", ["S1"]]]), source)).toThrow("FunctionTransformer dengan fungsi tidak didukung");
  });

  test("voting other than hard or soft", () => {
    const voting = object("VotingClassifier", { voting: "lunak", estimators_: [], weights: null, classes_: numbers([0, 1, 2]), n_features_in_: 1 });
    expect(() => convertSklearnModel(voting, source)).toThrow("VotingClassifier voting=lunak tidak didukung");
  });
});
