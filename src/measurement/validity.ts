// Decisions §20, validity: whether an answer set can be read as it stands. The flags come
// from the careless-responding literature (long runs of one answer, one answer for a
// whole scale, answering faster than the items can be read); docs/measurement.md. This
// file imports nothing, so the web interface's pages name the same reasons.

/** Why a screening is to be read with caution, in the order they are listed. */
export const validityReasons = ["jawaban_seragam", "terlalu_cepat", "pola_berulang"] as const;
export type ValidityReason = (typeof validityReasons)[number];

export type ValidityStatus = "baik" | "hati_hati";

export interface Validity {
  status: ValidityStatus;
  alasan: ValidityReason[];
}

/** Faster than this many seconds an item, on average, is `terlalu_cepat`. */
export const secondsPerItem = 2;

/** One answer over at least this many consecutive items of a scale is `pola_berulang`. */
export const repeatedRunLength = 20;

/** The longest run of one answer over consecutive items. */
function longestRun(values: readonly number[]): number {
  let longest = 0;
  let run = 0;
  for (let index = 0; index < values.length; index++) {
    run = index > 0 && values[index] === values[index - 1] ? run + 1 : 1;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * The reasons an answer set is to be read with caution. Each scale is judged on its own:
 * a scale answered with one value throughout is `jawaban_seragam` (and not also
 * `pola_berulang`, which it contains); a run of `repeatedRunLength` in a scale that is not
 * uniform is `pola_berulang`. `durationSeconds` (the client's `durasi_detik`, null when not
 * sent) under `secondsPerItem` for every item is `terlalu_cepat`.
 */
export function judgeValidity(scales: readonly (readonly number[])[], durationSeconds: number | null): Validity {
  let uniform = false;
  let repeated = false;
  let items = 0;
  for (const values of scales) {
    items += values.length;
    const run = longestRun(values);
    if (values.length > 0 && run === values.length) uniform = true;
    else if (run >= repeatedRunLength) repeated = true;
  }
  const fast = durationSeconds !== null && durationSeconds < secondsPerItem * items;
  const alasan = validityReasons.filter((reason) => (reason === "jawaban_seragam" ? uniform : reason === "terlalu_cepat" ? fast : repeated));
  return { status: alasan.length === 0 ? "baik" : "hati_hati", alasan };
}

/** The stored form (`validitas_alasan`): the reasons joined by commas, "" for none. */
export const storedValidity = (validity: Validity): string => validity.alasan.join(",");

/** A stored `validitas_alasan` as the records answer it; null for a screening nobody judged (written outside the service). */
export function readValidity(stored: string | null): Validity | null {
  if (stored === null) return null;
  const alasan = stored === "" ? [] : (stored.split(",").filter((reason) => (validityReasons as readonly string[]).includes(reason)) as ValidityReason[]);
  return { status: alasan.length === 0 ? "baik" : "hati_hati", alasan };
}
