import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { PageProps } from "../../types";
import { api } from "../../api";
import { Button, Confirm, ErrorNotice, Field, Loading, Page } from "../../components/ui";
import { formatDay, todayLocal } from "../../format";
import { useResource } from "../../hooks";
import { common, student } from "../../strings";
import type { Diary } from "../../types";
import { useContactState } from "./contact";
import { OutcomeNotice, useAction } from "../../components/outcome";
import { characters, draftKey, focusSoon, nimPath, readDraft, removeDraft, writeDraft } from "./shared";

const text = student.jurnal;
/** The server's limits (decisions §4), counted here too so that the student sees them while writing. */
const titleMax = 200;
const contentMax = 20000;
/** Longer entries are shortened in the list until opened. */
const excerptLength = 400;

interface DiaryText {
  date: string;
  title: string;
  content: string;
  /** Decisions §19: shared with the advisor; off unless the student ticks it. */
  dibagikan: boolean;
}

/** What is being written: a new entry, and at most one entry being changed. */
interface Drafts {
  new: DiaryText;
  edit: (DiaryText & { id: number }) | null;
}

const emptyText = (): DiaryText => ({ date: todayLocal(), title: "", content: "", dibagikan: false });

function readText(value: unknown): DiaryText | null {
  const saved = value as Partial<Record<keyof DiaryText, unknown>> | null;
  if (!saved || typeof saved.date !== "string" || typeof saved.title !== "string" || typeof saved.content !== "string") return null;
  return { date: saved.date, title: saved.title, content: saved.content, dibagikan: saved.dibagikan === true };
}

function restore(saved: Record<string, unknown> | null): Drafts {
  const edit = readText(saved?.edit);
  const id = (saved?.edit as { id?: unknown } | null)?.id;
  return { new: readText(saved?.new) ?? emptyText(), edit: edit && typeof id === "number" ? { ...edit, id } : null };
}

