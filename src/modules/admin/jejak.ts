import { auditCsv, auditPage, checkAuditFilter, displayedAuditRow, selectAuditRows, verificationLines, type AuditFilter } from "../../audit/listing";
import { formatAnchor, parseAnchor, verifyAuditChain } from "../../audit/verify";
import { readCsvDialect } from "../../csv";
import { auditActions } from "../../db/schema";
import { invalid } from "../../errors";
import { formatLocalTimestamp } from "../../local-time";
import type { RouteGuards } from "../../http/guards";
import { readPagination } from "../../requests/pagination";
import { readCalendarDate } from "../../requests/values";
import { AuditPage, AuditVerdict } from "./model";
import { adminController, adminOnly, download, type AdminDependencies } from "./base";

/** The filter of the page's form, as `audit list` takes it; a day that does not exist is refused. */
function filterOf(query: Record<string, string | undefined>): AuditFilter {
  const day = (name: string) => {
    const value = query[name]?.trim();
    if (!value) return undefined;
    if (readCalendarDate(value) === null) throw invalid("Tanggal harus YYYY-MM-DD, misalnya 2026-03-01.");
    return value;
  };
  const action = auditActions.find((each) => each === query.aksi?.trim());
  const filter: AuditFilter = { nim: query.nim, user: query.pengguna, action, since: day("sejak"), until: day("sampai") };
  checkAuditFilter(filter);
  return filter;
}

/**
 * "Jejak audit": the trail filtered by student, user, action and local day, newest first
 * by page; the CSV of `audit list --format csv`; and `audit verify` (with a recorded anchor
 * when one is given) and the newest anchor to write down. Like
 * the commands, reading the trail leaves no row of its own.
 */
export const jejakController = (guards: RouteGuards, dependencies: AdminDependencies) => {
  const { db, config } = dependencies.context;
  return adminController(guards, dependencies, "/jejak")
    .get(
      "",
      ({ query }) => {
        const { page, perPage } = readPagination(query, 50);
        const { rows, total } = auditPage(db.$client, filterOf(query), config.timeZone, page, perPage);
        return { data: rows.map((row) => displayedAuditRow(row, config.timeZone)), total, page, total_pages: Math.ceil(total / perPage) };
      },
      { access: adminOnly, response: { 200: AuditPage } },
    )
    .get(
      "/csv",
      ({ query }) => {
        const dialect = query.csv ? readCsvDialect(query.csv) : config.csvDialect;
        const rows = selectAuditRows(db.$client, filterOf(query), config.timeZone).map((row) => displayedAuditRow(row, config.timeZone));
        return download(auditCsv(rows, dialect), `jejak-audit-${formatLocalTimestamp(new Date().toISOString(), config.timeZone).slice(0, 10)}.csv`, "text/csv; charset=utf-8");
      },
      { access: adminOnly },
    )
    .get(
      "/periksa",
      ({ query }) => {
        // `audit verify [--anchor ID:HASH]`: one snapshot, so that a write meanwhile is not taken for tampering.
        const anchor = query.jangkar?.trim() ? parseAnchor(query.jangkar) : undefined;
        const { rows, anchor: newest, anchorFound, problems } = verifyAuditChain(db.$client, anchor);
        const masalah = verificationLines(problems);
        return { utuh: masalah.length === 0, baris: rows, jangkar: newest ? formatAnchor(newest) : null, jangkar_diperiksa: anchor ? formatAnchor(anchorFound ?? anchor) : null, masalah };
      },
      { access: adminOnly, response: { 200: AuditVerdict } },
    );
};
