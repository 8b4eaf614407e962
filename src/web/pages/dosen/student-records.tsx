// What the student's page shows of their own records (decisions §19): the mood of the last
// 30 days as a chart and a table, and the diary entries the student shared.
import { api } from "../../api";
import { DataTable, LineChart, type Scale } from "../../components/charts";
import { Loading } from "../../components/ui";
import { formatDay, formatNumber, formatShortDate, todayLocal } from "../../format";
import { useResource } from "../../hooks";
import { staff, student as studentTexts } from "../../strings";
import type { Diary, Mood } from "../../types";
import { ResourceError } from "./shared";

const text = staff.detail;
const days = 30;

/** The mood values 1–5 with bands in the colours of what they mean: a bad day, an ordinary one, a good one. */
const moodScale: Scale = {
  min: 1,
  max: 5,
  ticks: [1, 2, 3, 4, 5],
  bands: [
    { from: 1, to: 2.5, label: "Buruk", tone: "tone-concern" },
    { from: 2.5, to: 3.5, label: "Biasa", tone: "tone-watch" },
    { from: 3.5, to: 5, label: "Baik", tone: "tone-good" },
  ],
};

/** `YYYY-MM-DD` `count` days before `date`. */
function daysBefore(date: string, count: number): string {
  const moment = new Date(`${date}T12:00:00Z`);
  moment.setUTCDate(moment.getUTCDate() - count);
  return moment.toISOString().slice(0, 10);
}

/** The mood of the last 30 days (today included), oldest first: the chart, a sentence, the table. */
export function MoodMonth(props: { nim: string }) {
  const moods = useResource(() => api.get<Mood[]>(`/api/mahasiswa/mood/${encodeURIComponent(props.nim)}`), [props.nim]);
  const since = daysBefore(todayLocal(), days - 1);
  const shown = [...(moods.data ?? [])].filter((entry) => entry.date >= since).sort((a, b) => (a.date < b.date ? -1 : 1));
  const average = shown.length === 0 ? 0 : shown.reduce((sum, entry) => sum + entry.mood_value, 0) / shown.length;
  return (
    <section aria-labelledby="mood-judul">
      <h2 id="mood-judul">{text.mood}</h2>
      {moods.error !== undefined ? (
        <ResourceError resource={moods} />
      ) : !moods.data ? (
        <Loading />
      ) : shown.length === 0 ? (
        <p>{text.moodNone}</p>
      ) : (
        <div class="compact-table">
          <p>{text.moodSummary(shown.length, formatNumber(Math.round(average * 10) / 10), shown.filter((entry) => entry.mood_value <= 2).length)}</p>
          <LineChart title={text.moodChart} scale={moodScale} points={shown.map((entry) => ({ x: Date.parse(`${entry.date}T12:00:00Z`), y: entry.mood_value, label: formatShortDate(`${entry.date}T12:00:00Z`) }))} />
          <DataTable
            caption={text.moodTable}
            columns={[staff.detail.date, text.moodValue]}
            rows={shown.map((entry) => [formatDay(entry.date), studentTexts.moodLabel(entry.mood_value)])}
          />
        </div>
      )}
    </section>
  );
}

/** The diary entries the student shared with the advisor (the route answers staff nothing else), newest first. */
export function SharedDiary(props: { nim: string }) {
  const entries = useResource(() => api.get<Diary[]>(`/api/mahasiswa/diary/${encodeURIComponent(props.nim)}`), [props.nim]);
  return (
    <section aria-labelledby="jurnal-judul">
      <h2 id="jurnal-judul">{text.diary}</h2>
      <p class="aside">{text.diaryIntro}</p>
      {entries.error !== undefined ? (
        <ResourceError resource={entries} />
      ) : !entries.data ? (
        <Loading />
      ) : entries.data.length === 0 ? (
        <p>{text.diaryNone}</p>
      ) : (
        <ol class="note-list">
          {entries.data.map((entry) => (
            <li key={entry.id} class="card">
              <h3 class="section-card-title">{entry.title || text.diaryUntitled}</h3>
              <p class="student-meta">{formatDay(entry.date)}</p>
              <p class="note-text">{entry.content}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
