import type { Database } from "bun:sqlite";
import { appendAuditRows, type AuditSource } from "../audit/trail";
import type { WriteQueue } from "../db/write-queue";
import { invalid } from "../errors";
import type { ReplaceableFile } from "./replaceable-file";

/** What each replaceable text is, as the messages and the audit rows name it. */
export const textSubjects = {
  questions: "teks butir kuesioner",
  help: "teks tempat mencari bantuan",
  privacyNotice: "pemberitahuan privasi untuk mahasiswa",
} as const;

/**
 * `questions|contact|notice import` and the admin console's "Teks" page: the replacement is
 * validated first and nothing changes on any problem (every problem listed); the file is
 * replaced (it is not in the database) and its `update` row follows at once.
 */
export async function replaceText<T>(options: {
  file: Pick<ReplaceableFile<T>, "current" | "replace">;
  subject: string;
  value: unknown;
  source: AuditSource;
  writes: WriteQueue;
  sqlite: Database;
}): Promise<{ stored: T; previous: T }> {
  const previous = options.file.current();
  const { value: stored, errors } = options.file.replace(options.value);
  if (stored === undefined) throw invalid(`${errors.length} masalah ditemukan; ${options.subject} tidak diganti.`, { lines: errors });
  await options.writes.run(() => appendAuditRows(options.sqlite, [{ ...options.source, action: "update", detail: `${options.subject} diganti` }]));
  return { stored, previous };
}
