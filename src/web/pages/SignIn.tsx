import { useState } from "preact/hooks";
import { ApiError } from "../api";
import { PasswordField } from "../components/password-fields";
import { Button, describeError, ErrorNotice, Field, Notice, Page } from "../components/ui";
import { navigate } from "../router";
import { pathOf } from "../routes";
import { signIn as startSession } from "../session";
import { signIn } from "../strings";

/** The interface's answer to signing in before the activation (its error table): the way on is the activation page. */
const notActivatedAnswer = "Akun belum diaktivasi. Silakan aktivasi terlebih dahulu.";

/** Masuk: username and password; a 429 says when to try again; an account not yet activated is offered its activation. */
export function SignIn(props: { notice?: string; returnTo: string | null }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await startSession(username, password, undefined, remember);
      // Without a page to return to, the shell sends each account to its own first page (app.tsx homeOf).
      navigate(props.returnTo ?? pathOf("beranda"), { replace: true });
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <Page title={signIn.title}>
      <p>{signIn.intro}</p>
      {props.notice && <Notice kind="info">{props.notice}</Notice>}
      {error instanceof ApiError && error.status === 403 && error.message === notActivatedAnswer ? (
        <Notice kind="error">
          <p>{describeError(error)}</p>
          <p>
            <a class="button button-primary" href={pathOf("aktivasi")}>
              {signIn.activateNow}
            </a>
          </p>
        </Notice>
      ) : (
        error !== null && <ErrorNotice error={error} />
      )}
      <form class="form narrow" onSubmit={submit} noValidate>
        <Field label={signIn.username}>
          {({ id, describedBy }) => (
            <input id={id} name="username" autocomplete="username" required value={username} aria-describedby={describedBy} onInput={(event) => setUsername(event.currentTarget.value)} />
          )}
        </Field>
        <PasswordField label={signIn.password} name="password" autocomplete="current-password" required value={password} onInput={setPassword} />
        <div class="field">
          <label class="choice">
            <input type="checkbox" name="ingat" checked={remember} aria-describedby="ingat-petunjuk" onChange={(event) => setRemember(event.currentTarget.checked)} />
            <span>{signIn.remember}</span>
          </label>
          <p class="hint" id="ingat-petunjuk">
            {signIn.rememberHint}
          </p>
        </div>
        <Button type="submit" busy={busy}>
          {busy ? signIn.submitting : signIn.submit}
        </Button>
      </form>
      <p class="aside">
        {signIn.notActivatedHint} <a href={pathOf("aktivasi")}>{signIn.toActivation}</a>
      </p>
    </Page>
  );
}
