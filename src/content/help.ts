import data from "./help.json";
import type { Validator } from "./replaceable-file";

/** Where a student can get help: shown with every result and on the sign-in page. */
export interface HelpContact {
  title: string;
  /** Plain text; a blank line starts a new paragraph. */
  text: string;
}

const maxTitle = 120;
const maxText = 3000;

/** Checks a replacement help contact (`skrining contact import`). */
export const validateHelpContact: Validator<HelpContact> = (value) => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { errors: ['Isi file harus objek {"title": ..., "text": ...}.'] };
  const { title, text, ...rest } = value as Record<string, unknown>;
  const errors: string[] = [];
  if (Object.keys(rest).length > 0) errors.push(`Kunci tidak dikenal: ${Object.keys(rest).join(", ")}; yang diterima hanya "title" dan "text".`);
  if (typeof title !== "string" || title.trim() === "" || title.length > maxTitle) errors.push(`"title" harus teks 1-${maxTitle} karakter.`);
  if (typeof text !== "string" || text.trim() === "" || text.length > maxText) errors.push(`"text" harus teks 1-${maxText} karakter.`);
  return errors.length > 0 ? { errors } : { value: { title: String(title).trim(), text: String(text).trim() }, errors };
};

/** The project's own text, until the faculty imports its own (a broken shipped file stops the start). */
export const defaultHelpContact: HelpContact = (() => {
  const { value, errors } = validateHelpContact(data);
  if (!value) throw new Error(`help.json tidak valid: ${errors.join(" ")}`);
  return value;
})();
