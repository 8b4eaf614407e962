// A follow-up case's status, handler and reasons in words, and the status form: what the
// list of cases, the case page and the student's page share (their shapes: ../../types.ts).
import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import { ApiError, api } from "../../api";
import { Button, ErrorNotice, Field } from "../../components/ui";
import { staff } from "../../strings";
import type { CaseStatus, FollowUpCase, FollowUpDetail } from "../../types";
import { overdueDays } from "../../../modules/tindak-lanjut/figures";
import { allowedMoves, caseNoteMaxLength } from "../../../modules/tindak-lanjut/moves";

const text = staff.followUp;

export const isOpen = (kasus: Pick<FollowUpCase, "status">) => kasus.status !== "selesai";

/**
 * Open longer than a week, the faculty's line for a case that needs a push: the figures count
 * a case opened more than 7 days ago, which is 7 whole days of `hari_terbuka` or more.
 */
export const isOld = (kasus: Pick<FollowUpCase, "status" | "hari_terbuka">) => isOpen(kasus) && kasus.hari_terbuka >= overdueDays;

export const statusWord = (status: string) => text.status[status] ?? status;

/** Who handles the case, in words: its handler's name, or the admins when it has none. */
export const handlerName = (kasus: Pick<FollowUpCase, "nama_dosen" | "NIP">) => kasus.nama_dosen || kasus.NIP || text.noOwner;

export const reasonWords = (kasus: Pick<FollowUpCase, "alasan">) => kasus.alasan.map((reason) => text.reason[reason] ?? reason);

/** A case's status as a badge: a new case in the danger colour, one under way in the warning colour, a closed one plain; the word says which. */
export function StatusBadge(props: { status: string }) {
  return <span class={`badge ${props.status === "selesai" ? "badge-neutral" : props.status === "baru" ? "badge-danger" : "badge-warning"}`}>{statusWord(props.status)}</span>;
}

/**
 * The status form: the moves the case allows as radio buttons and the internal note. The typed
 * note stays until the server has stored the change, so a refusal or a lost connection loses
 * nothing; a refusal (409: someone else changed the case meanwhile, another open case) shows
 * the server's words and asks the page to load the case again. The page shows the success,
 * since closing a case from the student's page takes the form away.
 */
export function StatusForm(props: {
  kasus: Pick<FollowUpCase, "id" | "status">;
  /** The card's heading, at the level the page needs. */
  heading: ComponentChildren;
  onSubmit: () => void;
  onChanged: (updated: FollowUpDetail) => void;
  onRefused: () => void;
}) {
  const choices = allowedMoves[props.kasus.status];
  const [picked, setPicked] = useState<CaseStatus | null>(null);
  const choice = picked && choices.includes(picked) ? picked : null;
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [choiceError, setChoiceError] = useState<string | null>(null);
  const [noteError, setNoteError] = useState<string | null>(null);
  const firstChoice = useRef<HTMLInputElement>(null);
  const note = useRef<HTMLTextAreaElement>(null);
  // Characters as the server counts them (code points), not UTF-16 units.
  const length = Array.from(draft.trim()).length;
  const formId = `status-${props.kasus.id}`;

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    props.onSubmit();
    const missingChoice = choice ? null : text.chooseStatus;
    const badNote = length === 0 ? text.noteEmpty : length > caseNoteMaxLength ? text.noteTooLong : null;
    setChoiceError(missingChoice);
    setNoteError(badNote);
    if (missingChoice) firstChoice.current?.focus();
    else if (badNote) note.current?.focus();
    if (missingChoice || badNote) return;
    setBusy(true);
    try {
      const updated = await api.post<FollowUpDetail>(`/api/dosen/tindak-lanjut/${props.kasus.id}/status`, { status: choice, catatan: draft.trim() });
      setDraft("");
      setPicked(null);
      props.onChanged(updated);
    } catch (caught) {
      setError(caught);
      if (caught instanceof ApiError && caught.status === 409) props.onRefused();
    } finally {
      setBusy(false);
    }
  }

  const choiceErrorId = `${formId}-pilihan-error`;
  return (
    <div class="card">
      {props.heading}
      {error !== null && <ErrorNotice error={error} />}
      <form class="form" onSubmit={submit} noValidate>
        <fieldset class={`status-choices${choiceError ? " status-choices-invalid" : ""}`} aria-describedby={choiceError ? choiceErrorId : undefined}>
          <legend>{text.formChoice}</legend>
          {choiceError && (
            <p class="field-error" id={choiceErrorId}>
              {choiceError}
            </p>
          )}
          {choices.map((status, index) => (
            <label class="choice" key={status}>
              <input
                ref={index === 0 ? firstChoice : undefined}
                type="radio"
                name={formId}
                value={status}
                checked={choice === status}
                onChange={() => {
                  setPicked(status);
                  setChoiceError(null);
                }}
              />
              <span>{text.move[status]}</span>
            </label>
          ))}
        </fieldset>
        <Field label={text.formNote} hint={text.formNoteHint(length)} error={noteError}>
          {({ id, describedBy, invalid }) => (
            <textarea
              ref={note}
              id={id}
              name="catatan"
              value={draft}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              onInput={(event) => setDraft(event.currentTarget.value)}
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
