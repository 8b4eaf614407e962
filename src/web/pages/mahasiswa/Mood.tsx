import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { PageProps } from "../../types";
import { api } from "../../api";
import { Button, Confirm, ErrorNotice, Field, Loading, Page } from "../../components/ui";
import { formatDay, todayLocal } from "../../format";
import { useResource } from "../../hooks";
import { common, student } from "../../strings";
import type { Mood } from "../../types";
import { useContactState } from "./contact";
import { OutcomeNotice, useAction } from "../../components/outcome";
import { focusSoon, nimPath } from "./shared";

const text = student.mood;
/** About the last four weeks at first; older entries on request. */
const shownAtFirst = 28;

/** Mood: the daily mood entries, newest first; add, change and delete them. */
export function MoodPage({ user }: PageProps) {
  const moods = useResource(() => api.get<Mood[]>(`/api/mahasiswa/mood/${nimPath(user)}`), [user.NIM]);
  const contact = useContactState(user);
  const [showAll, setShowAll] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const listAction = useAction();
  const entries = moods.data ?? [];
  const shown = showAll ? entries : entries.slice(0, shownAtFirst);

  function remove(entry: Mood) {
    void listAction.run(async () => {
      await api.delete(`/api/mahasiswa/mood/${entry.id}`);
      setDeleting(null);
      moods.reload();
      return text.deleted(formatDay(entry.date));
    });
  }

  return (
    <Page title={student.nav.mood}>
      <p>{text.intro}</p>
      <p class="readers">{text.readers(contact.data?.dosen_wali?.nama ?? null)}</p>
      <AddMood entries={entries} onSaved={moods.reload} />
      <section aria-labelledby="mood-daftar">
        <h2 id="mood-daftar">{text.listTitle}</h2>
        <OutcomeNotice outcome={listAction.outcome} />
        {moods.error ? (
          <ErrorNotice error={moods.error} onRetry={moods.reload} />
        ) : !moods.data ? (
          <Loading />
        ) : entries.length === 0 ? (
          <p>{text.empty}</p>
        ) : (
          <>
            <ul class="entry-list">
              {shown.map((entry) => {
                const day = formatDay(entry.date);
                return (
                  <li key={entry.id} class="entry">
                    {editing === entry.id ? (
                      <EditMood
                        entry={entry}
                        onDone={(message) => {
                          setEditing(null);
                          moods.reload();
                          listAction.setOutcome({ kind: "success", text: message });
                        }}
                        onCancel={() => {
                          setEditing(null);
                          focusSoon(`mood-ubah-${entry.id}`);
                        }}
                      />
                    ) : (
                      <>
                        <p class="entry-line">
                          <span class="entry-date">{day}</span>
                          <span class="mood-value">{student.moodLabel(entry.mood_value)}</span>
                        </p>
                        {deleting === entry.id ? (
                          <Confirm
                            yes={student.confirmYes}
                            id={`mood-hapus-${entry.id}`}
                            question={text.deleteQuestion(day)}
                            busy={listAction.busy}
                            onYes={() => remove(entry)}
                            onNo={() => {
                              setDeleting(null);
                              focusSoon(`mood-hapus-${entry.id}`);
                            }}
                          />
                        ) : (
                          <div class="button-row">
                            <Button variant="secondary" id={`mood-ubah-${entry.id}`} aria-label={text.editLabel(day)} onClick={() => setEditing(entry.id)}>
                              {common.edit}
                            </Button>
                            <Button variant="danger" id={`mood-hapus-${entry.id}`} aria-label={text.deleteLabel(day)} onClick={() => setDeleting(entry.id)}>
                              {common.delete}
                            </Button>
                          </div>
                        )}
                      </>
                    )}
                  </li>
                );
              })}
            </ul>
            {!showAll && entries.length > shownAtFirst && (
              <Button variant="secondary" onClick={() => setShowAll(true)}>
                {text.showAll(entries.length)}
              </Button>
            )}
          </>
        )}
      </section>
    </Page>
  );
}

