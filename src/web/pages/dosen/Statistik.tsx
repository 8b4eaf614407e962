import type { PageProps } from "../../types";
import { api } from "../../api";
import { BarChart, DataTable } from "../../components/charts";
import { Loading, Notice, Page } from "../../components/ui";
import { formatNumber, formatShortDate } from "../../format";
import { useResource } from "../../hooks";
import { levelSeries, levels, type Measure } from "../../levels";
import { navigate } from "../../router";
import { pathOf } from "../../routes";
import { common, staff } from "../../strings";
import type { Level } from "../../types";
import { LecturerPicker, ResourceError, useActingNip, withQuery, type Statistik as StatistikAnswer } from "./shared";

const text = staff.stats;
type Counts = Record<Level, number>;
type Trend = Extract<StatistikAnswer, { trend: unknown }>["trend"];


/** Statistik: how many have screened, the latest levels, and the last 12 weeks. */
export function Statistik(props: PageProps) {
  const nip = useActingNip(props);
  const waiting = nip === "";
  const stats = useResource(
    () => (waiting ? Promise.resolve(null) : api.get<StatistikAnswer>(withQuery("/api/dosen/statistik", { NIP: nip ?? "" }))),
    [nip],
  );
  const data = stats.data;
  return (
    <Page title={staff.nav.statistik}>
      {nip !== null && <LecturerPicker nip={nip} onPick={(chosen) => navigate(withQuery(pathOf("statistik"), { nip: chosen }))} />}
      {waiting ? (
        <Notice kind="info">
          <p>{staff.lecturer.promptStatistik}</p>
        </Notice>
      ) : stats.error !== undefined ? (
        <ResourceError resource={stats} />
      ) : !data || stats.loading ? (
        <Loading />
      ) : !("trend" in data) ? (
        <Notice kind="info">
          <p>{text.empty}</p>
        </Notice>
      ) : (
        <>
          <dl class="stat-totals">
            <div class="card">
              <dt>{text.total}</dt>
              <dd>{formatNumber(data.total_mahasiswa)}</dd>
            </div>
            <div class="card">
              <dt>{text.screened}</dt>
              <dd>{formatNumber(data.sudah_skrining)}</dd>
            </div>
            <div class="card">
              <dt>{text.notScreened}</dt>
              <dd>{formatNumber(data.belum_skrining)}</dd>
            </div>
          </dl>
          <p class="aside">{text.basis}</p>
          <Distribution measure="stres" heading={text.stressDist} caption={text.stressDistTable} counts={data.stress_dist} screened={data.sudah_skrining} />
          <Distribution measure="motivasi" heading={text.motivationDist} caption={text.motivationDistTable} counts={data.motivasi_dist} screened={data.sudah_skrining} />
          <h2>{text.trend}</h2>
          <p class="aside">{text.trendBasis}</p>
          <WeeklyTrend measure="stres" heading={text.stressTrend} caption={text.stressTrendTable} trend={data.trend} counts={(week) => week.stress} />
          <WeeklyTrend measure="motivasi" heading={text.motivationTrend} caption={text.motivationTrendTable} trend={data.trend} counts={(week) => week.motivasi} />
        </>
      )}
    </Page>
  );
}

/** The latest levels of the screened students: a bar per level and the same numbers with shares. */
function Distribution(props: { measure: Measure; heading: string; caption: string; counts: Counts; screened: number }) {
  const share = (value: number) => `${formatNumber(props.screened === 0 ? 0 : (value / props.screened) * 100)}%`;
  return (
    <section class="compact-table">
      <h2>{props.heading}</h2>
      <BarChart title={props.caption} series={levelSeries(props.measure)} groups={[{ label: text.students, values: levels.map((level) => props.counts[level]) }]} />
      <DataTable
        caption={props.caption}
        columns={[text.level, text.amount, text.share]}
        numeric={[false, true, true]}
        rows={levels.map((level) => [common.levels[level], formatNumber(props.counts[level]), share(props.counts[level])])}
      />
    </section>
  );
}

/** `23 Nov 2026`: short enough for four columns on a phone. */
const weekStart = (start: string) => `${formatShortDate(start)} ${start.slice(0, 4)}`;

/** Screenings per week and level, oldest week left. */
function WeeklyTrend(props: { measure: Measure; heading: string; caption: string; trend: Trend; counts: (week: Trend[number]) => Counts }) {
  return (
    <section class="compact-table">
      <h3>{props.heading}</h3>
      <BarChart
        title={props.caption}
        series={levelSeries(props.measure)}
        groups={props.trend.map((week) => ({ label: formatShortDate(week.start), values: levels.map((level) => props.counts(week)[level]) }))}
      />
      <DataTable
        caption={props.caption}
        columns={[text.week, ...levels.map((level) => common.levels[level]!)]}
        numeric={[false, true, true, true]}
        rows={props.trend.map((week) => [weekStart(week.start), ...levels.map((level) => formatNumber(props.counts(week)[level]))])}
      />
    </section>
  );
}
