import { useLayoutEffect, useRef } from "preact/hooks";
import { ApiError } from "../../api";
import { ErrorNotice, Notice } from "../../components/ui";
import { student } from "../../strings";

// The questionnaire page's pieces: one item, the list of unanswered ones, and why sending failed.

const text = student.kuesioner;

export interface Question {
  key: string;
  text: string;
  scale: { min: number; max: number };
  group: string;
}

/** A question with its number in the whole questionnaire (1–68). */
export interface Item {
  question: Question;
  number: number;
}

/** One item: its words as a radio group, the scale's words as the labels. */
export function QuestionItem(props: { item: Item; value: number | undefined; missing: boolean; words?: readonly string[]; onChoose: (value: number) => void }) {
  const { question, number } = props.item;
  const { min, max } = question.scale;
  const words = props.words ?? text.scale[question.group];
  const values = Array.from({ length: max - min + 1 }, (_, index) => min + index);
  const errorId = `${question.key}-belum`;
  return (
    <fieldset class={`question${props.missing ? " question-missing" : ""}`} aria-describedby={props.missing ? errorId : undefined}>
      <legend>
        <span class="question-number">{number}.</span> {question.text}
      </legend>
      {props.missing && (
        <p class="field-error" id={errorId}>
          {text.missingHere}
        </p>
      )}
      <div class={`scale scale-${values.length}`}>
        {values.map((value, index) => (
          <label class="choice" key={value}>
            <input type="radio" id={`${question.key}-${value}`} name={question.key} value={value} checked={props.value === value} onChange={() => props.onChoose(value)} />
            <span class="choice-number">{value}</span>{" "}
            {words?.length === values.length && <span class="choice-word">{words[index]}</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The unanswered items of a step, each a link to its first choice; focused when found. */
export function MissingSummary(props: { found: Item[]; items: Item[] }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => box.current?.focus(), [props.found]);
  return (
    <div class="notice notice-error missing-summary" role="alert" tabIndex={-1} ref={box}>
      <p>{text.missingTitle(props.items.length)}</p>
      <ul>
        {props.items.map(({ question, number }) => {
          const target = `${question.key}-${question.scale.min}`;
          return (
            <li key={question.key}>
              <a
                href={`#${target}`}
                onClick={(event) => {
                  event.preventDefault();
                  const input = document.getElementById(target);
                  input?.focus();
                  input?.scrollIntoView({ block: "center" });
                }}
              >
                {text.missingItem(number)}
              </a>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Why sending failed; the weekly limit with the server's own sentence. Focused, since the send button was busy. */
export function SubmitError(props: { error: unknown }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => box.current?.focus(), [props.error]);
  const { error } = props;
  const weekly = error instanceof ApiError && error.status === 403 && typeof error.body.message === "string" ? error.body.message : null;
  return (
    <div class="outcome" ref={box} tabIndex={-1}>
      {weekly ? (
        <Notice kind="error">
          <p>
            <strong>{text.weeklyLimit}</strong>
          </p>
          <p>{weekly}</p>
        </Notice>
      ) : (
        <ErrorNotice error={error} />
      )}
    </div>
  );
}
