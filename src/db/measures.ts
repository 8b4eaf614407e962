import type { Database } from "bun:sqlite";
import { judgeValidity, storedValidity } from "../measurement/validity";
import type { StressSums } from "../measurement/reliability";
import { readAnswers, stressKeys, type Answers } from "../screening/scoring";

// The database's side of decisions §20 (docs/measurement.md): the running sums of the
// stress items (stress_item_sums), what a trigger does when a screening is deleted, the
// refill the migration runner does with the other summaries, and the judging of the
// screenings stored before migration 0017.

/** Each item's two columns, in S1…S40 order. */
const itemColumns = stressKeys.map((key) => ({ sum: `${key.toLowerCase()}_sum`, squares: `${key.toLowerCase()}_squares` }));

/** Every column of the sums after `screenings`, in the order StressSums reads them. */
export const sumColumns = ["total_sum", "total_squares", ...itemColumns.flatMap((item) => [item.sum, item.squares])];

/** A stored row of stress_item_sums (its columns as SQLite names them). */
export type StoredSums = Record<string, number>;

export function sumsFromRow(row: StoredSums): StressSums {
  return {
    screenings: row.screenings!,
    totalSum: row.total_sum!,
    totalSquares: row.total_squares!,
    itemSums: itemColumns.map((item) => row[item.sum]!),
    itemSquares: itemColumns.map((item) => row[item.squares]!),
  };
}

/**
 * Adds one screening to the sums and answers them as they then stand: ?1 is its
 * score_stress, ?2… its S1…S40. One statement, so that the job reads back what it wrote.
 */
export const addToSumsStatement = `UPDATE stress_item_sums SET screenings = screenings + 1, total_sum = total_sum + ?1, total_squares = total_squares + ?1 * ?1,
  ${itemColumns.map((item, index) => `${item.sum} = ${item.sum} + ?${index + 2}, ${item.squares} = ${item.squares} + ?${index + 2} * ?${index + 2}`).join(", ")}
  WHERE id = 1 RETURNING screenings, ${sumColumns.join(", ")}`;

/**
 * The trigger's body that takes a deleted screening out of the sums (src/db/summaries.ts):
 * only a judged one was counted. Its items are read from the stored JSON text the way the
 * service read them (a string of digits is the number it spells); deletions are rare
 * (erasure, a purge), so reading the text here costs nothing that matters.
 */
export const removeFromSums = `UPDATE stress_item_sums SET screenings = screenings - 1, total_sum = total_sum - OLD.score_stress,
    total_squares = total_squares - OLD.score_stress * OLD.score_stress,
    ${itemColumns.map((item, index) => `${item.sum} = ${item.sum} - item.a${index}, ${item.squares} = ${item.squares} - item.a${index} * item.a${index}`).join(", ")}
  FROM (SELECT ${stressKeys.map((key, index) => `CAST(json_extract(OLD.input_jawaban, '$.${key}') AS INTEGER) AS a${index}`).join(", ")}) AS item
  WHERE stress_item_sums.id = 1;`;

/** The 68 answers of a stored screening as the service read them, or null when they cannot be read (a row written by hand). */
function storedAnswers(inputJawaban: string): Answers | null {
  try {
    const parsed: unknown = JSON.parse(inputJawaban);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? readAnswers(parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The sums over every judged screening, computed from the rows themselves: the refill, and what the kept sums must always equal. */
export function recomputeStressSums(sqlite: Database): StressSums {
  const sums = { screenings: 0, totalSum: 0, totalSquares: 0, itemSums: stressKeys.map(() => 0), itemSquares: stressKeys.map(() => 0) };
  const rows = sqlite.query<{ input: string; score: number }, []>("SELECT input_jawaban AS input, score_stress AS score FROM riwayat_skrining WHERE validitas_alasan IS NOT NULL");
  for (const row of rows.iterate()) {
    const answers = storedAnswers(row.input);
    // A judged row always has its answers; one edited by hand since is left out, as the trigger would read it.
    if (!answers) continue;
    sums.screenings++;
    sums.totalSum += row.score;
    sums.totalSquares += row.score * row.score;
    answers.stress.forEach((value, index) => {
      sums.itemSums[index]! += value;
      sums.itemSquares[index]! += value * value;
    });
  }
  return sums;
}

/** Writes the sums and the count of students from the rows (inside the migration runner's transaction, before the triggers exist). */
export function refillMeasures(sqlite: Database): void {
  const sums = recomputeStressSums(sqlite);
  const values = [sums.totalSum, sums.totalSquares, ...sums.itemSums.flatMap((sum, index) => [sum, sums.itemSquares[index]!])];
  sqlite.run(`INSERT OR IGNORE INTO stress_item_sums (id) VALUES (1)`);
  sqlite.run(`UPDATE stress_item_sums SET screenings = ?, ${sumColumns.map((column) => `${column} = ?`).join(", ")} WHERE id = 1`, [sums.screenings, ...values]);
  sqlite.run("INSERT OR IGNORE INTO latest_skrining_summary (id) VALUES (1)");
  sqlite.run("UPDATE latest_skrining_summary SET students = (SELECT count(*) FROM latest_skrining), stamp = random() WHERE id = 1");
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
