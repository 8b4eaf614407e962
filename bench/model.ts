import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { parse } from "csv-parse/sync";
import { loadJsonModel } from "../src/models/files";
import { median, reason, runTimed } from "./processes";

export interface ModelContext {
  /** The command that runs the CLI, e.g. `["dist/skrining"]`. */
  cli: string[];
  /** The data folder the models are added to (and activated in, for the questionnaire run). */
  dataDir: string;
  /** A scratch folder for the prediction input and output files. */
  workDir: string;
  env: Record<string, string | undefined>;
  /** The original 700 KB bundle of the earlier deployment. */
  bundlePath: string;
  /** Typed rows with every model input (the scikit-learn 1.2 fixture's rows.csv). */
  rowsPath: string;
}

export interface ModelMeasurement {
  /** One prediction as a submission makes it: named features to a row, then the model (in this process). */
  predictionMicroseconds: number | null;
  /** One row of `model predict`: the CSV parsed and written too (the whole command, start and load cancelled). */
  batchRowMicroseconds: number | null;
  modelAddMilliseconds: number | null;
  note?: string;
}

interface ModelRecord {
  id: number;
  type: string;
  file_path: string;
  is_active: boolean;
}

/** The records of `model list --json`, whether printed as an array or wrapped in an object. */
function modelRecords(output: string): ModelRecord[] {
  const parsed: unknown = JSON.parse(output);
  const list = Array.isArray(parsed) ? parsed : Object.values(parsed as object).find(Array.isArray);
  return (list ?? []) as ModelRecord[];
}

const smallRows = 20;
const repetitions = 3;

const inProcessRounds = 5;

/**
 * What a submission pays for its prediction (`RegistryClassifier.classify`: the profile's
 * named features to the model's row, then `predictRow`), timed over every row of the
 * fixture in this process, on the stored JSON model as the server loads it; the median of
 * the rounds, per row.
 */
function predictionInProcess(modelFile: string, rowsPath: string): number {
  const model = loadJsonModel(modelFile);
  const features = parse(readFileSync(rowsPath, "utf8"), { columns: true }) as Record<string, string>[];
  // A warm-up round lets the JIT compile the trees' loop before anything is timed.
  for (const named of features) model.predictRow(model.rowFromFeatures(named));
  const perRow: number[] = [];
  for (let round = 0; round < inProcessRounds; round++) {
    const started = performance.now();
    for (const named of features) model.predictRow(model.rowFromFeatures(named));
    perRow.push(((performance.now() - started) * 1000) / features.length);
  }
  return median(perRow);
}

/**
 * Times `model add` of the bundle (conversion to the JSON format included), activates it
 * for both types so the questionnaire run classifies with a 100-tree forest, times one
 * prediction in this process, and derives one row's time of `model predict` from two batch runs: the difference between
 * all rows and 20 rows, divided by the difference in rows, cancels the process start and
 * the model load.
 */
export async function measureModel(context: ModelContext): Promise<ModelMeasurement> {
  const run = (...args: string[]) => runTimed([...context.cli, "--data", context.dataDir, "model", ...args], { env: context.env });

  const stress = await run("add", "--type", "stress", "--file", context.bundlePath, "--activate");
  if (stress.exitCode !== 0) return { predictionMicroseconds: null, batchRowMicroseconds: null, modelAddMilliseconds: null, note: `model add failed: ${reason(stress)}` };
  const modelAddMilliseconds = stress.milliseconds;
  const motivasi = await run("add", "--type", "motivasi", "--file", context.bundlePath, "--activate");
  if (motivasi.exitCode !== 0) return { predictionMicroseconds: null, batchRowMicroseconds: null, modelAddMilliseconds, note: `model add --type motivasi failed: ${reason(motivasi)}` };

  // Predict from the converted JSON file that `model add` stored, as the server does.
  const notes: string[] = [];
  let modelFile = context.bundlePath;
  const listed = await run("list", "--json");
  if (listed.exitCode === 0) {
    const active = modelRecords(listed.stdout).find((record) => record.type === "stress" && record.is_active);
    const path = active && (isAbsolute(active.file_path) ? active.file_path : join(context.dataDir, active.file_path));
    if (path && existsSync(path)) modelFile = path;
    else notes.push("the stored JSON model was not found; predictions read the joblib bundle");
  } else {
    notes.push(`model list failed (${reason(listed)}); predictions read the joblib bundle`);
  }

  const lines = readFileSync(context.rowsPath, "utf8").trimEnd().split("\n");
  const allRows = lines.length - 1;
  const smallPath = join(context.workDir, "rows-small.csv");
  writeFileSync(smallPath, lines.slice(0, smallRows + 1).join("\n") + "\n");
  // Every round writes the same file: --force, since `--out` keeps an existing file otherwise.
  const predict = (input: string) => run("predict", "--file", modelFile, "--input", input, "--out", join(context.workDir, "predicted.csv"), "--force");

  const small: number[] = [];
  const large: number[] = [];
  for (let round = 0; round < repetitions; round++) {
    for (const [input, times] of [[smallPath, small], [context.rowsPath, large]] as const) {
      const finished = await predict(input);
      if (finished.exitCode !== 0) {
        notes.push(`model predict failed: ${reason(finished)}`);
        return { predictionMicroseconds: null, batchRowMicroseconds: null, modelAddMilliseconds, note: notes.join("; ") };
      }
      times.push(finished.milliseconds);
    }
  }
  const batchRowMicroseconds = ((median(large) - median(small)) / (allRows - smallRows)) * 1000;
  const predictionMicroseconds = predictionInProcess(modelFile, context.rowsPath);
  return { predictionMicroseconds, batchRowMicroseconds, modelAddMilliseconds, ...(notes.length > 0 ? { note: notes.join("; ") } : {}) };
}
