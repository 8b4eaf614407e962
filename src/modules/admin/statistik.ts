import { readCsvDialect } from "../../csv";
import type { RouteGuards } from "../../http/guards";
import { formatLocalTimestamp } from "../../local-time";
import { statisticsExportAudit } from "../dosen/export";
import { invalid } from "../../errors";
import { readCalendarDate } from "../../requests/values";
import { reportCsv, weeklyReport } from "../tindak-lanjut/weekly-report";
import { FacultyStatistics, WeeklyReportAnswer } from "./model";
import { adminController, adminOnly, consoleSource, download, formText, type AdminDependencies } from "./base";

/**
 * "Statistik fakultas": every lecturer's statistics with the follow-up figures (the rows
 * of `stats export`), and that export as a file for Excel or LibreOffice with Indonesian
 * settings (decisions §12), per lecturer or one lecturer's advisees. Viewing the table
 * leaves a `view` row of aggregates, as the statistics route does; a download the rows of
 * `stats export`.
 */
export const statistikController = (guards: RouteGuards, dependencies: AdminDependencies) => {
  const { context, exporter, figures } = dependencies;
  return adminController(guards, dependencies, "/statistik")
    .get(
      "",
      ({ principal, request, route }) => {
        const rows = exporter.lecturerRows();
        context.audit.note({ ...consoleSource(dependencies, principal, request, route), action: "view", detail: "semua dosen" }, []);
        return { per_dosen: rows, csv_bawaan: context.config.csvDialect };
      },
      { access: adminOnly, response: { 200: FacultyStatistics } },
    )
    .get(
      "/ekspor",
      async ({ principal, query, request, route }) => {
        const nip = formText(query, "nip").trim() || undefined;
        const exportRequest = { nip, students: formText(query, "per_mahasiswa") === "ya", format: "csv" as const };
        const dialect = query.csv ? readCsvDialect(query.csv) : context.config.csvDialect;
        const result = exporter.export(exportRequest, dialect);
        // The trail shows the export before the file leaves.
        await context.audit.record(...statisticsExportAudit(consoleSource(dependencies, principal, request, route), exportRequest, result, " (unduhan konsol)"));
        const day = formatLocalTimestamp(new Date().toISOString(), context.config.timeZone).slice(0, 10);
        const name = nip === undefined ? `statistik-fakultas-${day}.csv` : exportRequest.students ? `statistik-${nip}-mahasiswa-${day}.csv` : `statistik-${nip}-${day}.csv`;
        return download(result.text, name, "text/csv; charset=utf-8");
      },
      { access: adminOnly },
    )
    // The weekly follow-up report (followup report --week), as a table and as its CSV; each leaves the command's export row.
    .get(
      "/mingguan",
      async ({ principal, query, request, route }) => {
        const report = weeklyReport(context.db.$client, figures, context.config.timeZone, weekDate(query));
        await context.audit.record({ ...consoleSource(dependencies, principal, request, route), action: "export", detail: `minggu ${report.minggu}; tabel konsol` });
        return report;
      },
      { access: adminOnly, response: { 200: WeeklyReportAnswer } },
    )
    .get(
      "/mingguan/csv",
      async ({ principal, query, request, route }) => {
        const report = weeklyReport(context.db.$client, figures, context.config.timeZone, weekDate(query));
        const dialect = query.csv ? readCsvDialect(query.csv) : context.config.csvDialect;
        await context.audit.record({ ...consoleSource(dependencies, principal, request, route), action: "export", detail: `minggu ${report.minggu}; csv (unduhan konsol)` });
        return download(reportCsv(report, dialect), `tindak-lanjut-${report.minggu}.csv`, "text/csv; charset=utf-8");
      },
      { access: adminOnly },
    );
};

/** `?tanggal=YYYY-MM-DD`: the week holding that day (this week without it), as --date reads it. */
function weekDate(query: Record<string, string | undefined>): string | undefined {
  const date = formText(query, "tanggal").trim();
  if (date === "") return undefined;
  if (readCalendarDate(date) === null) throw invalid("Tanggal harus YYYY-MM-DD, misalnya 2026-03-01.");
  return date;
}
