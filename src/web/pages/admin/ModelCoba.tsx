import { useState } from "preact/hooks";
import { request } from "../../api";
import { DataTable } from "../../components/charts";
import { Button, ErrorNotice, Field } from "../../components/ui";
import { admin } from "../../strings/admin";
import { CommandHint, formOf, type ModelItem, type ModelTry } from "./shared";

const text = admin.model;

/** A registered model tried on a sample CSV (`model predict`): the labels per row; nothing is stored. */
export function ModelCoba(props: { models: ModelItem[] }) {
  const [model, setModel] = useState(String(props.models[0]!.id));
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<{ answer: ModelTry; url: string } | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    if (result) URL.revokeObjectURL(result.url);
    setResult(null);
    try {
      const answer = await request<ModelTry>("POST", "/api/admin/model/coba", { form: formOf(file, { model }) });
      setResult({ answer, url: URL.createObjectURL(new Blob([answer.csv], { type: "text/csv" })) });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="model-coba">
      <h2 id="model-coba">{text.tryHeading}</h2>
      <p class="aside">{text.tryIntro}</p>
      <form class="form console-form" onSubmit={submit} noValidate>
        <Field label={text.tryModel}>
          {({ id }) => (
            <select id={id} value={model} onChange={(event) => setModel(event.currentTarget.value)}>
              {props.models.map((each) => (
                <option key={each.id} value={String(each.id)}>
                  {`${each.id} · ${text.types[each.type] ?? each.type} · ${each.algorithm}`}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={text.tryFile}>{({ id }) => <input id={id} type="file" accept=".csv,text/csv" onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />}</Field>
        <div class="button-row">
          <Button type="submit" variant="secondary" busy={busy} disabled={!file}>
            {busy ? text.trying : text.try}
          </Button>
        </div>
      </form>
      {error !== null && <ErrorNotice error={error} />}
      {result && (
        <>
          <DataTable caption={text.tryTable(result.answer.baris.length, result.answer.jumlah)} columns={result.answer.kolom} rows={result.answer.baris} />
          <p>
            <a class="button button-secondary" href={result.url} download={`prediksi-model-${model}.csv`}>
              {text.tryDownload}
            </a>
          </p>
        </>
      )}
      <CommandHint command="skrining model predict --file model.json --input contoh.csv" />
    </section>
  );
}
