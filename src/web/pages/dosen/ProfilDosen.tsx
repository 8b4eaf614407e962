import { useEffect, useRef, useState } from "preact/hooks";
import type { Static } from "elysia";
import type { PageProps } from "../../types";
import { api } from "../../api";
import { Button, ErrorNotice, Field, Loading, Notice, Page } from "../../components/ui";
import { useResource } from "../../hooks";
import { staff } from "../../strings";
import type { DosenProfil } from "../../../modules/dosen/model";
import { phoneNumberPattern } from "../../../konten/help-phone";
import { LecturersOnly, ResourceError } from "./shared";

const text = staff.profile;
type Profile = Static<typeof DosenProfil>;

/**
 * A lecturer's profile (decisions §19): their name as the roster has it, and the telephone
 * or WhatsApp number their advisees see beside "dosen wali Anda".
 */
export function ProfilDosen(props: PageProps) {
  const profile = useResource(() => (props.user.role === "dosen" ? api.get<Profile>("/api/dosen/profil") : Promise.resolve(null)), [props.user.Id_User]);
  if (props.user.role !== "dosen") return <LecturersOnly title={text.title} />;
  return (
    <Page title={text.title}>
      {profile.data ? <PhoneForm profile={profile.data} /> : profile.error !== undefined ? <ResourceError resource={profile} /> : <Loading />}
    </Page>
  );
}

function PhoneForm(props: { profile: Profile }) {
  const [draft, setDraft] = useState(props.profile.telepon ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setDraft(props.profile.telepon ?? ""), [props.profile.telepon]);

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    setSaved(null);
    const phone = draft.trim();
    const problem = phone !== "" && !phoneNumberPattern.test(phone) ? text.phoneInvalid : null;
    setFieldError(problem);
    if (problem) return input.current?.focus();
    setBusy(true);
    try {
      const answer = await api.put<{ message: string; data: Profile }>("/api/dosen/profil", { telepon: phone });
      setDraft(answer.data.telepon ?? "");
      setSaved(text.saved(answer.data.telepon));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="card" aria-labelledby="profil-dosen-judul">
      <h2 id="profil-dosen-judul" class="section-card-title">
        {props.profile.nama_dosen || props.profile.NIP}
      </h2>
      <dl class="student-facts">
        <div>
          <dt>{text.nip}</dt>
          <dd>{props.profile.NIP}</dd>
        </div>
        <div>
          <dt>{text.name}</dt>
          <dd>{props.profile.nama_dosen || "—"}</dd>
        </div>
      </dl>
      <p class="aside">{text.nameFromRoster}</p>
      {error !== null && <ErrorNotice error={error} />}
      {saved && <Notice kind="success">{saved}</Notice>}
      <form class="form" onSubmit={submit} noValidate>
        <Field label={text.phone} hint={text.phoneHint} error={fieldError}>
          {({ id, describedBy, invalid }) => (
            <input
              ref={input}
              id={id}
              name="telepon"
              type="tel"
              autocomplete="tel"
              value={draft}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              onInput={(event) => {
                setDraft(event.currentTarget.value);
                setSaved(null);
              }}
            />
          )}
        </Field>
        <div class="button-row">
          <Button type="submit" busy={busy}>
            {text.save}
          </Button>
        </div>
      </form>
    </section>
  );
}
