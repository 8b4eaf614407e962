import { invalid } from "./errors";

// Reading what Excel and LibreOffice write in Indonesia (decisions §12): the encoding, the
// separator and the words for true and false.

const byteOrderMarks = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: "utf-8" },
  { bytes: [0xff, 0xfe], encoding: "utf-16le" },
  { bytes: [0xfe, 0xff], encoding: "utf-16be" },
] as const;

/**
 * The text of a spreadsheet file: UTF-8 or UTF-16 as its byte order mark says; without
 * one, UTF-8 when the bytes are valid UTF-8, else Windows-1252 (Excel's "CSV" on an
 * Indonesian or English Windows). A file with NUL characters is no text file (a UTF-16
 * file without its mark, an .xlsx) and is refused rather than read as garbage.
 */
export function decodeSpreadsheetText(bytes: Uint8Array): string {
  const marked = byteOrderMarks.find((mark) => mark.bytes.every((byte, index) => bytes[index] === byte));
  let text: string;
  if (marked) {
    try {
      // The decoder drops the mark itself.
      text = new TextDecoder(marked.encoding, { fatal: true }).decode(bytes);
    } catch {
      throw invalid(`file bertanda ${marked.encoding.toUpperCase()} tetapi isinya bukan ${marked.encoding.toUpperCase()} yang sah`);
    }
  } else {
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      text = new TextDecoder("windows-1252").decode(bytes);
    }
  }
  if (text.includes("\u0000")) {
    throw invalid("file bukan CSV teks (berisi karakter NUL); simpan dari spreadsheet sebagai CSV UTF-8, atau teks UTF-16 dengan BOM");
  }
  return text;
}

/** The separators a header line may use; Excel's "Unicode text" writes tabs. */
const separators = [",", ";", "\t"] as const;
export type Separator = (typeof separators)[number];

/**
 * The separator of a file, read from its header line: the one it uses most (column names
 * contain none of them); a comma when it has none (a one-column header).
 */
export function separatorOf(text: string): Separator {
  const newline = text.indexOf("\n");
  const header = newline === -1 ? text : text.slice(0, newline);
  const count = (separator: string) => header.split(separator).length - 1;
  return separators.reduce((best, separator) => (count(separator) > count(best) ? separator : best));
}

const truthy = new Set(["true", "1", "yes", "ya", "benar"]);
const falsy = new Set(["false", "0", "no", "tidak", "salah"]);

/** The accepted words, for messages. */
export const booleanWords = "true/false, 1/0, yes/no, ya/tidak atau benar/salah";

/** A yes/no cell in any case (Indonesian Excel writes `BENAR`/`SALAH`); undefined for anything else. */
export function readBoolean(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (truthy.has(word)) return true;
  if (falsy.has(word)) return false;
  return undefined;
}
