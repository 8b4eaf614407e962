import { NdArray, PyType, numpyGlobal } from "./numpy";
import { PickleError, PyObject, describe, type Buildable, type PickleGlobal, type PyTuple } from "./pickle-values";

/**
 * Every global a model file may name, and the inert stand-in each becomes. Anything else
 * is refused with its full name. Nothing is ever called: a "call" here only records its
 * arguments (or, for numpy arrays, decodes bytes).
 */

/** The scikit-learn classes (1.2–1.9 module paths) that a supported model is made of. */
const sklearnClasses: Record<string, string> = {
  "sklearn.pipeline.Pipeline": "Pipeline",
  "sklearn.compose._column_transformer.ColumnTransformer": "ColumnTransformer",
  "sklearn.compose._column_transformer._RemainderColsList": "_RemainderColsList",
  "sklearn.preprocessing._data.StandardScaler": "StandardScaler",
  "sklearn.preprocessing._encoders.OrdinalEncoder": "OrdinalEncoder",
  "sklearn.preprocessing._encoders.OneHotEncoder": "OneHotEncoder",
  "sklearn.preprocessing._function_transformer.FunctionTransformer": "FunctionTransformer",
  "sklearn.preprocessing._label.LabelEncoder": "LabelEncoder",
  "sklearn.impute._base.SimpleImputer": "SimpleImputer",
  "sklearn.decomposition._pca.PCA": "PCA",
  "sklearn.ensemble._forest.RandomForestClassifier": "RandomForestClassifier",
  "sklearn.ensemble._forest.ExtraTreesClassifier": "ExtraTreesClassifier",
  "sklearn.ensemble._voting.VotingClassifier": "VotingClassifier",
  "sklearn.ensemble._gb.GradientBoostingClassifier": "GradientBoostingClassifier",
  "sklearn.ensemble._hist_gradient_boosting.gradient_boosting.HistGradientBoostingClassifier": "HistGradientBoostingClassifier",
  "sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor": "TreePredictor",
  "sklearn.ensemble._hist_gradient_boosting.binning._BinMapper": "_BinMapper",
  "sklearn.tree._classes.DecisionTreeClassifier": "DecisionTreeClassifier",
  "sklearn.tree._classes.DecisionTreeRegressor": "DecisionTreeRegressor",
  "sklearn.tree._classes.ExtraTreeClassifier": "ExtraTreeClassifier",
  "sklearn.tree._tree.Tree": "Tree",
  "sklearn.linear_model._logistic.LogisticRegression": "LogisticRegression",
  "sklearn.naive_bayes.GaussianNB": "GaussianNB",
  "sklearn.dummy.DummyClassifier": "DummyClassifier",
  "sklearn.multioutput.ClassifierChain": "ClassifierChain",
  "sklearn.multioutput.MultiOutputClassifier": "MultiOutputClassifier",
  "sklearn.model_selection._search.GridSearchCV": "GridSearchCV",
  "sklearn.model_selection._search.RandomizedSearchCV": "RandomizedSearchCV",
  // What boosters and searches carry along; read only for their type or not at all.
  "sklearn.ensemble._gb_losses.BinomialDeviance": "BinomialDeviance",
  "sklearn.ensemble._gb_losses.MultinomialDeviance": "MultinomialDeviance",
  "sklearn._loss.loss.HalfBinomialLoss": "HalfBinomialLoss",
  "sklearn._loss.loss.HalfMultinomialLoss": "HalfMultinomialLoss",
  "sklearn._loss.link.LogitLink": "LogitLink",
  "sklearn._loss.link.MultinomialLogit": "MultinomialLogit",
  "sklearn._loss.link.Interval": "Interval",
  "sklearn.model_selection._split.StratifiedKFold": "StratifiedKFold",
  "sklearn.model_selection._split.KFold": "KFold",
  "sklearn.metrics._scorer._PassthroughScorer": "_PassthroughScorer",
  "sklearn.utils._metadata_requests.MetadataRequest": "MetadataRequest",
  "sklearn.utils._metadata_requests.MethodMetadataRequest": "MethodMetadataRequest",
};

/**
 * Objects restored by a function or with a state of their own shape (Cython classes,
 * random generators, masked arrays, `functools.partial`): kept as their arguments and
 * state, never looked into except where the conversion says so.
 */
export class OpaqueObject implements Buildable {
  state: unknown = null;
  constructor(
    readonly className: string,
    readonly args: readonly unknown[],
  ) {}

  build(state: unknown): unknown {
    this.state = state;
    return this;
  }
}

