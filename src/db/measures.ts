import type { Database } from "bun:sqlite";
import { judgeValidity, storedValidity } from "../measurement/validity";
import { reliabilityOf, type Reliability, type StressSums } from "../measurement/reliability";
import { readAnswers, stressKeys, type Answers } from "../skrining/scoring";

// The database's side of decisions §20 (docs/measurement.md): the running sums of the
// stress items (stress_item_sums, what the jobs added, less stress_item_sums_removed, what
// deletions took out), the trigger's part when a screening is deleted, the refill the
// migration runner does with the other summaries, and the judging of the screenings stored
// before migration 0017.

const items = stressKeys.length;
/** The sums in one array, the blob's order: screenings, Σ total, Σ total², Σ S1…S40, Σ S1²…S40². */
export const sumsLength = 3 + 2 * items;
const itemSumAt = (index: number) => 3 + index;
const itemSquaresAt = (index: number) => 3 + items + index;

/** stress_item_sums_removed's columns, in the array's order. */
const removedColumns = [
  "screenings",
  "total_sum",
  "total_squares",
  ...stressKeys.map((key) => `${key.toLowerCase()}_sum`),
  ...stressKeys.map((key) => `${key.toLowerCase()}_squares`),
];

/**
 * The blob as stored: the array's own bytes, float64 in the machine's order, which is
 * little-endian wherever Bun runs (x64, arm64); the job writes it at every submission, so
 * it is not copied.
 */
export const encodeSums = (values: Float64Array): Uint8Array => new Uint8Array(values.buffer, values.byteOffset, values.byteLength);

/** A stored blob as numbers; one of another length (written by hand) counts as nothing added. */
export function decodeSums(bytes: Uint8Array | null | undefined): Float64Array {
  const values = new Float64Array(sumsLength);
  if (bytes && bytes.byteLength === sumsLength * 8) new Uint8Array(values.buffer).set(bytes);
  return values;
}

/** One screening added to the array: its score_stress and its S1…S40. */
export function addScreening(values: Float64Array, scoreStress: number, stress: readonly number[]): void {
  values[0]!++;
  values[1]! += scoreStress;
  values[2]! += scoreStress * scoreStress;
  for (let index = 0; index < items; index++) {
    const value = stress[index]!;
    values[itemSumAt(index)]! += value;
    values[itemSquaresAt(index)]! += value * value;
  }
}

/** The sums: what was added less what was removed (into `into` when given, which the job reuses). */
export function sumsOf(added: Float64Array, removed: Float64Array, into = new Float64Array(sumsLength)): StressSums {
  for (let index = 0; index < sumsLength; index++) into[index] = added[index]! - removed[index]!;
  return {
    screenings: into[0]!,
    totalSum: into[1]!,
    totalSquares: into[2]!,
    itemSums: into.subarray(itemSumAt(0), itemSumAt(items)),
    itemSquares: into.subarray(itemSquaresAt(0), itemSquaresAt(items)),
  };
}

/** What the job reads when it has nothing in memory (or another writer changed it): both rows. */
export const storedSumsStatements = {
  added: "SELECT added FROM stress_item_sums WHERE id = 1",
  removed: `SELECT ${removedColumns.join(", ")} FROM stress_item_sums_removed WHERE id = 1`,
} as const;

/** stress_item_sums_removed's row as an array in the blob's order. */
export function removedValues(row: Record<string, number> | null | undefined): Float64Array {
  const values = new Float64Array(sumsLength);
  if (row) removedColumns.forEach((column, index) => (values[index] = row[column] ?? 0));
  return values;
}

/** The running sums as they stand (`skrining stats reliability`, the console, the tests). */
export function readStressSums(sqlite: Database): StressSums {
  const added = sqlite.query<{ added: Uint8Array }, []>(storedSumsStatements.added).get();
  const removed = sqlite.query<Record<string, number>, []>(storedSumsStatements.removed).get();
  return sumsOf(decodeSums(added?.added), removedValues(removed));
}

/** α, SD and the smallest reliable change in force now (`skrining stats reliability`, the console's Model page). */
export function currentReliability(sqlite: Database): Reliability {
  const students = sqlite.query<{ students: number }, []>("SELECT students FROM latest_skrining_summary WHERE id = 1").get()?.students ?? 0;
  return reliabilityOf(readStressSums(sqlite), students);
}

