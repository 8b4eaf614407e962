import { useState } from "preact/hooks";
import { request } from "../api";
import { NewPasswordFields, PasswordField, useNewPassword } from "../components/password-fields";
import { Button, ErrorNotice, Field, Loading, Notice, Page } from "../components/ui";
import { useResource } from "../hooks";
import { pathOf } from "../routes";
import { privacyNoticePath, signIn as startSession } from "../session";
import { activation, privacy, signIn } from "../strings";
import type { PrivacyNotice } from "../types";
import { NoticeText } from "./privasi/Notice";

/**
 * Aktivasi: the one-time activation of a pre-created account (interface: activation rules),
 * under the privacy notice: activating is acknowledging it. The faculty's initial password
 * (often guessable) is replaced in the same step (decisions §14); the student is then
 * signed in with the new one, and the acknowledgement recorded before the first page.
 */
export function Activation() {
  const notice = useResource(() => request<PrivacyNotice>("GET", privacyNoticePath, { authenticated: false }));
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const newPassword = useNewPassword();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    // The server checks the same rule; asking here first spares a round trip and keeps the focus.
    if (!newPassword.check(password, activation.sameAsInitial)) return;
    setBusy(true);
    try {
      const answer = await request<{ user: { nama: string } }>("POST", "/api/auth/activation", {
        json: { username, password, password_baru: newPassword.newPassword },
        authenticated: false,
      });
      try {
        // Signing in leaves this page; the notice is recorded only when it was shown.
        await startSession(username, newPassword.newPassword, notice.data?.version);
      } catch {
        // Activated, but not signed in (the network, the sign-in limit): the sign-in page asks again.
        setDone(answer.user.nama);
      }
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Page title={activation.title}>
      <p>{activation.intro}</p>
      {notice.data ? (
        <NoticeText notice={notice.data} headingId="aktivasi-privasi" />
      ) : notice.error ? (
        <Notice kind="warning">
          <p>{privacy.activation.noticeUnavailable}</p>
        </Notice>
      ) : (
        <Loading />
      )}
      {error !== null && <ErrorNotice error={error} />}
      {done !== null ? (
        <Notice kind="success">
          <p>{activation.done(done)}</p>
          <p>
            <a href={pathOf("masuk")}>{activation.toSignIn}</a>
          </p>
        </Notice>
      ) : (
        <section aria-labelledby="aktivasi-form">
          <h2 id="aktivasi-form">{privacy.activation.formTitle}</h2>
          <form class="form narrow" onSubmit={submit} noValidate>
            <Field label={signIn.username}>
              {({ id }) => <input id={id} name="username" autocomplete="username" required value={username} onInput={(event) => setUsername(event.currentTarget.value)} />}
            </Field>
            <PasswordField
              label={activation.initialPassword}
              hint={activation.initialPasswordHint}
              name="password"
              autocomplete="current-password"
              required
              value={password}
              onInput={setPassword}
            />
            <NewPasswordFields
              state={newPassword}
              labels={{ newPassword: activation.newPassword, newPasswordHint: activation.newPasswordHint, repeat: activation.repeatPassword }}
              names={{ newPassword: "password_baru", repeat: "ulangi_password_baru" }}
              required
            />
            {notice.data && <p class="hint">{privacy.activation.consent(notice.data.version)}</p>}
            <Button type="submit" busy={busy} disabled={notice.loading && !notice.data}>
              {busy ? activation.submitting : notice.data ? privacy.activation.submit : activation.submit}
            </Button>
          </form>
        </section>
      )}
      <p class="aside">
        <a href={pathOf("masuk")}>{activation.toSignIn}</a>
      </p>
    </Page>
  );
}