const opaqueGlobals = new Set([
  "sklearn._loss._loss.CyHalfBinomialLoss",
  "sklearn._loss._loss.CyHalfMultinomialLoss",
  "sklearn._loss._loss.__pyx_unpickle_CyHalfBinomialLoss",
  "sklearn._loss._loss.__pyx_unpickle_CyHalfMultinomialLoss",
  // Some builds record the Cython module by its short name.
  "_loss.CyHalfBinomialLoss",
  "_loss.CyHalfMultinomialLoss",
  "_loss.__pyx_unpickle_CyHalfBinomialLoss",
  "_loss.__pyx_unpickle_CyHalfMultinomialLoss",
  "functools.partial",
  "numpy.ma.core._mareconstruct",
  "numpy.random._pickle.__bit_generator_ctor",
  "numpy.random._pickle.__generator_ctor",
  "numpy.random._pickle.__randomstate_ctor",
  "numpy.random.bit_generator.__pyx_unpickle_SeedSequence",
  "numpy.random._mt19937.MT19937",
  "numpy.random._pcg64.PCG64",
  "numpy.random.bit_generator.SeedSequence",
  "pandas._libs.arrays.__pyx_unpickle_NDArrayBacked",
  "pandas.StringDtype",
  "pandas.core.arrays.string_.StringDtype",
]);

/** Functions and classes that only appear as values (a scorer, a validation function, a type). */
const valueGlobals = new Set([
  "sklearn.metrics._scorer._passthrough_scorer",
  "sklearn.utils.validation.check_array",
  "numpy.ma.core.MaskedArray",
  "numpy.ma.MaskedArray",
  "pandas.core.indexes.base.Index",
  "pandas.Index",
  "pandas.arrays.StringArray",
  "pandas.core.arrays.string_.StringArray",
]);

/** sklearn's `Bunch` is a dict subclass: filled by SETITEMS, its BUILD state is empty. */
class BunchMap extends Map<unknown, unknown> implements Buildable {
  build(): unknown {
    return this;
  }
}

/** The values of a pandas Index (`X.columns`): a numpy array, or pandas 3's string array around one. */
function indexValues(args: PyTuple): unknown {
  const [, data] = args;
  const values = data instanceof Map ? data.get("data") : undefined;
  if (values instanceof NdArray) return values;
  if (values instanceof OpaqueObject && Array.isArray(values.state)) {
    const array = values.state.find((part) => part instanceof NdArray);
    if (array) return array;
  }
  throw new PickleError(`Index pandas berisi ${describe(values)}; tidak didukung`);
}

function sklearnClass(qualifiedName: string, className: string): PickleGlobal {
  const make = (args: readonly unknown[]) => new PyObject(className, args);
  return { qualifiedName, call: make, construct: make };
}

/** The whitelist, for every pickle of a model file (joblib's array wrapper is added by joblib.ts). */
export function modelGlobal(module: string, name: string): PickleGlobal | undefined {
  const qualifiedName = `${module}.${name}`;
  const numpy = numpyGlobal(module, name);
  if (numpy) return numpy;
  const sklearn = sklearnClasses[qualifiedName];
  if (sklearn) return sklearnClass(qualifiedName, sklearn);
  if (opaqueGlobals.has(qualifiedName)) {
    const make = (args: readonly unknown[]) => new OpaqueObject(name, args);
    return { qualifiedName, call: make, construct: make };
  }
  if (valueGlobals.has(qualifiedName)) return new PyType(qualifiedName);
  if (qualifiedName === "sklearn.utils._bunch.Bunch") return { qualifiedName, construct: () => new BunchMap() };
  if (qualifiedName === "pandas.core.indexes.base._new_Index") return { qualifiedName, call: indexValues };
  if (qualifiedName === "builtins.slice" || qualifiedName === "__builtin__.slice") {
    return { qualifiedName, call: (args) => new PyObject("slice", args) };
  }
  if (qualifiedName === "_codecs.encode") {
    // Protocol 2 writes bytes as `_codecs.encode(text, 'latin1')`.
    return {
      qualifiedName,
      call: ([text, encoding]) => {
        if (typeof text !== "string" || (encoding !== "latin1" && encoding !== "latin-1")) throw new PickleError("_codecs.encode hanya untuk latin1");
        const bytes = new Uint8Array(text.length);
        for (let index = 0; index < text.length; index++) {
          const code = text.charCodeAt(index);
          if (code > 0xff) throw new PickleError("teks latin1 tidak valid");
          bytes[index] = code;
        }
        return bytes;
      },
    };
  }
  return undefined;
}

/** The names of the estimators a file may hold, for the message that refuses another one. */
export const supportedEstimators =
  "LogisticRegression, GaussianNB, DecisionTreeClassifier, ExtraTreeClassifier, RandomForestClassifier, ExtraTreesClassifier, " +
  "GradientBoostingClassifier, HistGradientBoostingClassifier, VotingClassifier, MultiOutputClassifier, ClassifierChain, " +
  "GridSearchCV/RandomizedSearchCV (best_estimator_)";