/** The five values as a radio group with their words. */
function MoodChoice(props: { name: string; legend: string; value: number | null; error?: string | null; onChange: (value: number) => void }) {
  const errorId = `${props.name}-error`;
  return (
    <fieldset class={`question${props.error ? " question-missing" : ""}`} aria-describedby={props.error ? errorId : undefined}>
      <legend>{props.legend}</legend>
      {props.error && (
        <p class="field-error" id={errorId}>
          {props.error}
        </p>
      )}
      <div class="scale scale-5">
        {student.moodWords.map((word, index) => (
          <label class="choice" key={word}>
            <input type="radio" id={`${props.name}-${index + 1}`} name={props.name} value={index + 1} checked={props.value === index + 1} onChange={() => props.onChange(index + 1)} />
            <span class="choice-number">{index + 1}</span>{" "}
            <span class="choice-word">{word}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function AddMood(props: { entries: Mood[]; onSaved: () => void }) {
  const [date, setDate] = useState(todayLocal);
  const [value, setValue] = useState<number | null>(null);
  const [missingValue, setMissingValue] = useState(false);
  const action = useAction();

  function submit(event: Event) {
    event.preventDefault();
    if (value === null) {
      setMissingValue(true);
      focusSoon("mood-baru-1");
      return;
    }
    setMissingValue(false);
    // Saving a date that has a mood replaces it (the server answers 200 instead of 201).
    const replacing = props.entries.some((entry) => entry.date === date);
    void action.run(async () => {
      await api.post<Mood>("/api/mahasiswa/mood", { date, mood_value: value });
      props.onSaved();
      const word = student.moodWords[value - 1]!;
      return replacing ? text.replaced(word, formatDay(date)) : text.created(word, formatDay(date));
    });
  }

  return (
    <section aria-labelledby="mood-tambah">
      <h2 id="mood-tambah">{text.addTitle}</h2>
      <form class="form" onSubmit={submit} noValidate>
        <Field label={text.date}>
          {({ id }) => <input id={id} class="date-input" type="date" required max={todayLocal()} value={date} onInput={(event) => setDate(event.currentTarget.value)} />}
        </Field>
        <MoodChoice
          name="mood-baru"
          legend={text.value}
          value={value}
          error={missingValue ? text.chooseValue : null}
          onChange={(chosen) => {
            setValue(chosen);
            setMissingValue(false);
          }}
        />
        <div>
          <Button type="submit" busy={action.busy}>
            {action.busy ? common.saving : text.save}
          </Button>
        </div>
      </form>
      <OutcomeNotice outcome={action.outcome} />
    </section>
  );
}

function EditMood(props: { entry: Mood; onDone: (message: string) => void; onCancel: () => void }) {
  const { entry } = props;
  const [date, setDate] = useState(entry.date);
  const [value, setValue] = useState<number | null>(entry.mood_value);
  const action = useAction();
  const first = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => first.current?.focus(), []);

  function submit(event: Event) {
    event.preventDefault();
    void action.run(async () => {
      await api.put<Mood>(`/api/mahasiswa/mood/${entry.id}`, { date, mood_value: value });
      props.onDone(text.updated(formatDay(date)));
      return null;
    });
  }

  return (
    <form class="form edit-form" onSubmit={submit} noValidate aria-labelledby={`mood-form-${entry.id}`}>
      <h3 id={`mood-form-${entry.id}`}>{text.editTitle(formatDay(entry.date))}</h3>
      <Field label={text.date}>
        {({ id }) => (
          <input id={id} ref={first} class="date-input" type="date" required max={todayLocal()} value={date} onInput={(event) => setDate(event.currentTarget.value)} />
        )}
      </Field>
      <MoodChoice name={`mood-${entry.id}`} legend={text.value} value={value} onChange={setValue} />
      <OutcomeNotice outcome={action.outcome} />
      <div class="button-row">
        <Button type="submit" busy={action.busy}>
          {action.busy ? common.saving : common.save}
        </Button>
        <Button variant="secondary" onClick={props.onCancel}>
          {common.cancel}
        </Button>
      </div>
    </form>
  );
}
