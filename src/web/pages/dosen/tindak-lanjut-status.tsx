// A follow-up case's status, handler and reasons in words and badges, and the status form:
// what the list of cases, the case page, the student's page and the first page share (their
// shapes: ../../types.ts).
import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import { ApiError, api } from "../../api";
import { Button, ErrorNotice, Field } from "../../components/ui";
import { staff } from "../../strings";
import type { CaseStatus, TindakLanjutCase, TindakLanjutDetail } from "../../types";
import { overdueDays } from "../../../modules/tindak-lanjut/figures";
import {
  allowedMoves,
  attemptsBeforeNoResponse,
  caseNoteMaxLength,
  closingReasons,
  contactOutcomes,
  supportJudgements,
  type ClosingReason,
  type ContactOutcome,
  type SupportJudgement,
} from "../../../modules/tindak-lanjut/moves";

const text = staff.followUp;

export const isOpen = (kasus: Pick<TindakLanjutCase, "status">) => kasus.status !== "selesai";

/**
 * Open longer than a week, the faculty's line for a case that needs a push: the figures count
 * a case opened more than 7 days ago, which is 7 whole days of `hari_terbuka` or more.
 */
export const isOld = (kasus: Pick<TindakLanjutCase, "status" | "hari_terbuka">) => isOpen(kasus) && kasus.hari_terbuka >= overdueDays;

export const statusWord = (status: string) => text.status[status] ?? status;

/** Who handles the case, in words: its handler's name, or the admins when it has none. */
export const handlerName = (kasus: Pick<TindakLanjutCase, "nama_dosen" | "NIP">) => kasus.nama_dosen || kasus.NIP || text.noOwner;

export const reasonWords = (kasus: Pick<TindakLanjutCase, "alasan">) => kasus.alasan.map((reason) => text.reason[reason] ?? reason);

/** A closed case's reason and judgement in words; a case closed before reasons were recorded says so. */
export function closingWords(kasus: Pick<TindakLanjutCase, "alasan_selesai" | "perlu_dukungan">): string {
  const reason = kasus.alasan_selesai ? (text.closing[kasus.alasan_selesai] ?? kasus.alasan_selesai) : text.closingNotRecorded;
  return text.closedWith(reason, kasus.perlu_dukungan ? (text.supportShort[kasus.perlu_dukungan] ?? null) : null);
}

/** A case's status as a badge: a new case in the danger colour, one under way in the warning colour, a closed one plain; the word says which. */
export function StatusBadge(props: { status: string }) {
  return <span class={`badge ${props.status === "selesai" ? "badge-neutral" : props.status === "baru" ? "badge-danger" : "badge-warning"}`}>{statusWord(props.status)}</span>;
}

/**
 * Everything about a case that asks for someone, as badges (decisions §19): its status, late
 * for its first contact, a contact owed today (§20), a request of the student waiting, a closing new for the advisor,
 * replies new for the viewer, open longer than a week, and each reason it opened for.
 */
export function CaseBadges(props: { kasus: TindakLanjutCase; withStatus?: boolean; withReasons?: boolean }) {
  const { kasus } = props;
  return (
    <span class="badge-row">
      {props.withStatus !== false && <StatusBadge status={kasus.status} />}
      {kasus.terlambat && <span class="badge badge-danger">{text.late}</span>}
      {kasus.segera && !kasus.terlambat && <span class="badge badge-danger">{text.urgent}</span>}
      {kasus.permintaan_menunggu && <span class="badge badge-danger">{text.requestWaiting}</span>}
      {kasus.baru_ditutup && <span class="badge badge-info">{text.newlyClosed}</span>}
      {kasus.balasan_baru > 0 && <span class="badge badge-info">{text.newReplies(kasus.balasan_baru)}</span>}
      {isOld(kasus) && <span class="badge badge-warning">{text.old}</span>}
      {props.withReasons !== false &&
        kasus.alasan.map((reason) => (
          <span key={reason} class="badge badge-neutral">
            {text.reasonBadge[reason] ?? reason}
          </span>
        ))}
    </span>
  );
}

