import { useEffect, useRef, useState } from "preact/hooks";
import type { PageProps } from "../../types";
import { api, ApiError, request } from "../../api";
import { Button, Confirm, ErrorNotice, Field, Loading, Page } from "../../components/ui";
import { formatNumber } from "../../format";
import { usePhotoUrl, useResource } from "../../hooks";
import { navigate } from "../../router";
import { pathOf } from "../../routes";
import { signOut } from "../../session";
import { common, student } from "../../strings";
import type { User } from "../../types";
import { OutcomeNotice, useAction } from "../../components/outcome";
import { focusSoon, nimPath } from "./shared";

/** `GET /api/mahasiswa/profil/data/<nim>`. */
export interface Profile {
  nim: string;
  nama: string;
  program: string;
  angkatan: string;
  kelas: string;
  ipk: number | null;
  foto_profil: string | null;
  gender: string;
  usia: number | null;
  freq_olahraga: string;
  durasi_tidur: string;
  nip_doswal: string;
  nama_dosen_wali: string;
  telepon_dosen_wali: string;
}

const text = student.profil;

/** Profil: the student's data, the editable part of it, the photo, and the password. */
export function Profil({ user }: PageProps) {
  const profile = useResource(() => api.get<Profile>(`/api/mahasiswa/profil/data/${nimPath(user)}`), [user.NIM]);
  return (
    <Page title={student.nav.profil}>
      {profile.error ? (
        <ErrorNotice error={profile.error} onRetry={profile.reload} />
      ) : !profile.data ? (
        <Loading />
      ) : (
        <>
          <div class="profile-head">
            <section aria-labelledby="profil-data">
              <h2 id="profil-data">{text.dataTitle}</h2>
              <dl class="facts">
                {(
                  [
                    [text.nim, profile.data.nim],
                    [text.nama, profile.data.nama],
                    [text.program, profile.data.program],
                    [text.kelas, profile.data.kelas],
                    [text.lecturer, profile.data.nama_dosen_wali],
                    [text.lecturerPhone, profile.data.telepon_dosen_wali],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label}>
                    <dt>{label}</dt>
                    <dd>{value || text.notSet}</dd>
                  </div>
                ))}
              </dl>
            </section>
            <PhotoSection user={user} profile={profile.data} onChanged={profile.reload} />
          </div>
          <ProfileForm profile={profile.data} onSaved={profile.reload} />
        </>
      )}
      <PasswordSection />
    </Page>
  );
}

