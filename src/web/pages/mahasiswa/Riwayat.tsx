import type { PageProps } from "../../types";
import { api } from "../../api";
import { DataTable, LineChart } from "../../components/charts";
import { ErrorNotice, LevelTag, Loading, Page } from "../../components/ui";
import { formatDate, formatNumber, formatShortDate } from "../../format";
import { useResource } from "../../hooks";
import { scales } from "../../levels";
import { student } from "../../strings";
import type { Skrining } from "../../types";
import { NotScreenedYet } from "./shared";

const text = student.riwayat;

interface HistoryPage {
  data: Skrining[];
  total: number;
  page: number;
  total_pages: number;
}

/** Every page of the history (100 a page, the most the server gives), newest first. */
async function loadHistory(): Promise<Skrining[]> {
  const all: Skrining[] = [];
  for (let page = 1; ; page++) {
    const answer = await api.get<HistoryPage>(`/api/mahasiswa/history?page=${page}&per_page=100`);
    all.push(...answer.data);
    if (page >= answer.total_pages || answer.data.length === 0) return all;
  }
}

/** Riwayat: every screening as two line charts over the level bands, oldest left, and as a table. */
export function Riwayat({ user }: PageProps) {
  const history = useResource(loadHistory, [user.NIM]);
  return (
    <Page title={student.nav.riwayat}>
      {history.error ? (
        <ErrorNotice error={history.error} onRetry={history.reload} />
      ) : !history.data ? (
        <Loading />
      ) : history.data.length === 0 ? (
        <NotScreenedYet />
      ) : (
        <HistoryView records={history.data} />
      )}
    </Page>
  );
}

function HistoryView(props: { records: Skrining[] }) {
  const oldestFirst = [...props.records].reverse();
  const pointsOf = (value: (record: Skrining) => number) =>
    oldestFirst.map((record) => ({ x: Date.parse(record.tanggal_skrining), y: value(record), label: formatShortDate(record.tanggal_skrining) }));
  return (
    <>
      <p>{text.intro}</p>
      <div class="chart-grid">
        <section aria-labelledby="riwayat-stres">
          <h2 id="riwayat-stres">{text.stressTitle}</h2>
          <LineChart title={text.stressChart} points={pointsOf((record) => record.score_stress)} scale={scales.stres} />
        </section>
        <section aria-labelledby="riwayat-motivasi">
          <h2 id="riwayat-motivasi">{text.motivationTitle}</h2>
          <p class="hint">{text.motivationExplained(formatNumber(scales.motivasi.min), formatNumber(scales.motivasi.max))}</p>
          <LineChart title={text.motivationChart} points={pointsOf((record) => record.score_sdi)} scale={scales.motivasi} />
        </section>
      </div>
      {/* Three columns, each level with its score under it: five do not fit a 360 px phone. */}
      <section aria-labelledby="riwayat-tabel" class="history-table">
        <h2 id="riwayat-tabel">{text.tableTitle}</h2>
        <DataTable
          caption={text.caption(props.records.length)}
          columns={text.columns}
          rows={props.records.map((record) => [
            formatDate(record.tanggal_skrining),
            <>
              <LevelTag measure="stres" level={record.tingkat_stres} /> <span class="cell-score">{text.stressCell(formatNumber(record.score_stress))}</span>
            </>,
            <>
              <LevelTag measure="motivasi" level={record.tingkat_motivasi} /> <span class="cell-score">{text.motivationCell(formatNumber(record.score_sdi))}</span>
            </>,
          ])}
        />
      </section>
    </>
  );
}
