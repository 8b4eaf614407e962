import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { PageProps } from "../../types";
import { api } from "../../api";
import { Button, Confirm, ErrorNotice, Field, Loading, Notice, Page } from "../../components/ui";
import { formatDate } from "../../format";
import { useResource } from "../../hooks";
import { navigate } from "../../router";
import { pathOf } from "../../routes";
import { common, student } from "../../strings";
import type { User } from "../../types";
import type { Eligibility } from "./Beranda";
import { draftKey, nimPath, readDraft, removeDraft, writeDraft } from "./shared";
import { MissingSummary, QuestionItem, SubmitError, type Item, type Question } from "./questionnaire-parts";

interface Step {
  group: string;
  items: Item[];
}

type Habit = "freq_olahraga" | "durasi_tidur";

interface Draft {
  answers: Record<string, number>;
  habits: Partial<Record<Habit, string>>;
  /** The step shown last, so that a reload continues there. */
  step: number;
}

/** Decisions §20: the optional safety question as GET /api/kuesioner/keselamatan answers it. */
interface SafetyQuestion {
  aktif: boolean;
  pertanyaan: string | null;
  skala: { min: number; max: number };
  pilihan: string[];
  kontak: { nama: string; telepon: string } | null;
}

/** The safety question's key among the answers of a draft, apart from the 68 items. */
const safetyKey = "keselamatan";

const text = student.kuesioner;
const habitOptions: Record<Habit, { label: string; options: readonly string[] }> = {
  freq_olahraga: { label: student.habits.freqOlahraga, options: student.habits.freqOlahragaOptions },
  durasi_tidur: { label: student.habits.durasiTidur, options: student.habits.durasiTidurOptions },
};

/** Short steps: a screenful each, stress and motivation never mixed in one step. */
const perStep: Record<string, number> = { stress: 8, motivasi: 7 };

function stepsOf(questions: readonly Question[], safety: SafetyQuestion): Step[] {
  const steps: Step[] = [];
  questions.forEach((question, index) => {
    const last = steps.at(-1);
    const item = { question, number: index + 1 };
    if (last && last.group === question.group && last.items.length < (perStep[question.group] ?? 8)) last.items.push(item);
    else steps.push({ group: question.group, items: [item] });
  });
  // After the 68 items, a step of its own (decisions §20).
  if (safety.aktif && safety.pertanyaan) {
    steps.push({ group: safetyKey, items: [{ question: { key: safetyKey, text: safety.pertanyaan, scale: safety.skala, group: safetyKey }, number: questions.length + 1 }] });
  }
  return steps;
}

/**
 * Seconds spent answering a stored draft, over every visit, kept beside it (decisions §20:
 * the server reads `durasi_detik` to find answers given faster than the items can be read);
 * null for a draft kept before they were counted, whose time is then unknown and not sent.
 */
function spentOn(saved: Record<string, unknown> | null): number | null {
  if (!saved) return 0;
  return typeof saved.seconds === "number" && Number.isFinite(saved.seconds) && saved.seconds >= 0 ? saved.seconds : null;
}

/** A stored draft, keeping only answers that still fit the questions (an admin may have replaced them). */
function restore(saved: Record<string, unknown> | null, steps: readonly Step[]): Draft {
  const draft: Draft = { answers: {}, habits: {}, step: 0 };
  if (!saved) return draft;
  const answers = (saved.answers ?? {}) as Record<string, unknown>;
  for (const { key, scale } of steps.flatMap((step) => step.items.map((item) => item.question))) {
    const value = answers[key];
    if (typeof value === "number" && Number.isInteger(value) && value >= scale.min && value <= scale.max) draft.answers[key] = value;
  }
  const habits = (saved.habits ?? {}) as Record<string, unknown>;
  for (const [name, { options }] of Object.entries(habitOptions) as [Habit, { options: readonly string[] }][]) {
    const value = habits[name];
    if (typeof value === "string" && options.includes(value)) draft.habits[name] = value;
  }
  if (typeof saved.step === "number" && Number.isInteger(saved.step)) draft.step = Math.min(Math.max(saved.step, 0), steps.length - 1);
  return draft;
}

