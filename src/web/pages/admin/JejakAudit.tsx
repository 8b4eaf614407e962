import { useRef, useState } from "preact/hooks";
import { api } from "../../api";
import { DataTable } from "../../components/charts";
import { Button, ErrorNotice, Field, Notice } from "../../components/ui";
import { formatDateTime } from "../../format";
import { useResource } from "../../hooks";
import { navigate } from "../../router";
import { pathOf } from "../../routes";
import { admin } from "../../strings/admin";
import { common } from "../../strings";
import type { PageProps } from "../../types";
import { auditActions, type AuditAction } from "../../../db/tables/audit-actions";
import { ListHeading, Pager, withQuery } from "../dosen/shared";
import { CommandHint, ConsolePage, DownloadButton, useFollowUrl, type AuditPage, type AuditVerdict } from "./shared";

const text = admin.jejak;
const filterKeys = ["nim", "pengguna", "aksi", "sejak", "sampai"] as const;
type Filter = Record<(typeof filterKeys)[number], string>;

/** An action in words; a code this build does not know (a newer build's row) as it is. */
const actionLabel = (action: string) => (Object.hasOwn(text.actions, action) ? text.actions[action as AuditAction] : action);

/**
 * Jejak audit: the trail filtered by student, user, action and local day (in the URL),
 * newest first by page; its CSV with the same filter; and the chain's check in words,
 * with the anchor to write down elsewhere.
 */
export function JejakAudit(props: PageProps) {
  const filter = Object.fromEntries(filterKeys.map((key) => [key, props.search.get(key)?.trim() ?? ""])) as Filter;
  const page = Math.max(1, Number.parseInt(props.search.get("page") ?? "", 10) || 1);
  const [draft, setDraft] = useState(filter);
  const key = filterKeys.map((name) => filter[name]).join("|");
  useFollowUrl(key, () => setDraft(filter));
  const rows = useResource(() => api.get<AuditPage>(withQuery("/api/admin/jejak", { ...filter, page })), [key, page]);
  const result = rows.data;
  const summary = rows.loading ? common.loading : result ? (result.total === 0 ? text.none : `${text.found(result.total)} · ${common.page(result.page, result.total_pages)}`) : "";
  const input = (name: keyof Filter, label: string, type = "text", hint?: string) => (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => <input id={id} type={type} value={draft[name]} aria-describedby={describedBy} onInput={(event) => setDraft({ ...draft, [name]: event.currentTarget.value })} />}
    </Field>
  );

  return (
    <ConsolePage current="adminJejak" intro={text.intro}>
      <form
        class="console-filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          navigate(withQuery(pathOf("adminJejak"), Object.fromEntries(filterKeys.map((name) => [name, draft[name].trim()]))));
        }}
      >
        {input("nim", text.nim)}
        {input("pengguna", text.user, "text", text.userHint)}
        <Field label={text.action}>
          {({ id }) => (
            <select id={id} value={draft.aksi} onChange={(event) => setDraft({ ...draft, aksi: event.currentTarget.value })}>
              <option value="">{admin.akun.any}</option>
              {auditActions.map((action) => (
                <option key={action} value={action}>
                  {text.actions[action]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {input("sejak", text.since, "date")}
        {input("sampai", text.until, "date")}
        <div class="button-row">
          <Button type="submit">{text.filter}</Button>
          {key !== "||||" && (
            <Button variant="secondary" onClick={() => navigate(pathOf("adminJejak"))}>
              {text.clear}
            </Button>
          )}
        </div>
      </form>
      <ListHeading page={page} heading={text.heading} summary={summary} resource={rows} />
      {result && result.data.length > 0 && (
        <DataTable
          caption={text.table}
          columns={[text.columns.id, text.columns.time, text.columns.who, text.columns.action, text.columns.nim, text.columns.target, text.columns.detail]}
          numeric={[true, false, false, false, false, false, false]}
          rows={result.data.map((row) => [
            String(row.id),
            typeof row.waktu === "string" ? formatDateTime(row.waktu) : "",
            [row.peran, row.pengguna, row.alamat].filter((part) => part !== null && part !== "").join(" · "),
            `${actionLabel(String(row.aksi))}${row.kali !== 1 ? text.times(Number(row.kali)) : ""}`,
            row.nim ?? "",
            row.target ?? "",
            row.keterangan ?? "",
          ])}
        />
      )}
      {result && <Pager page={page} totalPages={result.total_pages} label={text.pages} pathFor={(target) => withQuery(pathOf("adminJejak"), { ...filter, page: target })} />}
      <DownloadButton path={withQuery("/api/admin/jejak/csv", filter)} label={text.csv} />
      <CommandHint command="skrining audit list --nim 2301001 --format csv --out jejak.csv" />
      <Verify />
    </ConsolePage>
  );
}

/** `audit verify`, in words, with the anchor to keep off the server. */
function Verify() {
  const [verdict, setVerdict] = useState<AuditVerdict | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const said = useRef<HTMLDivElement>(null);
  return (
    <section aria-labelledby="jejak-periksa">
      <h2 id="jejak-periksa">{text.verifyHeading}</h2>
      <p class="aside">{text.verifyIntro}</p>
      <Button
        variant="secondary"
        busy={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            setVerdict(await api.get<AuditVerdict>("/api/admin/jejak/periksa"));
            setTimeout(() => said.current?.focus(), 0);
          } catch (caught) {
            setError(caught);
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? text.verifying : text.verify}
      </Button>
      {error !== null && <ErrorNotice error={error} />}
      {verdict && (
        <div ref={said} tabIndex={-1} class="verdict">
          <Notice kind={verdict.utuh ? "success" : "error"}>
            <p>{verdict.utuh ? (verdict.baris === 0 ? text.empty : text.intact(verdict.baris)) : text.broken(verdict.masalah.length, verdict.baris)}</p>
            {verdict.masalah.length > 0 && (
              <ul>
                {verdict.masalah.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            )}
          </Notice>
          {verdict.jangkar && (
            <>
              <p>{text.anchor}</p>
              <p>
                <code class="anchor">{verdict.jangkar}</code>
              </p>
              <p class="aside">{text.anchorHint}</p>
            </>
          )}
        </div>
      )}
      <CommandHint command="skrining audit verify" />
    </section>
  );
}
