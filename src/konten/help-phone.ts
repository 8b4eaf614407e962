// A number to call from the help contact. Kept apart from help.ts because the web
// interface dials the same digits: this file imports nothing, so the browser's bundle can
// take it as it is.

/** A number to call, shown as a `tel:` link above everything else on a worrying result (decisions §13). */
export interface HelpPhone {
  /** Who answers, e.g. "SEJIWA, layanan kesehatan jiwa". */
  label: string;
  /** Digits, with `+`, spaces, brackets and dashes as people write them. */
  nomor: string;
  /** What to do once connected, e.g. "lalu pilih ekstensi 8"; may be empty. */
  keterangan: string;
}

/** The digits a `tel:` link dials: `(021) 500-454` → `021500454`, `+62 …` keeps its plus. */
export const dialled = (nomor: string) => nomor.replace(/[^0-9+]/g, "");

/**
 * A telephone number as people write it: digits, with a leading `+`, spaces, brackets and
 * dashes; 3 to 24 characters. One rule for the help contact's numbers and a lecturer's
 * `telepon` (decisions §19).
 */
export const phoneNumberPattern = /^\+?[0-9(][0-9 ()-]{1,22}[0-9]$/;