/** Kuesioner: the weekly limit first, then the items in short steps; the answers are kept as a draft until sent. */
export function Kuesioner({ user }: PageProps) {
  const loaded = useResource(
    () =>
      Promise.all([
        api.get<Question[]>("/api/kuesioner/questions"),
        api.get<Eligibility>(`/api/mahasiswa/can_submit/${nimPath(user)}`),
        api.get<SafetyQuestion>("/api/kuesioner/keselamatan"),
      ]),
    [user.NIM],
  );
  return (
    <Page title={student.nav.kuesioner}>
      {loaded.error ? (
        <ErrorNotice error={loaded.error} onRetry={loaded.reload} />
      ) : !loaded.data ? (
        <Loading />
      ) : (
        <Questionnaire user={user} questions={loaded.data[0]} eligibility={loaded.data[1]} safety={loaded.data[2]} />
      )}
    </Page>
  );
}

function Questionnaire(props: { user: User; questions: Question[]; eligibility: Eligibility; safety: SafetyQuestion }) {
  const { questions, eligibility, safety } = props;
  const key = draftKey("kuesioner", props.user);
  const steps = useMemo(() => stepsOf(questions, safety), [questions, safety]);
  const [draft, setDraft] = useState(() => restore(readDraft(key), steps));
  /** The seconds spent on the draft (spentOn), and when the time on this page was last added to them. */
  // One object for the page's life, changed in place: counting time re-renders nothing.
  const [spent] = useState(() => ({ seconds: spentOn(readDraft(key)), countedAt: null as number | null }));
  const [started, setStarted] = useState(false);
  const [restarting, setRestarting] = useState(false);
  /** The items found unanswered by the last "next" or "send"; shown while still unanswered. */
  const [missing, setMissing] = useState<Item[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<unknown>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);

  const answered = questions.filter((question) => draft.answers[question.key] !== undefined).length;
  const step = steps[draft.step];

  /** The seconds spent, the time on this page since they were last counted added; null when unknown. */
  const secondsNow = () => {
    const now = Date.now();
    if (spent.seconds !== null) spent.seconds += (now - (spent.countedAt ?? now)) / 1000;
    spent.countedAt = now;
    return spent.seconds;
  };
  useEffect(() => {
    if (started) writeDraft(key, { ...draft, seconds: secondsNow() });
  }, [draft, started]);
  // A new step starts at its heading, for the eyes and for a screen reader.
  useLayoutEffect(() => {
    if (started) stepHeading.current?.focus();
  }, [draft.step, started]);

  const gapsOf = (items: readonly Item[]) => items.filter((item) => draft.answers[item.question.key] === undefined);

  function goTo(index: number) {
    setMissing([]);
    setSubmitError(null);
    setDraft({ ...draft, step: index });
  }

  async function submit() {
    // Every step was checked on the way, but a stored draft may predate a change of the items.
    const firstGap = steps.findIndex((each) => gapsOf(each.items).length > 0);
    if (firstGap !== -1) {
      if (firstGap !== draft.step) goTo(firstGap);
      setMissing(gapsOf(steps[firstGap]!.items));
      return;
    }
    setSubmitting(true);
    setSubmitError(null);
    const { [safetyKey]: safetyAnswer, ...answers } = draft.answers;
    const seconds = secondsNow();
    try {
      await api.post("/api/mahasiswa/kuesioner", {
        jawaban: { ...answers, ...draft.habits },
        ...(seconds === null ? {} : { durasi_detik: Math.round(seconds * 10) / 10 }),
        ...(safetyAnswer === undefined ? {} : { jawaban_keselamatan: safetyAnswer }),
      });
      removeDraft(key);
      navigate(`${pathOf("hasil")}?baru=1`);
    } catch (error) {
      // Everything typed stays: in the form and in the draft.
      setSubmitError(error);
      setSubmitting(false);
    }
  }

  /**
   * Enter on a choice never sends the step (a browser would, and the focus would jump to
   * the step's heading): it moves on to the next item, at its chosen answer or its first,
   * then to the habits and the step's button, as Tab would but one item at a time.
   */
  function onKeyDown(event: KeyboardEvent) {
    const choice = event.target;
    if (event.key !== "Enter" || !(choice instanceof HTMLInputElement) || choice.type !== "radio") return;
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const items = [...form.querySelectorAll("fieldset.question")];
    const next = items[items.indexOf(choice.closest("fieldset.question")!) + 1];
    const target = next ? (next.querySelector("input:checked") ?? next.querySelector("input")) : (form.querySelector(".habits select") ?? form.querySelector("button[type=submit]"));
    (target as HTMLElement | null)?.focus();
  }

  function onSubmit(event: Event) {
    event.preventDefault();
    if (!step) return;
    const gaps = gapsOf(step.items);
    if (gaps.length > 0) return setMissing(gaps);
    if (draft.step < steps.length - 1) goTo(draft.step + 1);
    else void submit();
  }

  if (!started || !step) {
    return (
      <section aria-labelledby="kuesioner-awal">
        <h2 id="kuesioner-awal">{text.beforeStart}</h2>
        <Notice kind={eligibility.can_submit ? "info" : "warning"}>
          <p>
            <strong>{text.weeklyRule}</strong>
          </p>
          {eligibility.can_submit ? (
            <p>{student.beranda.canSubmit}</p>
          ) : (
            <p>
              {eligibility.message} {eligibility.last_submission_date && student.lastSubmitted(formatDate(eligibility.last_submission_date))}
            </p>
          )}
        </Notice>
        <p>{text.intro}</p>
        <ul>
          <li>{text.size(questions.length, steps.length)}</li>
          <li>{text.draftNote}</li>
        </ul>
        {!eligibility.can_submit ? (
          <p>
            <a href={pathOf("hasil")}>{text.toResult}</a>
          </p>
        ) : restarting ? (
          <Confirm
            id="kuesioner-ulang"
            question={text.restartQuestion}
            yes={text.restartYes}
            busy={false}
            onYes={() => {
              removeDraft(key);
              Object.assign(spent, { seconds: 0, countedAt: null });
              setDraft({ answers: {}, habits: {}, step: 0 });
              setRestarting(false);
              setStarted(true);
            }}
            onNo={() => setRestarting(false)}
          />
        ) : (
          <div class="button-row">
            <Button onClick={() => setStarted(true)}>{answered > 0 ? text.resume(answered, questions.length) : text.start}</Button>
            {answered > 0 && (
              <Button variant="secondary" onClick={() => setRestarting(true)}>
                {text.restart}
              </Button>
            )}
          </div>
        )}
      </section>
    );
  }

  const last = draft.step === steps.length - 1;
  const stillMissing = gapsOf(missing);
  return (
    <form class="questionnaire" onSubmit={onSubmit} onKeyDown={onKeyDown} noValidate>
      <div class="progress-box">
        <h2 ref={stepHeading} tabIndex={-1}>
          {text.step(draft.step + 1, steps.length)}: {step.group === safetyKey ? text.safetyTitle : (text.groupTitle[step.group] ?? step.group)}
        </h2>
        <p id="kuesioner-progres">{text.answered(answered, questions.length)}</p>
        <progress max={questions.length} value={answered} aria-labelledby="kuesioner-progres" />
      </div>
      {text.groupInstruction[step.group] && <p class="instruction">{text.groupInstruction[step.group]}</p>}
      {step.group === safetyKey && safety.kontak && <p class="instruction">{text.safetyIntro(`${safety.kontak.nama}, ${safety.kontak.telepon}`)}</p>}
      {stillMissing.length > 0 && <MissingSummary found={missing} items={stillMissing} />}
      {step.items.map((item) => (
        <QuestionItem
          key={item.question.key}
          item={item}
          value={draft.answers[item.question.key]}
          missing={stillMissing.includes(item)}
          words={item.question.group === safetyKey ? safety.pilihan : undefined}
          onChoose={(value) => setDraft({ ...draft, answers: { ...draft.answers, [item.question.key]: value } })}
        />
      ))}
      {last && (
        <fieldset class="habits">
          <legend>{text.habitsTitle}</legend>
          <p class="hint">{text.habitsHint}</p>
          {(Object.entries(habitOptions) as [Habit, { label: string; options: readonly string[] }][]).map(([name, habit]) => (
            <Field key={name} label={habit.label}>
              {({ id }) => (
                <select
                  id={id}
                  name={name}
                  value={draft.habits[name] ?? ""}
                  onChange={(event) => {
                    const habits = { ...draft.habits, [name]: event.currentTarget.value };
                    if (!habits[name]) delete habits[name];
                    setDraft({ ...draft, habits });
                  }}
                >
                  <option value="">{text.notAnswered}</option>
                  {habit.options.map((option) => (
                    <option key={option} value={option}>
                      {option}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ))}
        </fieldset>
      )}
      {submitError !== null && <SubmitError error={submitError} />}
      <div class="button-row step-buttons">
        {draft.step > 0 && (
          <Button variant="secondary" onClick={() => goTo(draft.step - 1)}>
            {common.previous}
          </Button>
        )}
        <Button type="submit" busy={submitting}>
          {!last ? common.next : submitting ? text.submitting : text.submit}
        </Button>
      </div>
      <p class="aside">{text.autosaved}</p>
    </form>
  );
}
