import { useState } from "preact/hooks";
import { NewPasswordFields, PasswordField, useNewPassword } from "../components/password-fields";
import { Button, ErrorNotice, Page } from "../components/ui";
import { replaceOneTimePassword, type PasswordGate } from "../session";
import { passwordChange } from "../strings";

/**
 * Before any page: an account signed in with a one-time password an admin set replaces it
 * with its own (the login answer's `must_change_password`). The password typed at sign-in
 * is not asked again; after a reload it is.
 */
export function GantiPassword(props: { gate: NonNullable<PasswordGate> }) {
  const [temporary, setTemporary] = useState(props.gate.temporary ?? "");
  const newPassword = useNewPassword();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    if (!newPassword.check(temporary, passwordChange.same)) return;
    setBusy(true);
    try {
      await replaceOneTimePassword(temporary, newPassword.newPassword);
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
          <PasswordField label={passwordChange.temporary} autocomplete="current-password" value={temporary} onInput={setTemporary} />
        )}
        <NewPasswordFields state={newPassword} labels={{ newPassword: passwordChange.newPassword, newPasswordHint: passwordChange.newPasswordHint, repeat: passwordChange.repeat }} />
        <Button type="submit" busy={busy}>
          {busy ? passwordChange.submitting : passwordChange.submit}
        </Button>
      </form>
    </Page>
  );
}
