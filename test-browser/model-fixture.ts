// A model the browser tests activate: small enough to read, with probabilities to show.

/** A one-node tree answering stress Tinggi with probability 0.7, in the project's JSON model format. */
export const stressTinggiModel = {
  format: "skrining-model",
  format_version: 1,
  algorithm: "uji",
  version: "uji 1",
  inputs: [{ name: "S1", type: "number" }],
  preprocess: null,
  estimator: {
    kind: "decision_tree",
    n_features: 1,
    outputs: [{ type: "int", values: [0, 1, 2] }],
    value_kind: "fractions",
    tree: { left: [-1], right: [-1], feature: [-2], threshold: [-2], value: [0.1, 0.2, 0.7] },
  },
  label_map: [[0, "Rendah"], [1, "Sedang"], [2, "Tinggi"]],
} as const;