/** The photo: shown from the server, previewed from the file before it is sent, deleted after asking. */
function PhotoSection(props: { user: User; profile: Profile; onChanged: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const action = useAction();
  const photo = props.profile.foto_profil;
  const photoUrl = usePhotoUrl(photo ? `/api/mahasiswa/profil/foto/${nimPath(props.user)}?v=${encodeURIComponent(photo)}` : null);

  // A preview's object URL lives as long as it is shown.
  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  function clearSelection() {
    setFile(null);
    if (input.current) input.current.value = "";
  }

  function upload() {
    if (!file) return;
    void action.run(async () => {
      const form = new FormData();
      form.append("foto", file);
      const answer = await api.upload<{ message: string; foto_profil: string }>("/api/mahasiswa/profil/foto", form);
      clearSelection();
      props.onChanged();
      return answer.message;
    });
  }

  function remove() {
    void action.run(async () => {
      const answer = await api.delete<{ message: string }>(`/api/mahasiswa/profil/foto/${nimPath(props.user)}`);
      setDeleting(false);
      props.onChanged();
      return answer.message;
    });
  }

  return (
    <section aria-labelledby="profil-foto" class="photo-section">
      <h2 id="profil-foto">{text.photoTitle}</h2>
      {photoUrl ? (
        <img class="photo" src={photoUrl} alt={text.photoAlt} width={160} height={160} />
      ) : (
        <p class="photo photo-empty">{text.noPhoto}</p>
      )}
      {/* The browser's own file button speaks the browser's language; this one speaks Indonesian. */}
      <div class="file-picker">
        <input
          id="profil-foto-file"
          ref={input}
          class="file-input"
          type="file"
          name="foto"
          accept="image/jpeg,image/png,image/gif,image/webp"
          aria-describedby="profil-foto-petunjuk profil-foto-nama"
          onChange={(event) => {
            action.setOutcome(null);
            setFile(event.currentTarget.files?.[0] ?? null);
          }}
        />
        <label for="profil-foto-file" class="button button-secondary">
          {text.photoInput}
        </label>
        <span id="profil-foto-nama">{file?.name ?? text.noFile}</span>
        <p class="hint" id="profil-foto-petunjuk">
          {text.photoHint}
        </p>
      </div>
      {preview && (
        <figure class="preview">
          <img class="photo" src={preview} alt={text.previewAlt} width={160} height={160} />
          <figcaption>{text.previewTitle}</figcaption>
        </figure>
      )}
      <OutcomeNotice outcome={action.outcome} />
      {deleting ? (
        <Confirm
          yes={student.confirmYes}
          id="profil-foto-hapus"
          question={text.deletePhotoQuestion}
          busy={action.busy}
          onYes={remove}
          onNo={() => {
            setDeleting(false);
            focusSoon("profil-foto-hapus");
          }}
        />
      ) : (
        <div class="button-row">
          {file && (
            <>
              <Button busy={action.busy} onClick={upload}>
                {text.upload}
              </Button>
              <Button variant="secondary" onClick={clearSelection}>
                {common.cancel}
              </Button>
            </>
          )}
          {photo && !file && (
            <Button variant="danger" id="profil-foto-hapus" onClick={() => setDeleting(true)}>
              {text.deletePhoto}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}

type ProfileField = "angkatan" | "gender" | "usia" | "freq_olahraga" | "durasi_tidur" | "IPK";

/** A text of the server names its field: `Usia harus …`, `IPK harus …`, `angkatan harus …`. */
function fieldOf(message: string): ProfileField | null {
  const fields: ProfileField[] = ["angkatan", "gender", "usia", "freq_olahraga", "durasi_tidur", "IPK"];
  return fields.find((field) => message.toLowerCase().startsWith(field.toLowerCase())) ?? null;
}

/** Choices, with a stored value the list does not know (from an older form) kept as it is. */
const choicesWith = (options: readonly string[], current: string) => (current && !options.includes(current) ? [...options, current] : options);

function ProfileForm(props: { profile: Profile; onSaved: () => void }) {
  const { profile } = props;
  const [values, setValues] = useState<Record<ProfileField, string>>(() => ({
    angkatan: profile.angkatan,
    gender: profile.gender,
    usia: profile.usia === null ? "" : String(profile.usia),
    freq_olahraga: profile.freq_olahraga,
    durasi_tidur: profile.durasi_tidur,
    IPK: profile.ipk === null ? "" : formatNumber(profile.ipk),
  }));
  const [fieldError, setFieldError] = useState<{ field: ProfileField; message: string } | null>(null);
  const action = useAction();
  const form = useRef<HTMLFormElement>(null);

  function submit(event: Event) {
    event.preventDefault();
    setFieldError(null);
    void action.run(async () => {
      try {
        // An Indonesian keyboard writes 3,45; the server reads 3.45.
        const answer = await api.put<{ message: string }>("/api/mahasiswa/profil", { ...values, IPK: values.IPK.trim().replace(",", ".") });
        props.onSaved();
        return answer.message;
      } catch (error) {
        const field = error instanceof ApiError && error.status === 400 ? fieldOf(error.message) : null;
        if (!field) throw error;
        setFieldError({ field, message: (error as ApiError).text });
        // After the render that ties the error to the field, so that it is read with it.
        setTimeout(() => form.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus(), 0);
        return null;
      }
    });
  }

  const errorOf = (field: ProfileField) => (fieldError?.field === field ? fieldError.message : null);
  const set = (field: ProfileField) => (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) => setValues({ ...values, [field]: event.currentTarget.value });
  const textInput = (field: ProfileField, mode: "numeric" | "decimal") => (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => (
    <input
      id={ids.id}
      name={field}
      inputMode={mode}
      autocomplete="off"
      value={values[field]}
      aria-describedby={ids.describedBy}
      aria-invalid={ids.invalid || undefined}
      onInput={set(field)}
    />
  );
  const select = (field: ProfileField, options: readonly string[]) => (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => (
    <select id={ids.id} name={field} value={values[field]} aria-describedby={ids.describedBy} aria-invalid={ids.invalid || undefined} onChange={set(field)}>
      <option value="">{text.choose}</option>
      {choicesWith(options, values[field]).map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </select>
  );

  return (
    <section aria-labelledby="profil-ubah">
      <h2 id="profil-ubah">{text.editTitle}</h2>
      <p class="hint">{text.editIntro}</p>
      <form class="form profile-form" ref={form} onSubmit={submit} noValidate>
        <Field label={text.angkatan} hint={text.angkatanHint} error={errorOf("angkatan")}>
          {textInput("angkatan", "numeric")}
        </Field>
        <Field label={text.gender} error={errorOf("gender")}>
          {select("gender", text.genderOptions)}
        </Field>
        <Field label={text.usia} error={errorOf("usia")}>
          {textInput("usia", "numeric")}
        </Field>
        <Field label={text.ipk} hint={text.ipkHint} error={errorOf("IPK")}>
          {textInput("IPK", "decimal")}
        </Field>
        <Field label={student.habits.freqOlahraga} error={errorOf("freq_olahraga")}>
          {select("freq_olahraga", student.habits.freqOlahragaOptions)}
        </Field>
        <Field label={student.habits.durasiTidur} error={errorOf("durasi_tidur")}>
          {select("durasi_tidur", student.habits.durasiTidurOptions)}
        </Field>
        <OutcomeNotice outcome={action.outcome} />
        <div>
          <Button type="submit" busy={action.busy}>
            {text.save}
          </Button>
        </div>
      </form>
    </section>
  );
}

/**
 * The password change. A wrong old password is a 401 that ends no session; a successful
 * change ends every session, this one too, so the student signs in again.
 */
function PasswordSection() {
  const [values, setValues] = useState({ old: "", new: "", repeat: "" });
  const [problem, setProblem] = useState<{ field: "old" | "repeat"; message: string } | null>(null);
  const action = useAction();
  const oldInput = useRef<HTMLInputElement>(null);
  const repeatInput = useRef<HTMLInputElement>(null);

  function submit(event: Event) {
    event.preventDefault();
    action.setOutcome(null);
    if (!values.old || !values.new) {
      setProblem({ field: "old", message: text.passwordRequired });
      return oldInput.current?.focus();
    }
    if (values.new !== values.repeat) {
      setProblem({ field: "repeat", message: text.passwordMismatch });
      return repeatInput.current?.focus();
    }
    setProblem(null);
    void action.run(async () => {
      await request("POST", "/api/auth/password", { json: { old_password: values.old, new_password: values.new }, checksPassword: true });
      // The server has ended this session already; the logout only tidies up.
      await signOut(text.passwordChanged).catch(() => undefined);
      navigate(pathOf("masuk"), { replace: true });
      return null;
    });
  }

  const field = (name: "old" | "new" | "repeat", label: string, autocomplete: string, ref: typeof oldInput | null, hint?: string) => (
    <Field label={label} hint={hint} error={problem?.field === name ? problem.message : null}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          ref={ref ?? undefined}
          type="password"
          autocomplete={autocomplete}
          value={values[name]}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onInput={(event) => setValues({ ...values, [name]: event.currentTarget.value })}
        />
      )}
    </Field>
  );

  return (
    <section aria-labelledby="profil-password">
      <h2 id="profil-password">{text.passwordTitle}</h2>
      <p>{text.passwordIntro}</p>
      <form class="form narrow" onSubmit={submit} noValidate>
        {field("old", text.oldPassword, "current-password", oldInput)}
        {field("new", text.newPassword, "new-password", null, text.newPasswordHint)}
        {field("repeat", text.repeatPassword, "new-password", repeatInput)}
        <OutcomeNotice outcome={action.outcome} />
        <div>
          <Button type="submit" busy={action.busy}>
            {text.changePassword}
          </Button>
        </div>
      </form>
    </section>
  );
}
