import { useState } from "preact/hooks";
import { request } from "../api";
import { Button, ErrorNotice, Field, Notice, Page } from "../components/ui";
import { pathOf } from "../routes";
import { activation, signIn } from "../strings";

/** Aktivasi: the one-time activation of a pre-created account (interface: activation rules). */
export function Activation() {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await request<{ user: { nama: string } }>("POST", "/api/auth/activation", { json: { username, password }, authenticated: false });
      setDone(answer.user.nama);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Page title={activation.title}>
      <p>{activation.intro}</p>
      {error !== null && <ErrorNotice error={error} />}
      {done !== null ? (
        <Notice kind="success">
          <p>{activation.done(done)}</p>
          <p>
            <a href={pathOf("masuk")}>{activation.toSignIn}</a>
          </p>
        </Notice>
      ) : (
        <form class="form narrow" onSubmit={submit} noValidate>
          <Field label={signIn.username}>
            {({ id }) => <input id={id} name="username" autocomplete="username" required value={username} onInput={(event) => setUsername(event.currentTarget.value)} />}
          </Field>
          <Field label={signIn.password}>
            {({ id }) => (
              <input id={id} name="password" type="password" autocomplete="current-password" required value={password} onInput={(event) => setPassword(event.currentTarget.value)} />
            )}
          </Field>
          <Button type="submit" busy={busy}>
            {busy ? activation.submitting : activation.submit}
          </Button>
        </form>
      )}
      <p class="aside">
        <a href={pathOf("masuk")}>{activation.toSignIn}</a>
      </p>
    </Page>
  );
}
