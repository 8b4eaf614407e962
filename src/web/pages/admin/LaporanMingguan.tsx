import { useState } from "preact/hooks";
import { api } from "../../api";
import { DataTable } from "../../components/charts";
import { Button, Field, Loading } from "../../components/ui";
import { formatNumber } from "../../format";
import { useResource } from "../../hooks";
import { admin } from "../../strings/admin";
import { ResourceError, withQuery } from "../dosen/shared";
import { CommandHint, DownloadButton, type WeeklyReport } from "./shared";

const text = admin.mingguan;
type Figures = WeeklyReport["fakultas"];

/** The report's three tables, as `followup report --week` prints them: the week's moves, the contact outcomes, the closing reasons. */
const tables: { caption: string; columns: [string, (row: Figures) => string][] }[] = [
  {
    caption: text.moves,
    columns: [
      [text.columns.opened, (row) => formatNumber(row.dibuka)],
      [text.columns.contacted, (row) => formatNumber(row.dihubungi)],
      [text.columns.referred, (row) => formatNumber(row.dirujuk)],
      [text.columns.closed, (row) => formatNumber(row.selesai)],
      [text.columns.old, (row) => formatNumber(row.terbuka_lebih_dari_7_hari)],
      [text.columns.late, (row) => formatNumber(row.terlambat)],
      [text.columns.median, (row) => (row.median_hari_ke_kontak_pertama === null ? "–" : formatNumber(row.median_hari_ke_kontak_pertama))],
    ],
  },
  {
    caption: text.contacts,
    columns: [
      [text.columns.reached, (row) => formatNumber(row.kontak_berhasil)],
      [text.columns.noAnswer, (row) => formatNumber(row.kontak_tidak_merespons)],
      [text.columns.scheduled, (row) => formatNumber(row.kontak_dijadwalkan)],
    ],
  },
  {
    caption: text.closings,
    columns: [
      [text.columns.resolved, (row) => formatNumber(row.selesai_teratasi)],
      [text.columns.referredOut, (row) => formatNumber(row.selesai_dirujuk_layanan_konseling)],
      [text.columns.noAnswer, (row) => formatNumber(row.selesai_tidak_merespons)],
      [text.columns.declined, (row) => formatNumber(row.selesai_mahasiswa_menolak)],
      [text.columns.other, (row) => formatNumber(row.selesai_lainnya)],
      [text.columns.unrecorded, (row) => formatNumber(row.selesai_tidak_dicatat)],
    ],
  },
];

/**
 * The weekly follow-up report for the faculty's meeting (issue 44, item 15): the week
 * holding a chosen day, per lecturer and for the faculty, with its CSV, as `followup report
 * --week` gives it. Each view and download leaves the command's export row.
 */
export function LaporanMingguan(props: { dialect: string }) {
  const [draft, setDraft] = useState("");
  const [date, setDate] = useState("");
  const report = useResource(() => api.get<WeeklyReport>(withQuery("/api/admin/statistik/mingguan", date ? { tanggal: date } : {})), [date]);
  const data = report.data;
  const rows = data ? [...data.per_dosen.map((row): [string, Figures] => [row.NIP ? `${row.nama_dosen ?? ""} (${row.NIP})` : text.ownerless, row]), [text.faculty, data.fakultas] as [string, Figures]] : [];
  return (
    <section aria-labelledby="laporan-mingguan">
      <h2 id="laporan-mingguan">{text.heading}</h2>
      <form
        class="form console-form"
        onSubmit={(event) => {
          event.preventDefault();
          setDate(draft);
        }}
      >
        <Field label={text.date} hint={text.dateHint}>
          {({ id, describedBy }) => <input id={id} type="date" value={draft} aria-describedby={describedBy} onInput={(event) => setDraft(event.currentTarget.value)} />}
        </Field>
        <Button type="submit">{text.show}</Button>
      </form>
      <ResourceError resource={report} />
      {!data ? (
        report.loading && <Loading />
      ) : (
        <>
          <p>{text.week(data.minggu, data.mulai, data.sampai, data.zona_waktu)}</p>
          {tables.map((table) => (
            <DataTable
              key={table.caption}
              caption={table.caption}
              columns={[text.columns.lecturer, ...table.columns.map(([name]) => name)]}
              numeric={[false, ...table.columns.map(() => true)]}
              rows={rows.map(([name, figures]) => [name, ...table.columns.map(([, cell]) => cell(figures))])}
            />
          ))}
          <DownloadButton label={text.download} path={withQuery("/api/admin/statistik/mingguan/csv", { ...(date ? { tanggal: date } : {}), csv: props.dialect })} />
        </>
      )}
      <CommandHint command="skrining followup report --week --date YYYY-MM-DD" />
    </section>
  );
}