/** A new version of the measures' data (stress_item_sums.version), as a trigger sets it. */
export const newMeasuresVersion = "UPDATE stress_item_sums SET version = random() WHERE id = 1;";

/**
 * The trigger's body that takes a deleted screening out of the sums (src/db/summaries.ts):
 * only a judged one was counted. Its items are read from the stored JSON text the way the
 * service read them (a string of digits is the number it spells); deletions are rare
 * (erasure, a purge), so reading the text here costs nothing that matters.
 */
export const removeFromSums = `UPDATE stress_item_sums_removed SET screenings = screenings + 1, total_sum = total_sum + OLD.score_stress,
    total_squares = total_squares + OLD.score_stress * OLD.score_stress,
    ${stressKeys.map((_, index) => `${removedColumns[itemSumAt(index)]} = ${removedColumns[itemSumAt(index)]} + item.a${index}`).join(", ")},
    ${stressKeys.map((_, index) => `${removedColumns[itemSquaresAt(index)]} = ${removedColumns[itemSquaresAt(index)]} + item.a${index} * item.a${index}`).join(", ")}
  FROM (SELECT ${stressKeys.map((key, index) => `CAST(json_extract(OLD.input_jawaban, '$.${key}') AS INTEGER) AS a${index}`).join(", ")}) AS item
  WHERE stress_item_sums_removed.id = 1;`;

/** The 68 answers of a stored screening as the service read them, or null when they cannot be read (a row written by hand). */
function storedAnswers(inputJawaban: string): Answers | null {
  try {
    const parsed: unknown = JSON.parse(inputJawaban);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? readAnswers(parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The sums over every judged screening, computed from the rows themselves, in the blob's order. */
function recomputedSums(sqlite: Database): Float64Array {
  const values = new Float64Array(sumsLength);
  const rows = sqlite.query<{ input: string; score: number }, []>("SELECT input_jawaban AS input, score_stress AS score FROM riwayat_skrining WHERE validitas_alasan IS NOT NULL");
  for (const row of rows.iterate()) {
    const answers = storedAnswers(row.input);
    // A judged row always has its answers; one edited by hand since is left out, as the trigger would read it.
    if (answers) addScreening(values, row.score, answers.stress);
  }
  return values;
}

/** The refill's sums: what the kept sums must always equal. */
export const recomputeStressSums = (sqlite: Database): StressSums => sumsOf(recomputedSums(sqlite), new Float64Array(sumsLength));

/** Writes the sums and the count of students from the rows (inside the migration runner's transaction, before the triggers exist). */
export function refillMeasures(sqlite: Database): void {
  sqlite.run("INSERT OR REPLACE INTO stress_item_sums (id, version, added) VALUES (1, random(), ?)", [encodeSums(recomputedSums(sqlite))]);
  sqlite.run("INSERT OR REPLACE INTO stress_item_sums_removed (id) VALUES (1)");
  sqlite.run("INSERT OR REPLACE INTO latest_skrining_summary (id, students) VALUES (1, (SELECT count(*) FROM latest_skrining))");
}

/**
 * Migration 0017's data step: every earlier screening whose answers can be read is judged
 * for validity by the service's own rule (its duration was not kept, so none is
 * `terlalu_cepat`); one that cannot stays unjudged (null).
 */
export function judgeEarlierScreenings(sqlite: Database): void {
  // Cached by the connection (query, not prepare), so that closing it finalizes them: a migrated file is not left held.
  const update = sqlite.query("UPDATE riwayat_skrining SET validitas_alasan = ? WHERE Id_skrining = ?");
  // In batches by id: a million stored answers need not be in memory at once.
  const batch = sqlite.query<{ id: number; input: string }, [number]>(
    "SELECT Id_skrining AS id, input_jawaban AS input FROM riwayat_skrining WHERE Id_skrining > ? AND validitas_alasan IS NULL ORDER BY Id_skrining LIMIT 5000",
  );
  for (let rows = batch.all(0); rows.length > 0; rows = batch.all(rows.at(-1)!.id)) {
    for (const row of rows) {
      const answers = storedAnswers(row.input);
      if (answers) update.run(storedValidity(judgeValidity([answers.stress, answers.motivation], null)), row.id);
    }
  }
}
