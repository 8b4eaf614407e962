import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { api, request } from "../../api";
import { DataTable } from "../../components/charts";
import { Button, Field, Loading, Notice } from "../../components/ui";
import { formatDateTime, formatNumber } from "../../format";
import { useResource } from "../../hooks";
import { navigate } from "../../router";
import { pathOf } from "../../routes";
import { admin } from "../../strings/admin";
import type { PageProps } from "../../types";
import { ResourceError, withQuery } from "../dosen/shared";
import { useAction, OutcomeNotice } from "../../components/outcome";
import { CommandHint, ConfirmAct, ConsolePage, DownloadButton, useFollowUrl, type Erased, type StudentRequest } from "./shared";

const text = admin.dataPribadi;

/**
 * Permintaan data pribadi: one student by NIM (in the URL): the export as a download, the
 * restriction and its end, and erasure, whose dry run is shown first and which is
 * confirmed by typing the NIM again and the admin's password.
 */
export function DataPribadi(props: PageProps) {
  const nim = props.search.get("nim")?.trim() ?? "";
  const [draft, setDraft] = useState(nim);
  useFollowUrl(nim, () => setDraft(nim));
  const [erased, setErased] = useState<{ nim: string; answer: Erased } | null>(null);
  return (
    <ConsolePage current="adminDataPribadi" intro={text.intro}>
      <form
        class="console-filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setErased(null);
          navigate(withQuery(pathOf("adminDataPribadi"), { nim: draft.trim() }));
        }}
      >
        <Field label={text.nim}>{({ id }) => <input id={id} value={draft} autocomplete="off" onInput={(event) => setDraft(event.currentTarget.value)} />}</Field>
        <div class="button-row">
          <Button type="submit">{text.find}</Button>
        </div>
      </form>
      {erased && <ErasedNotice nim={erased.nim} answer={erased.answer} />}
      {nim && !erased && <Student key={nim} nim={nim} onErased={(answer) => setErased({ nim, answer })} />}
    </ConsolePage>
  );
}

function Student(props: { nim: string; onErased: (answer: Erased) => void }) {
  const student = useResource(() => api.get<StudentRequest>(`/api/admin/privasi/${encodeURIComponent(props.nim)}`), [props.nim]);
  const { busy, outcome, setOutcome, run } = useAction();
  const [erasing, setErasing] = useState(false);
  const [unrestricting, setUnrestricting] = useState(false);
  const [typed, setTyped] = useState("");
  const data = student.data;
  if (student.error !== undefined) return <ResourceError resource={student} />;
  if (!data) return <Loading />;
  const path = `/api/admin/privasi/${encodeURIComponent(data.nim)}`;

  const restrict = () =>
    run(async () => {
      const answer = await api.post<{ message: string }>(`${path}/batasi`);
      student.reload();
      return answer.message;
    });

  return (
    <section aria-labelledby="data-pribadi-mahasiswa">
      <h2 id="data-pribadi-mahasiswa">{text.student(data.nama, data.nim)}</h2>
      <p>{data.dibatasi_sejak ? text.restricted(formatDateTime(data.dibatasi_sejak)) : text.notRestricted}</p>
      <OutcomeNotice outcome={outcome} focus={false} />

      <h3>{text.exportHeading}</h3>
      <p class="aside" id="data-pribadi-ekspor">
        {text.exportHint}
      </p>
      <div class="button-row">
        <DownloadButton path={`${path}/ekspor/json`} label={text.export} describedBy="data-pribadi-ekspor" variant="primary" />
        <DownloadButton path={`${path}/ekspor`} label={text.exportArchive} describedBy="data-pribadi-ekspor" variant="secondary" />
      </div>

      <h3>{text.restrictHeading}</h3>
      <p class="aside">{text.restrictHint}</p>
      {/* Ending a restriction lets the staff read the student's data again: confirmed (decisions §21). */}
      {data.dibatasi_sejak && unrestricting ? (
        <ConfirmAct
          question={text.unrestrictQuestion(data.nim)}
          yes={text.unrestrictYes}
          method="POST"
          path={`${path}/akhiri-pembatasan`}
          onCancel={() => setUnrestricting(false)}
          act={async (headers) => {
            const answer = await request<{ message: string }>("POST", `${path}/akhiri-pembatasan`, { json: {}, headers });
            setUnrestricting(false);
            setOutcome({ kind: "success", text: answer.message });
            student.reload();
          }}
        />
      ) : (
        <Button
          variant="secondary"
          busy={busy}
          onClick={() => {
            setOutcome(null);
            if (data.dibatasi_sejak) setUnrestricting(true);
            else void restrict();
          }}
        >
          {data.dibatasi_sejak ? text.unrestrict : text.restrict}
        </Button>
      )}

      <h3>{text.eraseHeading}</h3>
      <p>{text.erasePlan}</p>
      <DataTable
        caption={text.eraseTable}
        columns={[text.table, text.rows]}
        numeric={[false, true]}
        rows={Object.entries(data.hapus.rows).map(([table, rows]) => [table, formatNumber(rows)])}
      />
      <p>
        {text.photos}: {data.hapus.files.length === 0 ? text.noPhotos : data.hapus.files.join(", ")}
      </p>
      <Notice kind="warning">
        <p>{text.eraseWarning}</p>
      </Notice>
      {erasing ? (
        <ConfirmAct
          question={text.eraseQuestion(data.nim)}
          yes={text.eraseYes}
          method="POST"
          path={`${path}/hapus`}
          ready={typed.trim() === data.nim}
          onCancel={() => {
            setErasing(false);
            setTyped("");
          }}
          act={async (headers) => props.onErased(await request<Erased>("POST", `${path}/hapus`, { json: { nim_konfirmasi: typed }, headers }))}
        >
          <Field label={text.typeNim(data.nim)}>
            {({ id }) => <input id={id} autocomplete="off" value={typed} onInput={(event) => setTyped(event.currentTarget.value)} />}
          </Field>
        </ConfirmAct>
      ) : (
        <Button variant="danger" onClick={() => setErasing(true)}>
          {text.erase}
        </Button>
      )}
      <CommandHint command={`skrining privacy erase --nim ${data.nim} --dry-run`} />
    </section>
  );
}

function ErasedNotice(props: { nim: string; answer: Erased }) {
  const heading = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => heading.current?.focus(), []);
  return (
    <Notice kind="success">
      <p ref={heading} tabIndex={-1}>
        {props.answer.message}
      </p>
      <DataTable caption={text.erasedRows} columns={[text.table, text.rows]} numeric={[false, true]} rows={Object.entries(props.answer.baris).map(([table, rows]) => [table, formatNumber(rows)])} />
      {props.answer.file_gagal_dihapus.length > 0 && (
        <>
          <p>{text.filesLeft}</p>
          <ul>
            {props.answer.file_gagal_dihapus.map((file) => (
              <li key={file}>{file}</li>
            ))}
          </ul>
        </>
      )}
    </Notice>
  );
}
