import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { PageProps } from "../../types";
import { api } from "../../api";
import { Button, ErrorNotice, Field, Loading, Page } from "../../components/ui";
import { formatDate, formatDateTime } from "../../format";
import { useResource } from "../../hooks";
import { common, student } from "../../strings";
import type { Catatan } from "../../types";
import { countUnreadNotes } from "../../unread-catatan";
import { OutcomeNotice, useAction } from "../../components/outcome";
import { characters, focusSoon } from "./shared";

const text = student.catatan;
/** The server's limit for a reply (decisions §4). */
const replyMax = 5000;

/** Catatan dosen: the lecturers' notes to the student (signed with their names), each answered once and the answer changed later. */
export function CatatanPage({ user }: PageProps) {
  const notes = useResource(() => api.get<Catatan[]>("/api/mahasiswa/catatan"), [user.NIM]);
  useMarkRead(notes.data, user.Id_User);
  const authorOf = (note: Catatan) => note.nama_dosen ?? text.lecturerNip(note.NIP);
  return (
    <Page title={student.nav.catatan}>
      <p>{text.intro}</p>
      {notes.error ? (
        <ErrorNotice error={notes.error} onRetry={notes.reload} />
      ) : !notes.data ? (
        <Loading />
      ) : notes.data.length === 0 ? (
        <p>{text.empty}</p>
      ) : (
        <ul class="entry-list">
          {notes.data.map((note) => (
            <li key={note.Id_catatan} class="entry">
              <NoteCard note={note} author={authorOf(note)} onChanged={notes.reload} />
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

/**
 * The notes shown in full are opened: each one not read before is opened through its
 * detail, which records the moment for the lecturer (decisions §13); the menu's count
 * follows. The page keeps showing them as new until it is loaded again.
 */
function useMarkRead(notes: readonly Catatan[] | undefined, user: number) {
  useEffect(() => {
    const unread = (notes ?? []).filter((note) => note.dibaca_mahasiswa_pada === null);
    if (unread.length === 0) return;
    void Promise.allSettled(unread.map((note) => api.get<Catatan>(`/api/mahasiswa/catatan/detail/${note.Id_catatan}`))).then(() => countUnreadNotes(user));
  }, [notes]);
}

function NoteCard(props: { note: Catatan; author: string; onChanged: () => void }) {
  const { note } = props;
  const replied = note.status === "sudah_dibalas";
  const [editing, setEditing] = useState(false);
  const [reply, setReply] = useState(note.reply);
  const [checked, setChecked] = useState(false);
  const action = useAction();
  const replyInput = useRef<HTMLTextAreaElement>(null);
  const id = `catatan-${note.Id_catatan}`;
  useLayoutEffect(() => {
    if (editing) replyInput.current?.focus();
  }, [editing]);

  const count = characters(reply);
  const error = count > replyMax ? student.tooLong(replyMax) : checked && !reply.trim() ? text.replyRequired : null;

  function submit(event: Event) {
    event.preventDefault();
    action.setOutcome(null);
    setChecked(true);
    if (error || !reply.trim()) return replyInput.current?.focus();
    void action.run(async () => {
      const path = `/api/mahasiswa/catatan/${note.Id_catatan}/reply`;
      // The reply stays in the field if this fails.
      const answer = replied ? await api.put<{ message: string }>(path, { reply }) : await api.post<{ message: string }>(path, { reply });
      setEditing(false);
      setChecked(false);
      props.onChanged();
      return answer.message;
    });
  }

  return (
    <article aria-labelledby={`${id}-judul`}>
      <h2 id={`${id}-judul`} class="note-title">
        {text.from(props.author, formatDate(note.tanggal_catat))}
      </h2>
      <p>
        {note.dibaca_mahasiswa_pada === null && <span class="status-tag status-new">{text.unread}</span>}{" "}
        <span class={`status-tag ${replied ? "status-done" : "status-open"}`}>{replied ? text.replied : text.notReplied}</span>
      </p>
      <p class="entry-content">{note.isi_catatan}</p>
      {replied && !editing ? (
        <div class="reply">
          <h3>{text.yourReply}</h3>
          <p class="entry-content">{note.reply}</p>
          {note.tanggal_reply && <p class="hint">{text.repliedOn(formatDateTime(note.tanggal_reply))}</p>}
          <OutcomeNotice outcome={action.outcome} />
          <Button
            variant="secondary"
            id={`${id}-ubah`}
            onClick={() => {
              setReply(note.reply);
              action.setOutcome(null);
              setEditing(true);
            }}
          >
            {text.editReply}
          </Button>
        </div>
      ) : (
        <form class="form" onSubmit={submit} noValidate>
          <Field label={text.yourReply} hint={student.charCount(count, replyMax)} error={error}>
            {({ id: fieldId, describedBy, invalid }) => (
              <textarea
                id={fieldId}
                ref={replyInput}
                rows={4}
                required
                value={reply}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                onInput={(event) => setReply(event.currentTarget.value)}
              />
            )}
          </Field>
          <OutcomeNotice outcome={action.outcome} />
          <div class="button-row">
            <Button type="submit" busy={action.busy}>
              {action.busy ? common.saving : replied ? text.saveReply : text.send}
            </Button>
            {editing && (
              <Button
                variant="secondary"
                onClick={() => {
                  setEditing(false);
                  setChecked(false);
                  focusSoon(`${id}-ubah`);
                }}
              >
                {common.cancel}
              </Button>
            )}
          </div>
        </form>
      )}
    </article>
  );
}
