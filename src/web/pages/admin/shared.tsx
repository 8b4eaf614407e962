// What the console's pages share: the frame with the console's own menu, the password
// confirmation before a destructive act, downloads, and the answers' types.
import type { ComponentChildren } from "preact";
import type { Static } from "elysia";
import { useEffect, useId, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError, request, saveDownload } from "../../api";
import { Button, ErrorNotice, Field, Page } from "../../components/ui";
import { pathOf, type PageName } from "../../routes";
import { admin } from "../../strings/admin";
import { common } from "../../strings";
import type * as answers from "../../../modules/admin/model";

export type AccountPage = Static<typeof answers.AccountPage>;
export type AccountItem = AccountPage["data"][number];
export type ImportPreview = Static<typeof answers.ImportPreview>;
export type ImportAnswer = Static<typeof answers.ImportAnswer>;
export type BackupsAnswer = Static<typeof answers.BackupsAnswer>;
export type CertificateAnswer = Static<typeof answers.CertificateAnswer>;
export type AuditPage = Static<typeof answers.AuditPage>;
export type AuditVerdict = Static<typeof answers.AuditVerdict>;
export type StudentRequest = Static<typeof answers.StudentRequest>;
export type Erased = Static<typeof answers.Erased>;
export type ModelItem = Static<typeof answers.ModelItem>;
export type ModelTry = Static<typeof answers.ModelTry>;
export type TextsAnswer = Static<typeof answers.TextsAnswer>;
export type FacultyStatistics = Static<typeof answers.FacultyStatistics>;
export type WeeklyReport = Static<typeof answers.WeeklyReportAnswer>;
export type ValidationAnswer = Static<typeof answers.ValidationAnswer>;

const consolePages: PageName[] = ["adminAkun", "adminCadangan", "adminSertifikat", "adminJejak", "adminDataPribadi", "adminModel", "adminTeks", "adminStatistik"];

/** A console page: its title, the console's own menu (the page named `current` marked), what it is for. */
export function ConsolePage(props: { current: PageName; intro: string; children: ComponentChildren }) {
  const title = admin.nav[props.current as keyof typeof admin.nav];
  return (
    <Page title={title}>
      <div class="console">
        <nav class="console-nav" aria-label={admin.nav.label}>
          <ul>
            {consolePages.map((name) => (
              <li key={name}>
                <a href={pathOf(name)} aria-current={name === props.current ? "page" : undefined}>
                  {admin.nav[name as keyof typeof admin.nav]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <p class="aside">{props.intro}</p>
        {props.children}
      </div>
    </Page>
  );
}

/**
 * A filter form follows the URL when Back or a link changes it, never on its first
 * showing: what the admin has begun to type stays.
 */
export function useFollowUrl(key: string, follow: () => void): void {
  const shown = useRef(key);
  useEffect(() => {
    if (shown.current === key) return;
    shown.current = key;
    follow();
  }, [key]);
}

/** The command that does the same on the PC, for whoever prefers it or scripts it. */
export function CommandHint(props: { command: string }) {
  return (
    <p class="command-hint">
      {admin.commandLine} <code>{props.command}</code>
    </p>
  );
}

/** Whether the server refused an act for want of a confirmation of it (a page that did not ask, a race with another change). */
export const needsConfirmation = (error: unknown) => error instanceof ApiError && error.status === 403 && error.body.konfirmasi_diperlukan === true;

/**
 * An act that can give access, asked for in the page (decisions §21): the question, the
 * admin's password, and the act itself (`method` on `path`) with the confirmation the
 * password gave for that act alone: it serves no other act and only once, so every act
 * asks again. `ready` holds the button back until the page's own condition (the NIM typed
 * again) is met.
 */
export function ConfirmAct(props: {
  question: string;
  yes: string;
  method: "POST" | "PUT" | "DELETE";
  path: string;
  act: (headers: Record<string, string>) => Promise<void>;
  onCancel: () => void;
  ready?: boolean;
  children?: ComponentChildren;
}) {
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const questionId = useId();
  const first = useRef<HTMLFormElement>(null);
  // The first field of the question, or its safe answer, takes the focus, in the render that
  // shows them: a focus moved a task later took it from a field the user had already chosen,
  // and what they typed next went into the first field.
  useLayoutEffect(() => first.current?.querySelector<HTMLElement>("input, button.button-secondary")?.focus(), []);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const given = await request<{ konfirmasi: string }>("POST", "/api/admin/konfirmasi", { json: { password, tindakan: `${props.method} ${props.path}` }, checksPassword: true });
      await props.act({ "x-konfirmasi": given.konfirmasi });
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <form class="confirm" ref={first} role="group" aria-labelledby={questionId} onSubmit={submit} noValidate>
      <p id={questionId}>{props.question}</p>
      {props.children}
      <Field label={admin.confirm.password} hint={admin.confirm.passwordHint}>
        {({ id, describedBy }) => (
          <input id={id} type="password" autocomplete="current-password" value={password} aria-describedby={describedBy} onInput={(event) => setPassword(event.currentTarget.value)} />
        )}
      </Field>
      {error !== null && <ErrorNotice error={error} />}
      <div class="button-row">
        <Button type="submit" variant="danger" busy={busy} disabled={props.ready === false || password === ""}>
          {busy ? admin.confirm.busy : props.yes}
        </Button>
        <Button variant="secondary" onClick={props.onCancel}>
          {common.cancel}
        </Button>
      </div>
    </form>
  );
}

/** A button that fetches a file from the console and saves it; what happened is said beside it. */
export function DownloadButton(props: { path: string; label: string; describedBy?: string; variant?: "primary" | "secondary" }) {
  const [state, setState] = useState<{ busy?: boolean; done?: string; error?: unknown }>({});
  return (
    <div class="download-action">
      <Button
        variant={props.variant ?? "secondary"}
        busy={state.busy}
        aria-describedby={props.describedBy}
        onClick={async () => {
          setState({ busy: true });
          try {
            setState({ done: await saveDownload(props.path) });
          } catch (error) {
            setState({ error });
          }
        }}
      >
        {state.busy ? admin.download.busy : props.label}
      </Button>
      {state.done && (
        <p role="status" class="aside">
          {admin.download.done(state.done)}
        </p>
      )}
      {state.error !== undefined && <ErrorNotice error={state.error} />}
    </div>
  );
}

/** A labelled choice among fixed values (`options`: value → words); `any` adds an empty first choice. */
export function SelectField(props: { label: string; value: string; options: Record<string, string>; onChange: (value: string) => void; any?: string }) {
  return (
    <Field label={props.label}>
      {({ id }) => (
        <select id={id} value={props.value} onChange={(event) => props.onChange(event.currentTarget.value)}>
          {props.any !== undefined && <option value="">{props.any}</option>}
          {Object.entries(props.options).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export type UploadLimits = Static<typeof answers.UploadLimits>;

/** The largest files the console reads (`SKRINING_ROSTER_LIMIT`, `SKRINING_MODEL_LIMIT`), for the forms' hints. */
export const uploadLimits = () => request<UploadLimits>("GET", "/api/admin/batas");

/** `5 MB` from a byte count, as the limits are named. */


/** A multipart form of a file and text fields, for the console's uploads. */
export function formOf(file: File | null, fields: Record<string, string>): FormData {
  const data = new FormData();
  if (file) data.append("berkas", file, file.name);
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}
