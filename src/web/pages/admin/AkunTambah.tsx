import { useState } from "preact/hooks";
import { request } from "../../api";
import { Button, Field } from "../../components/ui";
import { admin } from "../../strings/admin";
import { useAction, OutcomeNotice } from "../../components/outcome";
import { CommandHint, ConfirmAct, SelectField } from "./shared";

const text = admin.tambah;

const emptyForm = { role: "mahasiswa", username: "", password: "", nim: "", nip: "", nama: "", jurusan: "", angkatan: "", kelas: "", nip_doswal: "", activated: false };
type Form = typeof emptyForm;

/** One new account, with the fields of a roster row that fit its role (`accounts add`); a new admin is confirmed with the password (decisions §21). */
export function AkunTambah(props: { onAdded: () => void }) {
  const [form, setForm] = useState<Form>(emptyForm);
  const { busy, outcome, setOutcome, run } = useAction();
  const [confirming, setConfirming] = useState(false);
  const student = form.role === "mahasiswa";
  const field = (name: keyof Form, label: string, options: { hint?: string; type?: string; autocomplete?: string } = {}) => (
    <Field label={label} hint={options.hint}>
      {({ id, describedBy }) => (
        <input
          id={id}
          type={options.type ?? "text"}
          autocomplete={options.autocomplete ?? "off"}
          value={form[name] as string}
          aria-describedby={describedBy}
          onInput={(event) => setForm({ ...form, [name]: event.currentTarget.value })}
        />
      )}
    </Field>
  );

  /** Only the fields of the chosen role: a student's NIM is no lecturer's. */
  function body(): Record<string, string | boolean> {
    const fields: Record<string, string | boolean> = { role: form.role, username: form.username, password: form.password, nama: form.nama, activated: form.activated };
    if (student) Object.assign(fields, { nim: form.nim, jurusan: form.jurusan, angkatan: form.angkatan, kelas: form.kelas, nip_doswal: form.nip_doswal });
    if (form.role === "dosen") fields.nip = form.nip;
    return fields;
  }

  async function add(headers: Record<string, string> = {}): Promise<string> {
    const answer = await request<{ message: string }>("POST", "/api/admin/akun", { json: body(), headers });
    setForm(emptyForm);
    setConfirming(false);
    props.onAdded();
    return answer.message;
  }

  function submit(event: Event) {
    event.preventDefault();
    setOutcome(null);
    if (form.role === "admin") return setConfirming(true);
    void run(add);
  }

  return (
    <section aria-labelledby="akun-tambah">
      <h2 id="akun-tambah">{text.heading}</h2>
      <form class="form console-form" onSubmit={submit} noValidate>
        <SelectField label={text.role} value={form.role} options={admin.akun.roles} onChange={(role) => setForm({ ...form, role })} />
        {field("username", text.username, { hint: text.usernameHint })}
        {field("password", text.password, { hint: text.passwordHint, type: "password", autocomplete: "new-password" })}
        {student && field("nim", text.nim)}
        {form.role === "dosen" && field("nip", text.nip)}
        {field("nama", text.nama)}
        {student && (
          <>
            {field("jurusan", text.jurusan)}
            {field("angkatan", text.angkatan)}
            {field("kelas", text.kelas)}
            {field("nip_doswal", text.nipDoswal)}
          </>
        )}
        <label class="choice">
          <input type="checkbox" checked={form.activated} onChange={(event) => setForm({ ...form, activated: event.currentTarget.checked })} />
          {text.activated}
        </label>
        <OutcomeNotice outcome={outcome} focus={false} />
        {!confirming && (
          <div class="button-row">
            <Button type="submit" busy={busy}>
              {text.submit}
            </Button>
          </div>
        )}
      </form>
      {confirming && (
        <ConfirmAct
          question={text.adminQuestion(form.username.trim())}
          yes={text.adminYes}
          method="POST"
          path="/api/admin/akun"
          onCancel={() => setConfirming(false)}
          act={async (headers) => setOutcome({ kind: "success", text: await add(headers) })}
        />
      )}
      <CommandHint command="skrining accounts add --role mahasiswa --username 2301011 --password … --nim 2301011" />
    </section>
  );
}
