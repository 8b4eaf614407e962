// One prediction of each kind of model skrining reads, with 100 estimators where the kind
// has estimators. Run alone with `npm run bench:model` (no server, no data folder), or as
// part of `npm run bench`. The models are the committed scikit-learn 1.6 fixtures
// (test/models/fixtures), converted to the JSON format and given 100 estimators by
// repeating their own trees in order: the same tree shapes, so the same cost per tree.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { readModelSource } from "../src/models/files";
import { parseModelJson, stringifyModelDocument, type Estimator } from "../src/models/format";
import { CompiledModel } from "../src/models/predict";
import { median } from "./processes";
import type { Figure } from "./report";

const fixtures = join(import.meta.dir, "..", "test", "models", "fixtures", "sklearn-1.6");
const estimatorCount = 100;
// Rounds over every row of the fixture.
const rounds = 15;

/** The fixtures timed, one per kind (and per shape where the shape adds work). */
const kinds: { name: string; kind: string }[] = [
  { name: "lr_multinomial", kind: "LogisticRegression (multinomial), two outputs" },
  { name: "lr_scaled_pipeline", kind: "Pipeline(StandardScaler, LogisticRegression), two outputs" },
  { name: "gaussian_nb", kind: "GaussianNB, two outputs" },
  { name: "forest_chain", kind: "ClassifierChain(RandomForest×100), two outputs" },
  { name: "grid_search_stress", kind: "GridSearchCV → RandomForest×100, one output" },
  { name: "voting_soft_trees", kind: "VotingClassifier(soft; RF×100, ET×100, DT), two outputs" },
  { name: "voting_hard_chain", kind: "ClassifierChain(VotingClassifier(hard; RF×100, ET×100, DT)), two outputs" },
  { name: "voting_soft_mixed", kind: "VotingClassifier(soft; LR pipeline, GaussianNB, RF×100), two outputs" },
  { name: "gradient_boosting", kind: "GradientBoosting×100 (3 classes: 300 trees per output), two outputs" },
  { name: "gb_binary_stress", kind: "GradientBoosting×100 (binary), one output" },
  { name: "hist_gradient_boosting", kind: "HistGradientBoosting×100 (3 classes), two outputs" },
  { name: "hgb_native_categories_stress", kind: "HistGradientBoosting×100, pandas categories, one output" },
];

/** `count` of the estimator's own trees (stages, iterations), repeated in order. */
function cycled<T>(items: T[], count: number): T[] {
  return Array.from({ length: count }, (_, index) => items[index % items.length]!);
}

export function withEstimators(estimator: Estimator, count: number): Estimator {
  switch (estimator.kind) {
    case "forest":
      return { ...estimator, trees: cycled(estimator.trees, count) };
    case "gradient_boosting":
      return { ...estimator, stages: cycled(estimator.stages, count) };
    case "hist_gradient_boosting":
      return { ...estimator, iterations: cycled(estimator.iterations, count) };
    case "multi_output":
    case "classifier_chain":
    case "voting":
      return { ...estimator, estimators: estimator.estimators.map((part) => withEstimators(part, count)) };
    case "pipeline":
      return { ...estimator, estimator: withEstimators(estimator.estimator, count) };
    default:
      return estimator;
  }
}

export interface KindMeasurement {
  name: string;
  kind: string;
  /**
   * One prediction with every class's probability, as a submission makes it (named
   * features to a row, then the model), in CPU time: the fastest round.
   */
  microseconds: number;
  /** The median round, which other processes' use of the caches and cores inflates. */
  medianMicroseconds: number;
}

export function measureModelKinds(): KindMeasurement[] {
  const rows = parse(readFileSync(join(fixtures, "rows.csv"), "utf8"), { columns: true, cast: (value) => (value !== "" && Number.isFinite(Number(value)) ? Number(value) : value) }) as Record<string, string | number>[];
  return kinds.map(({ name, kind }) => {
    const manifest = JSON.parse(readFileSync(join(fixtures, "manifest.json"), "utf8")) as { models: { name: string; file: string }[] };
    const file = manifest.models.find((model) => model.name === name)!.file;
    const { document } = readModelSource(join(fixtures, file));
    // Through the JSON text, as the server loads a model.
    const model = new CompiledModel(parseModelJson(stringifyModelDocument({ ...document, estimator: withEstimators(document.estimator, estimatorCount) })));
    const predictAll = () => {
      for (const row of rows) model.predictOutputs(model.rowFromFeatures(row));
    };
    predictAll();
    // CPU time of this process, not wall time: on a shared machine a round may wait for a core.
    const perRow: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = process.cpuUsage();
      predictAll();
      const used = process.cpuUsage(started);
      perRow.push((used.user + used.system) / rows.length);
    }
    return { name, kind, microseconds: Math.min(...perRow), medianMicroseconds: median(perRow) };
  });
}

/** The bench report's rows: one per kind, against the target of 50 µs. */
export function modelKindFigures(results: KindMeasurement[]): Figure[] {
  return results.map((result) => ({
    name: `one prediction with its probabilities: ${result.kind} (in process, CPU time, fastest of ${rounds} rounds over the fixture's rows)`,
    value: `${result.microseconds.toFixed(1)} µs (median round ${result.medianMicroseconds.toFixed(1)} µs)`,
    target: "< 50 µs",
    met: result.microseconds < 50,
  }));
}

/**
 * `model add` of the earlier deployment's 100-tree chain (two forests of 100 trees, 700 KB)
 * with the executable in a new data folder, the whole process timed; the median of three.
 */
async function modelAddMilliseconds(executable: string, bundle: string): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < 3; run++) {
    const folder = mkdtempSync(join(tmpdir(), "skrining-bench-model-"));
    const env = { PATH: process.env.PATH ?? "", HOME: folder, SKRINING_BCRYPT_COST: "4" };
    try {
      // A data folder with one account (only these commands create one), then the timed command.
      writeFileSync(join(folder, "admin.csv"), "role,username,password\nadmin,admin,bench-admin-1\n");
      const prepared = Bun.spawnSync([executable, "--data", join(folder, "data"), "accounts", "import", join(folder, "admin.csv")], { env });
      if (prepared.exitCode !== 0) throw new Error(`accounts import failed: ${prepared.stderr.toString()}`);
      const started = performance.now();
      const child = Bun.spawn([executable, "--data", join(folder, "data"), "model", "add", "--type", "stress", "--file", bundle], { stdout: "pipe", stderr: "pipe", env });
      const exitCode = await child.exited;
      times.push(performance.now() - started);
      if (exitCode !== 0) throw new Error(`model add failed: ${await new Response(child.stderr).text()}`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return median(times);
}

if (import.meta.main) {
  console.log("| kind | µs CPU per prediction, fastest of 15 rounds | median round |\n|---|---|---|");
  for (const result of measureModelKinds()) console.log(`| ${result.kind} | ${result.microseconds.toFixed(1)} | ${result.medianMicroseconds.toFixed(1)} |`);
  const executable = join(import.meta.dir, "..", "dist", "skrining");
  const bundle = join(import.meta.dir, "..", "..", "shared", "fixtures", "models", "original", "model_chain_final.joblib");
  if (existsSync(executable) && existsSync(bundle)) console.log(`\n\`model add\` of model_chain_final.joblib (dist/skrining, whole process): ${Math.round(await modelAddMilliseconds(executable, bundle))} ms`);
  else console.log("\n(`model add` not timed: dist/skrining or the shared model fixtures are missing)");
}
