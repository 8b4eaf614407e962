import { useRef, useState } from "preact/hooks";
import { Button, ErrorNotice, Field, Page } from "../components/ui";
import { replaceOneTimePassword, type PasswordGate } from "../session";
import { activation, passwordChange } from "../strings";

/**
 * Before any page: an account signed in with a one-time password an admin set replaces it
 * with its own (the login answer's `must_change_password`). The password typed at sign-in
 * is not asked again; after a reload it is.
 */
export function GantiPassword(props: { gate: NonNullable<PasswordGate> }) {
  const [temporary, setTemporary] = useState(props.gate.temporary ?? "");
  const [newPassword, setNewPassword] = useState("");
  const [repeated, setRepeated] = useState("");
  const [problem, setProblem] = useState<{ field: "new" | "repeat"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const newInput = useRef<HTMLInputElement>(null);
  const repeatInput = useRef<HTMLInputElement>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    const found = newPasswordProblem(newPassword, repeated, temporary);
    setProblem(found);
    if (found) return (found.field === "new" ? newInput : repeatInput).current?.focus();
    setBusy(true);
    try {
      await replaceOneTimePassword(temporary, newPassword);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <Page title={passwordChange.title}>
      <p>{passwordChange.intro}</p>
      {error !== null && <ErrorNotice error={error} />}
      <form class="form narrow" onSubmit={submit} noValidate>
        {props.gate.temporary === null && (
          <Field label={passwordChange.temporary}>
            {({ id }) => <input id={id} type="password" autocomplete="current-password" value={temporary} onInput={(event) => setTemporary(event.currentTarget.value)} />}
          </Field>
        )}
        <Field label={passwordChange.newPassword} hint={passwordChange.newPasswordHint} error={problem?.field === "new" ? problem.text : null}>
          {({ id, describedBy, invalid }) => (
            <input
              ref={newInput}
              id={id}
              type="password"
              autocomplete="new-password"
              value={newPassword}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              onInput={(event) => setNewPassword(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field label={passwordChange.repeat} error={problem?.field === "repeat" ? problem.text : null}>
          {({ id, describedBy, invalid }) => (
            <input
              ref={repeatInput}
              id={id}
              type="password"
              autocomplete="new-password"
              value={repeated}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              onInput={(event) => setRepeated(event.currentTarget.value)}
            />
          )}
        </Field>
        <Button type="submit" busy={busy}>
          {busy ? passwordChange.submitting : passwordChange.submit}
        </Button>
      </form>
    </Page>
  );
}

/** The password rule (decisions §10) as the form can see it, the repetition, and that it differs from the one-time password. */
function newPasswordProblem(newPassword: string, repeated: string, temporary: string): { field: "new" | "repeat"; text: string } | null {
  const bytes = new TextEncoder().encode(newPassword).length;
  if ([...newPassword].length < 8 || bytes > 72 || newPassword.trim() === "") return { field: "new", text: activation.passwordRule };
  if (newPassword === temporary) return { field: "new", text: passwordChange.same };
  if (newPassword !== repeated) return { field: "repeat", text: activation.mismatch };
  return null;
}
