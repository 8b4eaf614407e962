import { useState } from "preact/hooks";
import type { PageProps } from "../../types";
import { api } from "../../api";
import { ErrorNotice, LevelTag, Loading, Notice, Page } from "../../components/ui";
import { formatDate, todayLocal } from "../../format";
import { useResource, type Resource } from "../../hooks";
import { pathOf } from "../../routes";
import { student } from "../../strings";
import type { Hasil, Mood, User } from "../../types";
import { useUnreadNotes } from "../../unread-catatan";
import { ContactCard } from "./contact";
import { HelpCard, SafetyHelp } from "./help";
import { OutcomeNotice, useAction } from "../../components/outcome";
import { latestResult, nimPath } from "./shared";

export interface Eligibility {
  can_submit: boolean;
  message: string;
  last_submission_date: string | null;
  days_remaining: number;
}

const text = student.beranda;

/** Beranda: unread notes, whether the questionnaire can be filled now, the latest result (with help first after a Tinggi stress), today's mood. */
export function Beranda(props: PageProps) {
  const { user } = props;
  const latest = useResource(() => latestResult(user), [user.NIM]);
  const unreadNotes = useUnreadNotes(user.Id_User);
  // Decisions §19: a change of advisor is told here for 14 days (GET /api/auth/me).
  const me = useResource(() => api.get<User>("/api/auth/me"), [user.Id_User]);
  const change = me.data?.pergantian_dosen_wali;
  return (
    <Page title={student.nav.beranda}>
      <p>
        {text.greeting(user.nama || user.username)} {text.intro}
      </p>
      {change && (
        <Notice kind="info">
          <p>{student.kontak.changed(change.nama_sebelumnya, change.nama_baru, formatDate(change.tanggal))}</p>
        </Notice>
      )}
      {/* After a critical safety answer (decisions §20) or a Tinggi stress result (§13), where to get help comes first here too. */}
      {latest.data?.bantuan_segera && <SafetyHelp contact={latest.data.bantuan_segera} />}
      {(latest.data?.tingkat_stres === "Tinggi" || latest.data?.bantuan_segera) && <HelpCard urgent={latest.data.tingkat_stres === "Tinggi"} brief />}
      <div class="cards">
        {unreadNotes ? <NotesCard count={unreadNotes} /> : null}
        <QuestionnaireCard {...props} />
        <LatestCard latest={latest} />
        <TodayMood {...props} />
        <ContactCard user={user} headingId="beranda-kontak" />
      </div>
    </Page>
  );
}

/** Notes from a lecturer not opened yet: the student should not have to look in the menu to notice them. */
function NotesCard(props: { count: number }) {
  return (
    <section class="card tile" aria-labelledby="beranda-catatan">
      <h2 id="beranda-catatan">{text.notesTitle}</h2>
      <p>{text.notesUnread(props.count)}</p>
      <a class="button button-primary" href={pathOf("catatan")}>
        {text.toNotes}
      </a>
    </section>
  );
}

/** Whether the questionnaire can be filled now, or in how many days. */
function EligibilityText(props: { eligibility: Eligibility }) {
  const { eligibility } = props;
  if (eligibility.can_submit) return <p>{text.canSubmit}</p>;
  return (
    <p>
      {text.waitDays(eligibility.days_remaining)} {eligibility.last_submission_date && student.lastSubmitted(formatDate(eligibility.last_submission_date))}
    </p>
  );
}

function QuestionnaireCard({ user }: PageProps) {
  const eligibility = useResource(() => api.get<Eligibility>(`/api/mahasiswa/can_submit/${nimPath(user)}`), [user.NIM]);
  return (
    <section class="card tile" aria-labelledby="beranda-kuesioner">
      <h2 id="beranda-kuesioner">{text.questionnaireTitle}</h2>
      {eligibility.error ? (
        <ErrorNotice error={eligibility.error} onRetry={eligibility.reload} />
      ) : !eligibility.data ? (
        <Loading />
      ) : (
        <>
          <EligibilityText eligibility={eligibility.data} />
          {eligibility.data.can_submit && (
            <a class="button button-primary" href={pathOf("kuesioner")}>
              {student.toQuestionnaire}
            </a>
          )}
        </>
      )}
    </section>
  );
}

function LatestCard({ latest }: { latest: Resource<Hasil | null> }) {
  return (
    <section class="card tile" aria-labelledby="beranda-hasil">
      <h2 id="beranda-hasil">{text.latestTitle}</h2>
      {latest.error ? (
        <ErrorNotice error={latest.error} onRetry={latest.reload} />
      ) : latest.data === undefined ? (
        <Loading />
      ) : latest.data === null ? (
        <p>{student.notScreened}</p>
      ) : (
        <>
          <p>{text.latestDate(formatDate(latest.data.tanggal_skrining))}</p>
          <p class="level-pair">
            <LevelTag measure="stres" level={latest.data.tingkat_stres} label={text.stress} />{" "}
            <LevelTag measure="motivasi" level={latest.data.tingkat_motivasi} label={text.motivation} />
          </p>
          <p>
            <a href={pathOf("hasil")}>{text.toResult}</a>
          </p>
        </>
      )}
    </section>
  );
}

/** Today's mood in one tap: five buttons, the chosen one pressed. */
function TodayMood({ user }: PageProps) {
  const today = todayLocal();
  const moods = useResource(() => api.get<Mood[]>(`/api/mahasiswa/mood/${nimPath(user)}`), [user.NIM]);
  const [saved, setSaved] = useState<number | null>(null);
  const action = useAction();
  const current = saved ?? moods.data?.find((entry) => entry.date === today)?.mood_value ?? null;

  function choose(value: number) {
    if (action.busy) return;
    void action.run(async () => {
      await api.post<Mood>("/api/mahasiswa/mood", { date: today, mood_value: value });
      setSaved(value);
      return text.moodSaved(student.moodWords[value - 1]!);
    });
  }

  return (
    <section class="card tile card-wide" aria-labelledby="beranda-mood">
      <h2 id="beranda-mood">{text.moodTitle}</h2>
      {moods.error ? (
        <ErrorNotice error={moods.error} onRetry={moods.reload} />
      ) : !moods.data ? (
        <Loading />
      ) : (
        <>
          <p id="beranda-mood-question">{text.moodQuestion}</p>
          <div class="mood-picker" role="group" aria-labelledby="beranda-mood-question">
            {student.moodWords.map((word, index) => (
              <button type="button" key={word} class="mood-button" aria-pressed={current === index + 1} aria-busy={action.busy || undefined} onClick={() => choose(index + 1)}>
                <span class="mood-number">{index + 1}</span>{" "}
                <span>{word}</span>
              </button>
            ))}
          </div>
          {!action.outcome && <p class="aside">{current === null ? text.moodNone : text.moodToday(student.moodWords[current - 1]!)}</p>}
          <OutcomeNotice outcome={action.outcome} focus={false} />
          <p>
            <a href={pathOf("mood")}>{text.toMood}</a>
          </p>
        </>
      )}
    </section>
  );
}