/** What the chosen move asks besides the note (decisions §19). */
interface MoveDetails {
  outcome: ContactOutcome | null;
  closing: ClosingReason | null;
  support: SupportJudgement | null;
}

/** A group of radio buttons, one per value, with its legend and error. */
function Choices<Value extends string>(props: {
  name: string;
  legend: string;
  values: readonly Value[];
  words: Record<string, string>;
  value: Value | null;
  error: string | null;
  hints?: Partial<Record<Value, string>>;
  disabled?: Partial<Record<Value, boolean>>;
  firstRef?: { current: HTMLInputElement | null };
  onChange: (value: Value) => void;
}) {
  const errorId = `${props.name}-error`;
  return (
    <fieldset class={`status-choices${props.error ? " status-choices-invalid" : ""}`} aria-describedby={props.error ? errorId : undefined}>
      <legend>{props.legend}</legend>
      {props.error && (
        <p class="field-error" id={errorId}>
          {props.error}
        </p>
      )}
      {props.values.map((value, index) => {
        const hintId = `${props.name}-${value}-hint`;
        return (
          <label class="choice" key={value}>
            <input
              ref={index === 0 ? props.firstRef : undefined}
              type="radio"
              name={props.name}
              value={value}
              checked={props.value === value}
              disabled={props.disabled?.[value]}
              aria-describedby={props.hints?.[value] ? hintId : undefined}
              onChange={() => props.onChange(value)}
            />
            <span>
              {props.words[value] ?? value}
              {props.hints?.[value] && (
                <span class="hint" id={hintId}>
                  {" "}
                  {props.hints[value]}
                </span>
              )}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}

/**
 * The status form: the moves the case allows as radio buttons; for a contact how it went,
 * for a closing why and whether the student needed support (decisions §19); and the internal
 * note. The typed note stays until the server has stored the change, so a refusal or a lost
 * connection loses nothing; a refusal (409: someone else changed the case meanwhile, another
 * open case) shows the server's words and asks the page to load the case again. The page
 * shows the success, since closing a case from the student's page takes the form away.
 */
export function StatusForm(props: {
  kasus: Pick<TindakLanjutCase, "id" | "status" | "percobaan_kontak">;
  /** The card's heading, at the level the page needs. */
  heading: ComponentChildren;
  onSubmit: () => void;
  onChanged: (updated: TindakLanjutDetail) => void;
  onRefused: () => void;
}) {
  const choices = allowedMoves[props.kasus.status];
  const [picked, setPicked] = useState<CaseStatus | null>(null);
  const choice = picked && choices.includes(picked) ? picked : null;
  const [details, setDetails] = useState<MoveDetails>({ outcome: null, closing: null, support: null });
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [problems, setProblems] = useState<Record<string, string | null>>({});
  const firstChoice = useRef<HTMLInputElement>(null);
  const firstOutcome = useRef<HTMLInputElement>(null);
  const firstClosing = useRef<HTMLInputElement>(null);
  const firstSupport = useRef<HTMLInputElement>(null);
  const note = useRef<HTMLTextAreaElement>(null);
  // Characters as the server counts them (code points), not UTF-16 units.
  const length = Array.from(draft.trim()).length;
  const formId = `status-${props.kasus.id}`;
  const attempts = props.kasus.percobaan_kontak;
  const tooFewAttempts = attempts < attemptsBeforeNoResponse;

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    props.onSubmit();
    const found: Record<string, string | null> = {
      choice: choice ? null : text.chooseStatus,
      outcome: choice === "dihubungi" && !details.outcome ? text.chooseOutcome : null,
      closing: choice === "selesai" && !details.closing ? text.chooseClosing : choice === "selesai" && details.closing === "tidak_merespons" && tooFewAttempts ? text.noResponseTooSoon(attempts) : null,
      support: choice === "selesai" && !details.support ? text.chooseSupport : null,
      note: length === 0 ? text.noteEmpty : length > caseNoteMaxLength ? text.noteTooLong : null,
    };
    setProblems(found);
    const order: [string, { current: HTMLElement | null }][] = [
      ["choice", firstChoice],
      ["outcome", firstOutcome],
      ["closing", firstClosing],
      ["support", firstSupport],
      ["note", note],
    ];
    const problem = order.find(([key]) => found[key]);
    if (problem) {
      problem[1].current?.focus();
      return;
    }
    setBusy(true);
    try {
      const body = {
        status: choice,
        catatan: draft.trim(),
        ...(choice === "dihubungi" ? { hasil_kontak: details.outcome } : {}),
        ...(choice === "selesai" ? { alasan_selesai: details.closing, perlu_dukungan: details.support } : {}),
      };
      const updated = await api.post<TindakLanjutDetail>(`/api/dosen/tindak-lanjut/${props.kasus.id}/status`, body);
      setDraft("");
      setPicked(null);
      setDetails({ outcome: null, closing: null, support: null });
      props.onChanged(updated);
    } catch (caught) {
      setError(caught);
      if (caught instanceof ApiError && caught.status === 409) props.onRefused();
    } finally {
      setBusy(false);
    }
  }

  const clear = (key: string) => setProblems({ ...problems, [key]: null });
  // dihubungi → dihubungi is one more attempt, in words of its own.
  const moveWords = { ...text.move, ...(props.kasus.status === "dihubungi" ? { dihubungi: text.moveAgain } : {}) };
  return (
    <div class="card">
      {props.heading}
      {error !== null && <ErrorNotice error={error} />}
      <form class="form" onSubmit={submit} noValidate>
        <Choices
          name={formId}
          legend={text.formChoice}
          values={choices}
          words={moveWords}
          value={choice}
          error={problems.choice ?? null}
          firstRef={firstChoice}
          onChange={(status) => {
            setPicked(status);
            clear("choice");
          }}
        />
        {choice === "dihubungi" && (
          <Choices
            name={`${formId}-hasil`}
            legend={text.outcomeLegend}
            values={contactOutcomes}
            words={text.outcome}
            value={details.outcome}
            error={problems.outcome ?? null}
            firstRef={firstOutcome}
            onChange={(outcome) => {
              setDetails({ ...details, outcome });
              clear("outcome");
            }}
          />
        )}
        {choice === "selesai" && (
          <>
            <Choices
              name={`${formId}-alasan`}
              legend={text.closingLegend}
              values={closingReasons}
              words={text.closing}
              value={details.closing}
              error={problems.closing ?? null}
              firstRef={firstClosing}
              hints={{ tidak_merespons: tooFewAttempts ? text.noResponseHint(attempts) : undefined, lainnya: text.otherHint }}
              disabled={{ tidak_merespons: tooFewAttempts }}
              onChange={(closing) => {
                setDetails({ ...details, closing });
                clear("closing");
              }}
            />
            <Choices
              name={`${formId}-dukungan`}
              legend={text.supportLegend}
              values={supportJudgements}
              words={text.support}
              value={details.support}
              error={problems.support ?? null}
              firstRef={firstSupport}
              onChange={(support) => {
                setDetails({ ...details, support });
                clear("support");
              }}
            />
          </>
        )}
        <Field label={text.formNote} hint={text.formNoteHint(length)} error={problems.note ?? null}>
          {({ id, describedBy, invalid }) => (
            <textarea
              ref={note}
              id={id}
              name="catatan"
              value={draft}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              onInput={(event) => {
                setDraft(event.currentTarget.value);
                if (problems.note) clear("note");
              }}
            />
          )}
        </Field>
        <div class="button-row">
          <Button type="submit" busy={busy}>
            {busy ? text.formSubmitting : text.formSubmit}
          </Button>
        </div>
      </form>
    </div>
  );
}