/** Jurnal: the student's own diary; write, change, delete. What is being written survives a reload and a lost connection. */
export function Jurnal({ user }: PageProps) {
  const key = draftKey("jurnal", user);
  const entries = useResource(() => api.get<Diary[]>(`/api/mahasiswa/diary/${nimPath(user)}`), [user.NIM]);
  const contact = useContactState(user);
  const [drafts, setDrafts] = useState(() => restore(readDraft(key)));
  const [deleting, setDeleting] = useState<number | null>(null);
  const [expanded, setExpanded] = useState<readonly number[]>([]);
  const listAction = useAction();

  function keep(next: Drafts) {
    setDrafts(next);
    if (next.edit || next.new.title.trim() || next.new.content.trim()) writeDraft(key, next);
    else removeDraft(key);
  }

  function remove(entry: Diary) {
    void listAction.run(async () => {
      await api.delete(`/api/mahasiswa/diary/${entry.id}`);
      setDeleting(null);
      if (drafts.edit?.id === entry.id) keep({ ...drafts, edit: null });
      entries.reload();
      return text.deleted(entry.title || text.untitled);
    });
  }

  return (
    <Page title={student.nav.jurnal}>
      <p>{text.intro}</p>
      <p class="readers">{text.readers(contact.data?.dosen_wali?.nama ?? null)}</p>
      <section aria-labelledby="jurnal-tulis">
        <h2 id="jurnal-tulis">{text.writeTitle}</h2>
        <DiaryForm
          name="jurnal-baru"
          value={drafts.new}
          onChange={(value) => keep({ ...drafts, new: value })}
          submitLabel={text.save}
          onSubmit={async () => {
            await api.post<Diary>("/api/mahasiswa/diary", drafts.new);
            keep({ ...drafts, new: emptyText() });
            entries.reload();
            return text.created;
          }}
        />
      </section>
      <section aria-labelledby="jurnal-daftar">
        <h2 id="jurnal-daftar">{text.listTitle}</h2>
        <OutcomeNotice outcome={listAction.outcome} />
        {entries.error ? (
          <ErrorNotice error={entries.error} onRetry={entries.reload} />
        ) : !entries.data ? (
          <Loading />
        ) : entries.data.length === 0 ? (
          <p>{text.empty}</p>
        ) : (
          <ul class="entry-list">
            {entries.data.map((entry) => {
              const title = entry.title || text.untitled;
              const edit = drafts.edit?.id === entry.id ? drafts.edit : null;
              const open = expanded.includes(entry.id);
              const long = entry.content.length > excerptLength;
              return (
                <li key={entry.id} class="entry">
                  {edit ? (
                    <>
                      <h3>{text.editTitle(title)}</h3>
                      <DiaryForm
                        name={`jurnal-${entry.id}`}
                        value={edit}
                        focusFirst
                        onChange={(value) => keep({ ...drafts, edit: { ...value, id: entry.id } })}
                        submitLabel={text.saveChanges}
                        onSubmit={async () => {
                          await api.put<Diary>(`/api/mahasiswa/diary/${entry.id}`, { date: edit.date, title: edit.title, content: edit.content, dibagikan: edit.dibagikan });
                          keep({ ...drafts, edit: null });
                          entries.reload();
                          listAction.setOutcome({ kind: "success", text: text.updated });
                          return null;
                        }}
                        onCancel={() => {
                          keep({ ...drafts, edit: null });
                          focusSoon(`jurnal-ubah-${entry.id}`);
                        }}
                      />
                    </>
                  ) : (
                    <article aria-labelledby={`jurnal-judul-${entry.id}`}>
                      <h3 id={`jurnal-judul-${entry.id}`}>{title}</h3>
                      <p class="entry-date">
                        {formatDay(entry.date)} <span class={`badge ${entry.dibagikan ? "badge-info" : "badge-neutral"}`}>{entry.dibagikan ? text.shared : text.private}</span>
                      </p>
                      <p class="entry-content" id={`jurnal-isi-${entry.id}`}>
                        {long && !open ? `${entry.content.slice(0, excerptLength)}…` : entry.content}
                      </p>
                      {long && (
                        <Button
                          variant="link"
                          aria-expanded={open}
                          aria-controls={`jurnal-isi-${entry.id}`}
                          onClick={() => setExpanded(open ? expanded.filter((id) => id !== entry.id) : [...expanded, entry.id])}
                        >
                          {open ? text.less : text.more}
                        </Button>
                      )}
                      {deleting === entry.id ? (
                        <Confirm
                          yes={student.confirmYes}
                          id={`jurnal-hapus-${entry.id}`}
                          question={text.deleteQuestion(title)}
                          busy={listAction.busy}
                          onYes={() => remove(entry)}
                          onNo={() => {
                            setDeleting(null);
                            focusSoon(`jurnal-hapus-${entry.id}`);
                          }}
                        />
                      ) : (
                        <div class="button-row">
                          <Button
                            variant="secondary"
                            id={`jurnal-ubah-${entry.id}`}
                            aria-label={text.editLabel(title)}
                            onClick={() => keep({ ...drafts, edit: { id: entry.id, date: entry.date, title: entry.title, content: entry.content, dibagikan: entry.dibagikan } })}
                          >
                            {common.edit}
                          </Button>
                          <Button variant="danger" id={`jurnal-hapus-${entry.id}`} aria-label={text.deleteLabel(title)} onClick={() => setDeleting(entry.id)}>
                            {common.delete}
                          </Button>
                        </div>
                      )}
                    </article>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </Page>
  );
}

/**
 * Date, title and text with their character counts. The text lives in the page's drafts,
 * so a failed request changes nothing of it.
 */
function DiaryForm(props: {
  name: string;
  value: DiaryText;
  onChange: (value: DiaryText) => void;
  submitLabel: string;
  onSubmit: () => Promise<string | null>;
  onCancel?: () => void;
  focusFirst?: boolean;
}) {
  const { value } = props;
  const action = useAction();
  const [checked, setChecked] = useState(false);
  const dateInput = useRef<HTMLInputElement>(null);
  const titleInput = useRef<HTMLInputElement>(null);
  const contentInput = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    if (props.focusFirst) dateInput.current?.focus();
  }, []);

  const titleCount = characters(value.title);
  const contentCount = characters(value.content);
  const titleError = titleCount > titleMax ? student.tooLong(titleMax) : null;
  const contentError = contentCount > contentMax ? student.tooLong(contentMax) : checked && !value.content.trim() ? text.contentRequired : null;

  function submit(event: Event) {
    event.preventDefault();
    action.setOutcome(null);
    setChecked(true);
    if (titleError) return titleInput.current?.focus();
    if (contentError || !value.content.trim()) return contentInput.current?.focus();
    void action.run(props.onSubmit).then((saved) => saved && setChecked(false));
  }

  const set = (change: Partial<DiaryText>) => props.onChange({ ...value, ...change });
  return (
    <form class="form" onSubmit={submit} noValidate>
      <Field label={text.date}>
        {({ id }) => <input id={id} ref={dateInput} class="date-input" name={`${props.name}-tanggal`} type="date" required value={value.date} onInput={(event) => set({ date: event.currentTarget.value })} />}
      </Field>
      <Field label={text.entryTitle} hint={student.charCount(titleCount, titleMax)} error={titleError}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            ref={titleInput}
            name={`${props.name}-judul`}
            value={value.title}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            onInput={(event) => set({ title: event.currentTarget.value })}
          />
        )}
      </Field>
      <Field label={text.content} hint={student.charCount(contentCount, contentMax)} error={contentError}>
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            ref={contentInput}
            name={`${props.name}-isi`}
            rows={8}
            required
            value={value.content}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            onInput={(event) => set({ content: event.currentTarget.value })}
          />
        )}
      </Field>
      <div class="field">
        <label class="choice">
          <input
            type="checkbox"
            name={`${props.name}-bagikan`}
            checked={value.dibagikan}
            aria-describedby={`${props.name}-bagikan-hint`}
            onChange={(event) => set({ dibagikan: event.currentTarget.checked })}
          />
          <span>{text.share}</span>
        </label>
        <p class="hint" id={`${props.name}-bagikan-hint`}>
          {text.shareHint}
        </p>
      </div>
      <p class="hint">{text.draftNote}</p>
      <OutcomeNotice outcome={action.outcome} />
      <div class="button-row">
        <Button type="submit" busy={action.busy}>
          {action.busy ? common.saving : props.submitLabel}
        </Button>
        {props.onCancel && (
          <Button variant="secondary" onClick={props.onCancel}>
            {common.cancel}
          </Button>
        )}
      </div>
    </form>
  );
}
