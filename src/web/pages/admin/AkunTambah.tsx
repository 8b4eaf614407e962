import { useState } from "preact/hooks";
import { request } from "../../api";
import { Button, Field } from "../../components/ui";
import { admin } from "../../strings/admin";
import { CommandHint, Outcome, SelectField, useAct } from "./shared";

const text = admin.tambah;

const emptyForm = { role: "mahasiswa", username: "", password: "", nim: "", nip: "", nama: "", jurusan: "", angkatan: "", kelas: "", nip_doswal: "", activated: false };
type Form = typeof emptyForm;

/** One new account, with the fields of a roster row that fit its role (`accounts add`). */
export function AkunTambah(props: { onAdded: () => void }) {
  const [form, setForm] = useState<Form>(emptyForm);
  const { busy, outcome, run } = useAct();
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

  function submit(event: Event) {
    event.preventDefault();
    // Only the fields of the chosen role: a student's NIM is no lecturer's.
    const body: Record<string, string | boolean> = { role: form.role, username: form.username, password: form.password, nama: form.nama, activated: form.activated };
    if (student) Object.assign(body, { nim: form.nim, jurusan: form.jurusan, angkatan: form.angkatan, kelas: form.kelas, nip_doswal: form.nip_doswal });
    if (form.role === "dosen") body.nip = form.nip;
    void run(async () => {
      const answer = await request<{ message: string }>("POST", "/api/admin/akun", { json: body });
      setForm(emptyForm);
      props.onAdded();
      return answer.message;
    });
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
        <Outcome outcome={outcome} />
        <div class="button-row">
          <Button type="submit" busy={busy}>
            {text.submit}
          </Button>
        </div>
      </form>
      <CommandHint command="skrining accounts add --role mahasiswa --username 2301011 --password … --nim 2301011" />
    </section>
  );
}
