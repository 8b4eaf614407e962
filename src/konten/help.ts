import data from "./help.json";
import { phoneNumberPattern, type HelpPhone } from "./help-phone";
import type { Validator } from "./replaceable-file";

/** Where a student can get help: shown with every result and on the sign-in page. */
export interface HelpContact {
  title: string;
  /** Plain text; a blank line starts a new paragraph. */
  text: string;
  /** Numbers to call at once; may be empty. */
  telepon: HelpPhone[];
}

const maxTitle = 120;
const maxText = 3000;
const maxPhones = 5;
const maxLabel = 100;

function readPhones(value: unknown, errors: string[]): HelpPhone[] {
  if (value === undefined) return [];
  const problem = `"telepon" harus daftar berisi paling banyak ${maxPhones} objek {"label": ..., "nomor": ..., "keterangan": ...} (nomor berisi angka, boleh dengan +, spasi, tanda kurung dan -).`;
  if (!Array.isArray(value) || value.length > maxPhones) return void errors.push(problem), [];
  const phones: HelpPhone[] = [];
  for (const entry of value) {
    const { label, nomor, keterangan = "", ...rest } = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    const fits =
      Object.keys(rest).length === 0 &&
      typeof label === "string" && label.trim() !== "" && label.length <= maxLabel &&
      typeof nomor === "string" && phoneNumberPattern.test(nomor.trim()) &&
      typeof keterangan === "string" && keterangan.length <= maxLabel;
    if (!fits) return void errors.push(problem), [];
    phones.push({ label: (label as string).trim(), nomor: (nomor as string).trim(), keterangan: (keterangan as string).trim() });
  }
  return phones;
}

/** Checks a replacement help contact (`skrining contact import`). */
export const validateHelpContact: Validator<HelpContact> = (value) => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { errors: ['Isi file harus objek {"title": ..., "text": ...}.'] };
  const { title, text, telepon, ...rest } = value as Record<string, unknown>;
  const errors: string[] = [];
  if (Object.keys(rest).length > 0) errors.push(`Kunci tidak dikenal: ${Object.keys(rest).join(", ")}; yang diterima hanya "title", "text" dan "telepon".`);
  if (typeof title !== "string" || title.trim() === "" || title.length > maxTitle) errors.push(`"title" harus teks 1-${maxTitle} karakter.`);
  if (typeof text !== "string" || text.trim() === "" || text.length > maxText) errors.push(`"text" harus teks 1-${maxText} karakter.`);
  const phones = readPhones(telepon, errors);
  return errors.length > 0 ? { errors } : { value: { title: String(title).trim(), text: String(text).trim(), telepon: phones }, errors };
};

/** The project's own text, until the faculty imports its own (a broken shipped file stops the start). */
export const defaultHelpContact: HelpContact = (() => {
  const { value, errors } = validateHelpContact(data);
  if (!value) throw new Error(`help.json tidak valid: ${errors.join(" ")}`);
  return value;
})();
