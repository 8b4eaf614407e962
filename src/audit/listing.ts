import type { Database } from "bun:sqlite";
import { csvDocument, type CsvCell, type CsvDialect } from "../csv";
import type { AuditAction } from "../db/schema";
import { invalid } from "../errors";
import { addDays, formatLocalTimestamp, localDayStart } from "../local-time";
import { actorNameSql } from "./names";
import type { AuditRow } from "./trail";
import type { AuditProblem } from "./verify";

// Reading the trail as `audit list` and `audit verify` do, and as the admin console's
// "Jejak audit" page does: one filter, one form of a row, one verdict.

/** Rows about one student, by one user, of one action, between two local days (both included). */
export interface AuditFilter {
  nim?: string;
  user?: string;
  action?: AuditAction;
  /** `YYYY-MM-DD`, a local day of the faculty's zone. */
  since?: string;
  until?: string;
}

export const auditColumns = ["id", "waktu", "peran", "pengguna", "nama", "alamat", "aksi", "kali", "nim", "target", "keterangan", "hash"] as const;
export type DisplayedAuditRow = Record<(typeof auditColumns)[number], string | number | null>;

/** A row as listed: the actor's name looked up now (decisions §16), the row's students (space-separated). */
export type ListedAuditRow = AuditRow & { shown_name: string | null; students: string | null };

/** The columns a listed row is read with. */
const listedColumns = `*, ${actorNameSql} AS shown_name, (SELECT group_concat(nim, ' ') FROM (SELECT nim FROM audit_subjects WHERE audit_id = audit_log.id ORDER BY nim)) AS students`;

/** A row as the admin reads it: the time in the faculty's zone with its offset. */
export function displayedAuditRow(row: ListedAuditRow, timeZone: string): DisplayedAuditRow {
  return {
    id: row.id,
    waktu: formatLocalTimestamp(row.at, timeZone),
    peran: row.actor_role,
    pengguna: row.actor_username,
    nama: row.shown_name,
    alamat: row.client_address,
    aksi: row.action,
    kali: row.reads,
    nim: row.students,
    target: row.target,
    keterangan: row.detail,
    hash: row.hash,
  };
}

/** A filter whose days run backwards is refused, naming both. */
export function checkAuditFilter(filter: AuditFilter): void {
  if (filter.since !== undefined && filter.until !== undefined && filter.since > filter.until) {
    throw invalid(`--since ${filter.since} jatuh sesudah --until ${filter.until}.`);
  }
}

/** The WHERE clause of a filter, each condition on an indexed column. */
function whereOf(filter: AuditFilter, timeZone: string): { clause: string; values: string[] } {
  const conditions: string[] = [];
  const values: string[] = [];
  const where = (condition: string, value: string) => {
    conditions.push(condition);
    values.push(value);
  };
  if (filter.nim !== undefined && filter.nim.trim() !== "") where("id IN (SELECT audit_id FROM audit_subjects WHERE nim = ?)", filter.nim.trim());
  if (filter.user !== undefined && filter.user.trim() !== "") where("actor_username = ?", filter.user.trim());
  if (filter.action !== undefined) where("action = ?", filter.action);
  // Stored times are UTC ISO strings, which sort as text; a local day runs from its midnight to the next.
  if (filter.since !== undefined) where("at >= ?", new Date(localDayStart(filter.since, timeZone)).toISOString());
  if (filter.until !== undefined) where("at < ?", new Date(localDayStart(addDays(filter.until, 1), timeZone)).toISOString());
  return { clause: conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "", values };
}

/** Every row the filter selects, oldest first (`audit list`, the console's CSV). */
export function selectAuditRows(sqlite: Database, filter: AuditFilter, timeZone: string): ListedAuditRow[] {
  const { clause, values } = whereOf(filter, timeZone);
  return sqlite.query<ListedAuditRow, string[]>(`SELECT ${listedColumns} FROM audit_log ${clause} ORDER BY id`).all(...values);
}

/** One page of the rows the filter selects, newest first, and how many there are (the console's list). */
export function auditPage(sqlite: Database, filter: AuditFilter, timeZone: string, page: number, perPage: number): { rows: ListedAuditRow[]; total: number } {
  const { clause, values } = whereOf(filter, timeZone);
  const total = sqlite.query<{ n: number }, string[]>(`SELECT count(*) AS n FROM audit_log ${clause}`).get(...values)!.n;
  const rows = sqlite
    .query<ListedAuditRow, (string | number)[]>(`SELECT ${listedColumns} FROM audit_log ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`)
    .all(...values, perPage, (page - 1) * perPage);
  return { rows, total };
}

/** The rows as a CSV file of every column (spreadsheet formulas neutralised, decisions §10). */
export function auditCsv(rows: readonly DisplayedAuditRow[], dialect: CsvDialect): string {
  return csvDocument(auditColumns, rows.map((row) => auditColumns.map((column) => row[column] as CsvCell)), dialect);
}

/** `audit verify`'s problems in words: a row's with its number, the trail's own (a foreign trigger) as they are. */
export function verificationLines(problems: readonly AuditProblem[]): string[] {
  return problems.map((problem) => (problem.id > 0 ? `baris ${problem.id}: ${problem.problem}` : problem.problem));
}
