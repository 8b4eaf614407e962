import data from "./privacy-notice.json";
import type { Validator } from "./replaceable-file";

/**
 * What a student is told about the processing of their data (UU 27/2022), shown at
 * activation and at the first sign-in after a new version. A student acknowledges a
 * version: a replacement with a new `version` is asked for again, one with the same
 * `version` is not.
 */
export interface PrivacyNotice {
  /** Names this text; recorded with each acknowledgement. */
  version: string;
  title: string;
  /** Plain text; a blank line starts a new paragraph. */
  text: string;
}

export const noticeLimits = { version: 40, title: 120, text: 10_000 } as const;

/** A version is a short name without spaces (`2026-1`, `v2.1`): it is typed in commands and shown in lists. */
const versionPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Checks a replacement privacy notice (`skrining notice import`, the console's Teks page):
 * every problem at once. A changed title or text under the version in force is refused:
 * the students who agreed to that version would never be asked about the new words
 * (issue 44, item 12).
 */
export const validatePrivacyNotice: Validator<PrivacyNotice> = (value, current) => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { errors: ['Isi file harus objek {"version": ..., "title": ..., "text": ...}.'] };
  const { version, title, text, ...rest } = value as Record<string, unknown>;
  const errors: string[] = [];
  if (Object.keys(rest).length > 0) errors.push(`Kunci tidak dikenal: ${Object.keys(rest).join(", ")}; yang diterima hanya "version", "title" dan "text".`);
  const trimmedVersion = typeof version === "string" ? version.trim() : "";
  if (trimmedVersion.length > noticeLimits.version || !versionPattern.test(trimmedVersion)) {
    errors.push(`"version" harus teks 1-${noticeLimits.version} karakter dari huruf, angka, titik, garis bawah atau tanda hubung, tanpa spasi (misalnya "2026-2").`);
  }
  if (typeof title !== "string" || title.trim() === "" || title.length > noticeLimits.title) errors.push(`"title" harus teks 1-${noticeLimits.title} karakter.`);
  if (typeof text !== "string" || text.trim() === "" || text.length > noticeLimits.text) errors.push(`"text" harus teks 1-${noticeLimits.text} karakter.`);
  if (errors.length === 0 && current && trimmedVersion === current.version && (String(title).trim() !== current.title || String(text).trim() !== current.text)) {
    errors.push(
      `Judul atau teks berubah, tetapi versinya tetap "${current.version}": mahasiswa yang sudah menyetujui versi itu tidak akan diminta lagi. Beri versi baru (misalnya "${current.version}-b"), agar setiap mahasiswa membaca dan menyetujui teks yang baru.`,
    );
  }
  return errors.length > 0 ? { errors } : { value: { version: trimmedVersion, title: String(title).trim(), text: String(text).trim() }, errors };
};

/** The project's own notice, until the faculty imports its own (a broken shipped file stops the start). */
export const defaultPrivacyNotice: PrivacyNotice = (() => {
  const { value, errors } = validatePrivacyNotice(data);
  if (!value) throw new Error(`privacy-notice.json tidak valid: ${errors.join(" ")}`);
  return value;
})();
