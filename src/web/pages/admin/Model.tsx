import { useState } from "preact/hooks";
import { api, request } from "../../api";
import { DataTable } from "../../components/charts";
import { Button, Field, Loading } from "../../components/ui";
import { formatDateTime } from "../../format";
import { useResource } from "../../hooks";
import { admin } from "../../strings/admin";
import type { PageProps } from "../../types";
import { ResourceError } from "../dosen/shared";
import { ModelCoba } from "./ModelCoba";
import { fileSize } from "../../../file-size";
import { useAction, OutcomeNotice } from "../../components/outcome";
import { CommandHint, ConfirmAct, ConsolePage, SelectField, formOf, uploadLimits, type ModelItem } from "./shared";
import { ModelValidasi } from "./ModelValidasi";

const text = admin.model;
type Pending = { kind: "activate" | "remove"; model: ModelItem } | null;

/**
 * Model: the registered models; activation (confirmed with the password), deactivation and
 * removal; a model file uploaded and checked as `model add` does; a try on a sample CSV;
 * the local validation against the handlers' judgements (decisions §20).
 */
export function Model(_props: PageProps) {
  const models = useResource(() => api.get<ModelItem[]>("/api/admin/model"));
  const [pending, setPending] = useState<Pending>(null);
  const [force, setForce] = useState(false);
  const { outcome, setOutcome, run } = useAction();
  const list = models.data;
  const ask = (asked: Pending) => {
    setOutcome(null);
    setForce(false);
    setPending(asked);
  };

  const deactivate = (model: ModelItem) =>
    run(async () => {
      const answer = await api.post<{ message: string }>(`/api/admin/model/${model.id}/nonaktifkan`);
      models.reload();
      return answer.message;
    });

  return (
    <ConsolePage current="adminModel" intro={text.intro}>
      <h2>{text.heading}</h2>
      <ResourceError resource={models} />
      <OutcomeNotice outcome={outcome} focus={false} />
      {pending && (
        <ConfirmAct
          key={`${pending.kind} ${pending.model.id}`}
          question={pending.kind === "activate" ? text.activateQuestion(pending.model.id, text.types[pending.model.type]!) : text.removeQuestion(pending.model.id)}
          yes={pending.kind === "activate" ? text.activateYes : text.removeYes}
          method={pending.kind === "activate" ? "POST" : "DELETE"}
          path={pending.kind === "activate" ? `/api/admin/model/${pending.model.id}/aktifkan` : `/api/admin/model/${pending.model.id}`}
          onCancel={() => setPending(null)}
          act={async (headers) => {
            const answer =
              pending.kind === "activate"
                ? await request<{ message: string }>("POST", `/api/admin/model/${pending.model.id}/aktifkan`, { json: {}, headers })
                : await request<{ message: string }>("DELETE", `/api/admin/model/${pending.model.id}${force ? "?paksa=ya" : ""}`, { headers });
            setPending(null);
            setOutcome({ kind: "success", text: answer.message });
            models.reload();
          }}
        >
          {pending.kind === "remove" && (
            <label class="choice">
              <input type="checkbox" checked={force} onChange={(event) => setForce(event.currentTarget.checked)} />
              {text.removeForce}
            </label>
          )}
        </ConfirmAct>
      )}
      {!list ? (
        models.loading && <Loading />
      ) : list.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <DataTable
          caption={text.table}
          columns={[text.columns.id, text.columns.type, text.columns.active, text.columns.created, text.columns.algorithm, text.columns.version, text.columns.actions]}
          numeric={[true, false, false, false, false, false, false]}
          rows={list.map((model) => [
            String(model.id),
            text.types[model.type] ?? model.type,
            model.is_active ? text.yes : text.no,
            formatDateTime(model.created_at),
            model.algorithm,
            model.version,
            <div class="row-actions" role="group" aria-label={text.actionsFor(model.id)}>
              {model.is_active ? (
                <Button variant="secondary" onClick={() => void deactivate(model)}>
                  {text.deactivate}
                </Button>
              ) : (
                <>
                  <Button variant="secondary" onClick={() => ask({ kind: "activate", model })}>
                    {text.activate}
                  </Button>
                  <Button variant="danger" onClick={() => ask({ kind: "remove", model })}>
                    {text.remove}
                  </Button>
                </>
              )}
            </div>,
          ])}
        />
      )}
      <CommandHint command="skrining model list" />
      <Upload onAdded={models.reload} />
      {list && list.length > 0 && <ModelCoba models={list} />}
      <ModelValidasi />
    </ConsolePage>
  );
}

/** A model file: converted and checked by the server, stored only when it can serve. */
function Upload(props: { onAdded: () => void }) {
  const limits = useResource(uploadLimits);
  const [file, setFile] = useState<File | null>(null);
  const [type, setType] = useState("stress");
  const [activate, setActivate] = useState(false);
  const { busy, outcome, setOutcome, run } = useAction();
  const [confirming, setConfirming] = useState(false);

  const upload = async (headers: Record<string, string>) => {
    const answer = await request<{ message: string }>("POST", "/api/admin/model", { form: formOf(file, { jenis: type, ...(activate ? { aktifkan: "ya" } : {}) }), headers });
    setOutcome({ kind: "success", text: answer.message });
    setConfirming(false);
    props.onAdded();
  };

  return (
    <section aria-labelledby="model-tambah">
      <h2 id="model-tambah">{text.uploadHeading}</h2>
      <p class="aside">{text.uploadIntro}</p>
      <form
        class="form console-form"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          setOutcome(null);
          if (activate) return setConfirming(true);
          await run(async () => {
            await upload({});
            return undefined;
          });
        }}
      >
        <Field label={text.file} hint={text.fileHint(limits.data ? fileSize(limits.data.model) : "50 MB")}>
          {({ id, describedBy }) => <input id={id} type="file" accept=".joblib,.json,.pkl" aria-describedby={describedBy} onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />}
        </Field>
        <SelectField label={text.type} value={type} options={text.types} onChange={setType} />
        <label class="choice">
          <input type="checkbox" checked={activate} onChange={(event) => setActivate(event.currentTarget.checked)} />
          {text.activateNow}
        </label>
        <OutcomeNotice outcome={outcome} focus={false} />
        {!confirming && (
          <div class="button-row">
            <Button type="submit" busy={busy} disabled={!file}>
              {busy ? text.uploading : text.upload}
            </Button>
          </div>
        )}
      </form>
      {confirming && (
        <ConfirmAct question={text.activateNewQuestion(text.types[type]!)} yes={text.activateYes} method="POST" path="/api/admin/model" onCancel={() => setConfirming(false)} act={upload} />
      )}
      <CommandHint command="skrining model add --type stress --file model.joblib" />
    </section>
  );
}
