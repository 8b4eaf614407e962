import type { Database } from "bun:sqlite";
import { csvDocument, type CsvCell, type CsvDialect } from "../csv";
import type { AuditAction } from "../db/schema";
import { invalid } from "../errors";
import { addDays, formatLocalTimestamp, localDayStart } from "../local-time";
import { missingAuditTriggers, verifyAuditChain, type AuditRow } from "./trail";

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

/** A row as the admin reads it: the time in the faculty's zone with its offset. */
export function displayedAuditRow(row: AuditRow, timeZone: string): DisplayedAuditRow {
  return {
    id: row.id,
    waktu: formatLocalTimestamp(row.at, timeZone),
    peran: row.actor_role,
    pengguna: row.actor_username,
    nama: row.actor_name,
    alamat: row.client_address,
    aksi: row.action,
    kali: row.reads,
    nim: row.nim,
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
  if (filter.nim !== undefined && filter.nim.trim() !== "") where("nim = ?", filter.nim.trim());
  if (filter.user !== undefined && filter.user.trim() !== "") where("actor_username = ?", filter.user.trim());
  if (filter.action !== undefined) where("action = ?", filter.action);
  // Stored times are UTC ISO strings, which sort as text; a local day runs from its midnight to the next.
  if (filter.since !== undefined) where("at >= ?", new Date(localDayStart(filter.since, timeZone)).toISOString());
  if (filter.until !== undefined) where("at < ?", new Date(localDayStart(addDays(filter.until, 1), timeZone)).toISOString());
  return { clause: conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "", values };
}

/** Every row the filter selects, oldest first (`audit list`, the console's CSV). */
export function selectAuditRows(sqlite: Database, filter: AuditFilter, timeZone: string): AuditRow[] {
  const { clause, values } = whereOf(filter, timeZone);
  return sqlite.query<AuditRow, string[]>(`SELECT * FROM audit_log ${clause} ORDER BY id`).all(...values);
}

/** One page of the rows the filter selects, newest first, and how many there are (the console's list). */
export function auditPage(sqlite: Database, filter: AuditFilter, timeZone: string, page: number, perPage: number): { rows: AuditRow[]; total: number } {
  const { clause, values } = whereOf(filter, timeZone);
  const total = sqlite.query<{ n: number }, string[]>(`SELECT count(*) AS n FROM audit_log ${clause}`).get(...values)!.n;
  const rows = sqlite
    .query<AuditRow, (string | number)[]>(`SELECT * FROM audit_log ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`)
    .all(...values, perPage, (page - 1) * perPage);
  return { rows, total };
}

/** The rows as a CSV file of every column (spreadsheet formulas neutralised, decisions §10). */
export function auditCsv(rows: readonly DisplayedAuditRow[], dialect: CsvDialect): string {
  return csvDocument(auditColumns, rows.map((row) => auditColumns.map((column) => row[column] as CsvCell)), dialect);
}

/** `audit verify`'s verdict: how many rows, the newest row (the anchor to keep elsewhere), and every problem in words. */
export interface AuditVerdict {
  rows: number;
  lastId: number;
  lastHash: string;
  problems: string[];
}

/** Walks the chain and looks for the append-only triggers (src/audit/trail.ts). */
export function checkAuditTrail(sqlite: Database): AuditVerdict {
  const { rows, lastHash, problems } = verifyAuditChain(sqlite);
  const lastId = sqlite.query<{ id: number }, []>("SELECT id FROM audit_log ORDER BY id DESC LIMIT 1").get()?.id ?? 0;
  return {
    rows,
    lastId,
    lastHash,
    problems: [
      ...missingAuditTriggers(sqlite).map((name) => `pemicu ${name} tidak ada: tabel audit_log dapat diubah tanpa ditolak`),
      ...problems.map((problem) => `baris ${problem.id}: ${problem.problem}`),
    ],
  };
}
