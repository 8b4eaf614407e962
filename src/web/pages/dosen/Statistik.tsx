import type { PageProps } from "../../types";
import { api } from "../../api";
import { DataTable } from "../../components/charts";
import { LevelBars, StackedBars } from "../../components/level-charts";
import { Loading, Notice, Page } from "../../components/ui";
import { formatNumber, formatShortDate } from "../../format";
import { useResource } from "../../hooks";
import { concernLevel, levelSeries, levels, toneOf, type Measure } from "../../levels";
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
          <p class="aside">{text.colours}</p>
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

/** The latest levels of the screened students: a labelled bar per level with its count and share, and the same numbers as a table. */
function Distribution(props: { measure: Measure; heading: string; caption: string; counts: Counts; screened: number }) {
  const share = (value: number) => `${formatNumber(props.screened === 0 ? 0 : (value / props.screened) * 100)}%`;
  return (
    <section class="compact-table">
      <h2>{props.heading}</h2>
      <LevelBars
        title={props.caption}
        bars={levels.map((level) => ({
          label: common.levels[level]!,
          share: props.screened === 0 ? 0 : props.counts[level] / props.screened,
          value: text.barValue(props.counts[level], share(props.counts[level])),
          tone: toneOf(props.measure, level),
        }))}
      />
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

/**
 * Screenings per week: a stacked bar a week (the worrying level at the bottom), oldest left,
 * a sentence of what they add up to, and the table folded away.
 */
function WeeklyTrend(props: { measure: Measure; heading: string; caption: string; trend: Trend; counts: (week: Trend[number]) => Counts }) {
  const series = levelSeries(props.measure);
  const concern = concernLevel(props.measure);
  /** Screenings of some weeks, of one level or of all. */
  const sum = (weeks: Trend, only?: Level) => weeks.reduce((total, week) => total + (only ? [only] : levels).reduce((all, level) => all + props.counts(week)[level], 0), 0);
  const lastWeek = props.trend.slice(-1);
  return (
    <section class="compact-table">
      <h3>{props.heading}</h3>
      <p>{text.trendSummary(sum(props.trend), sum(props.trend, concern), `${props.measure} ${common.levels[concern]}`, sum(lastWeek), sum(lastWeek, concern))}</p>
      <StackedBars
        title={props.caption}
        series={series}
        stacks={props.trend.map((week) => ({ label: formatShortDate(week.start), values: series.map((each) => props.counts(week)[each.level]) }))}
      />
      <details class="table-details">
        <summary>{text.weekTable(props.measure)}</summary>
        <DataTable
          caption={props.caption}
          columns={[text.week, ...levels.map((level) => common.levels[level]!)]}
          numeric={[false, true, true, true]}
          rows={props.trend.map((week) => [weekStart(week.start), ...levels.map((level) => formatNumber(props.counts(week)[level]))])}
        />
      </details>
    </section>
  );
}
