import { useRef, useState } from "preact/hooks";
import { ApiError, request } from "../../api";
import { DataTable } from "../../components/charts";
import { Button, ErrorNotice, Field, Notice } from "../../components/ui";
import { useResource } from "../../hooks";
import { admin } from "../../strings/admin";
import { fileSize } from "../../../file-size";
import { CommandHint, ConfirmAct, formOf, needsConfirmation, uploadLimits, type ImportAnswer, type ImportPreview } from "./shared";

const text = admin.impor;

/**
 * A roster's import: the file is checked first and every bad line shown with its number,
 * with what each good row would do; only then may it be imported, and the server checks
 * the very same file again (it writes nothing on any bad row). An import that resets an
 * existing account's password or makes an admin is confirmed with the password (decisions
 * §21), as the preview shows it will be.
 */
/** A lecturer of the preview by name, else NIP, else none. */
const lecturerWords = (lecturer: { NIP: string | null; nama_dosen: string | null }) => lecturer.nama_dosen ?? lecturer.NIP ?? text.noAdvisor;

export function AkunImpor(props: { onImported: () => void }) {
  const limits = useResource(uploadLimits);
  const [file, setFile] = useState<File | null>(null);
  const [reset, setReset] = useState(false);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [busy, setBusy] = useState<"preview" | "import" | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<ImportAnswer | null>(null);
  const [confirming, setConfirming] = useState(false);
  const result = useRef<HTMLHeadingElement>(null);
  const fields = (): Record<string, string> => (reset ? { reset_password: "ya" } : {});

  async function check(event: Event) {
    event.preventDefault();
    setBusy("preview");
    setError(null);
    setDone(null);
    setPreview(null);
    try {
      setPreview(await request<ImportPreview>("POST", "/api/admin/akun/impor/pratinjau", { form: formOf(file, fields()) }));
      setTimeout(() => result.current?.focus(), 0);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  }

  async function send(headers: Record<string, string> = {}) {
    setDone(await request<ImportAnswer>("POST", "/api/admin/akun/impor", { form: formOf(file, fields()), headers }));
    setPreview(null);
    setConfirming(false);
    props.onImported();
    setTimeout(() => result.current?.focus(), 0);
  }

  async function importRoster() {
    setError(null);
    if (opens.passwords > 0 || opens.admins > 0) return setConfirming(true);
    setBusy("import");
    try {
      await send();
    } catch (caught) {
      // The accounts changed since the preview: the server asks for the confirmation after all.
      if (needsConfirmation(caught)) setConfirming(true);
      else setError(caught);
    } finally {
      setBusy(null);
    }
  }

  const badLines = preview ? new Set(preview.problems.map((problem) => problem.line)).size : 0;
  // What the server confirms (AccountsService.importGivesAccess): passwords reset, admins made.
  const opens = {
    passwords: preview?.rows.filter((row) => row.passwordReset).length ?? 0,
    admins: preview?.rows.filter((row) => row.role === "admin" && row.outcome === "dibuat").length ?? 0,
  };
  return (
    <section aria-labelledby="akun-impor">
      <h2 id="akun-impor">{text.heading}</h2>
      <p class="aside">{text.intro}</p>
      <form class="form console-form" onSubmit={check} noValidate>
        <Field label={text.file} hint={text.fileHint(limits.data ? fileSize(limits.data.daftar) : "5 MB")}>
          {({ id, describedBy }) => (
            <input
              id={id}
              type="file"
              accept=".csv,.txt,text/csv"
              aria-describedby={describedBy}
              onChange={(event) => {
                setFile(event.currentTarget.files?.[0] ?? null);
                setPreview(null);
                setDone(null);
              }}
            />
          )}
        </Field>
        <label class="choice">
          <input type="checkbox" checked={reset} onChange={(event) => {
              setReset(event.currentTarget.checked);
              setPreview(null);
            }}
          />
          {text.reset}
        </label>
        <div class="button-row">
          <Button type="submit" variant="secondary" busy={busy === "preview"} disabled={!file}>
            {busy === "preview" ? text.previewing : text.preview}
          </Button>
        </div>
      </form>
      {error !== null && <ErrorNotice error={error} />}
      {error instanceof ApiError && Array.isArray(error.body.baris) && (
        <ul class="problem-lines">
          {(error.body.baris as string[]).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {preview && (
        <div class="import-preview">
          <h3 ref={result} tabIndex={-1}>
            {text.previewHeading}
          </h3>
          {preview.problems.length > 0 ? (
            <>
              <Notice kind="error">
                <p>{text.problems(badLines)}</p>
              </Notice>
              <DataTable caption={text.problemsTable} columns={[text.line, text.problem]} rows={preview.problems.map((problem) => [String(problem.line), problem.message])} />
            </>
          ) : (
            <>
              <Notice kind="info">
                <p>{text.summary(preview.counts.created, preview.counts.updated, preview.counts.unchanged)}</p>
                <p>
                  {preview.casesMoving.length > 0
                    ? text.casesMoving(preview.casesMoving.map((move) => text.casesMovingTo(move.count, move.nama_dosen ?? move.NIP ?? text.noAdvisor)))
                    : text.noCasesMoving}
                </p>
              </Notice>
              <DataTable
                caption={text.rowsTable}
                columns={[text.line, text.username, text.outcome]}
                rows={preview.rows.map((row) => [
                  String(row.line),
                  row.username,
                  `${text.outcomes[row.outcome]}${text.fields(row.fields)}${row.passwordReset ? text.passwordReset : ""}${
                    row.advisor ? text.advisorMove(lecturerWords(row.advisor.from), lecturerWords(row.advisor.to), row.advisor.openCases) : ""
                  }`,
                ])}
              />
              {confirming ? (
                <ConfirmAct
                  question={text.confirmQuestion(opens.passwords, opens.admins)}
                  yes={text.confirmYes}
                  method="POST"
                  path="/api/admin/akun/impor"
                  onCancel={() => setConfirming(false)}
                  act={send}
                />
              ) : (
                <div class="button-row">
                  <Button busy={busy === "import"} onClick={() => void importRoster()}>
                    {busy === "import" ? text.importing : text.submit}
                  </Button>
                </div>
              )}
            </>
          )}
        </div>
      )}
      {done && (
        <Notice kind="success">
          <h3 ref={result} tabIndex={-1}>
            {text.done(done.counts.created, done.counts.updated, done.counts.unchanged)}
          </h3>
          {done.counts.leftInactive > 0 && <p>{text.leftInactive(done.counts.leftInactive)}</p>}
          {done.di_bawah_18.length > 0 && (
            <>
              <p>{text.minors(done.di_bawah_18.length)}</p>
              <ul>
                {done.di_bawah_18.map((student) => (
                  <li key={student.nim}>{`${student.nim}${student.nama ? ` ${student.nama}` : ""} (${student.usia})`}</li>
                ))}
              </ul>
            </>
          )}
        </Notice>
      )}
      <CommandHint command="skrining accounts import daftar.csv" />
    </section>
  );
}
