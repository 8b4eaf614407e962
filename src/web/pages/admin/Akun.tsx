import { useState } from "preact/hooks";
import { api, request } from "../../api";
import { DataTable } from "../../components/charts";
import { Button, Field, Notice } from "../../components/ui";
import { useResource } from "../../hooks";
import { navigate } from "../../router";
import { pathOf } from "../../routes";
import { admin } from "../../strings/admin";
import { common } from "../../strings";
import type { PageProps } from "../../types";
import { ListHeading, Pager, withQuery } from "../dosen/shared";
import { AkunImpor } from "./AkunImpor";
import { AkunTambah } from "./AkunTambah";
import { useAction, OutcomeNotice } from "../../components/outcome";
import { CommandHint, ConfirmAct, ConsolePage, SelectField, useFollowUrl, type AccountItem, type AccountPage } from "./shared";

const text = admin.akun;

/** What the page is asking about one account: a one-time password, its deactivation or its activation (each confirmed, decisions §21). */
type Pending = { kind: "reset" | "deactivate" | "activate"; username: string } | null;

const pendingActs = {
  reset: { route: "reset-password", question: text.resetQuestion, yes: text.resetYes },
  deactivate: { route: "nonaktifkan", question: text.deactivateQuestion, yes: text.deactivateYes },
  activate: { route: "aktifkan", question: text.activateQuestion, yes: text.activateYes },
} as const;

/**
 * Akun: the accounts by role, state and a search text (in the URL, so that a reload or
 * Back shows the same list), with a one-time password, activation and deactivation per
 * account; below, one new account and a roster's import.
 */
export function Akun(props: PageProps) {
  const q = props.search.get("q")?.trim() ?? "";
  const role = props.search.get("peran") ?? "";
  const state = props.search.get("status") ?? "";
  const page = Math.max(1, Number.parseInt(props.search.get("page") ?? "", 10) || 1);
  const [draft, setDraft] = useState({ q, role, state });
  useFollowUrl(`${q}|${role}|${state}`, () => setDraft({ q, role, state }));

  const accounts = useResource(() => api.get<AccountPage>(withQuery("/api/admin/akun", { q, peran: role, status: state, page })), [q, role, state, page]);
  const listPath = (changes: Record<string, string | number>) => withQuery(pathOf("adminAkun"), { q, peran: role, status: state, page: page > 1 ? page : "", ...changes });
  const [pending, setPending] = useState<Pending>(null);
  const { outcome, setOutcome } = useAction();
  const [oneTime, setOneTime] = useState<{ username: string; password: string } | null>(null);

  const result = accounts.data;
  const summary = accounts.loading ? common.loading : result ? (result.total === 0 ? text.none : `${text.found(result.total)} · ${common.page(result.page, result.total_pages)}`) : "";

  const ask = (kind: NonNullable<Pending>["kind"], username: string) => {
    setOutcome(null);
    setOneTime(null);
    setPending({ kind, username });
  };
  const pendingPath = pending && `/api/admin/akun/${encodeURIComponent(pending.username)}/${pendingActs[pending.kind].route}`;

  return (
    <ConsolePage current="adminAkun" intro={text.intro}>
      <form
        role="search"
        class="console-filters"
        onSubmit={(event) => {
          event.preventDefault();
          navigate(withQuery(pathOf("adminAkun"), { q: draft.q.trim(), peran: draft.role, status: draft.state }));
        }}
      >
        <Field label={text.search} hint={text.searchHint}>
          {({ id, describedBy }) => <input id={id} type="search" value={draft.q} aria-describedby={describedBy} onInput={(event) => setDraft({ ...draft, q: event.currentTarget.value })} />}
        </Field>
        <SelectField label={text.role} value={draft.role} options={text.roles} any={text.any} onChange={(role) => setDraft({ ...draft, role })} />
        <SelectField label={text.state} value={draft.state} options={text.states} any={text.any} onChange={(state) => setDraft({ ...draft, state })} />
        <div class="button-row">
          <Button type="submit">{text.filter}</Button>
        </div>
      </form>

      <ListHeading page={page} heading={text.heading} summary={summary} resource={accounts} />
      <OutcomeNotice outcome={outcome} focus={false} />
      {oneTime && (
        <Notice kind="warning">
          <p>{text.resetDone(oneTime.username)}</p>
          <p>
            <code class="one-time-password">{oneTime.password}</code>
          </p>
          <p>{text.resetOnce}</p>
        </Notice>
      )}
      {pending && pendingPath && (
        <ConfirmAct
          key={pendingPath}
          question={pendingActs[pending.kind].question(pending.username)}
          yes={pendingActs[pending.kind].yes}
          method="POST"
          path={pendingPath}
          onCancel={() => setPending(null)}
          act={async (headers) => {
            const answer = await request<{ message: string; password?: string }>("POST", pendingPath, { json: {}, headers });
            setPending(null);
            setOutcome({ kind: "success", text: answer.message });
            setOneTime(answer.password ? { username: pending.username, password: answer.password } : null);
            accounts.reload();
          }}
        />
      )}
      {result && result.data.length > 0 && (
        <DataTable
          caption={text.table}
          stacked
          columns={[text.columns.username, text.columns.name, text.columns.role, text.columns.id, text.columns.state, text.columns.actions]}
          rows={result.data.map((account) => [
            account.username,
            account.nama ?? "",
            text.roles[account.role] ?? account.role,
            account.nim ?? account.nip ?? "",
            <AccountState account={account} />,
            <AccountActions
              account={account}
              self={account.username === props.user.username}
              onReset={() => ask("reset", account.username)}
              onDeactivate={() => ask("deactivate", account.username)}
              onActivate={() => ask("activate", account.username)}
            />,
          ])}
        />
      )}
      {result && <Pager page={page} totalPages={result.total_pages} label={text.pages} pathFor={(target) => listPath({ page: target })} />}
      <CommandHint command="skrining accounts list --role mahasiswa" />

      <AkunTambah onAdded={accounts.reload} />
      <AkunImpor onImported={accounts.reload} />
    </ConsolePage>
  );
}

function AccountState(props: { account: AccountItem }) {
  const { account } = props;
  const notes = [account.under_18 ? text.minor : "", account.password_sementara ? text.temporary : ""].filter(Boolean);
  return (
    <>
      <span class={`badge ${account.disabled ? "badge-danger" : account.activated ? "badge-info" : "badge-warning"}`}>
        {account.disabled ? text.disabled : account.activated ? text.active : text.inactive}
      </span>
      {notes.length > 0 && <span class="aside"> ({notes.join(", ")})</span>}
    </>
  );
}

function AccountActions(props: { account: AccountItem; self: boolean; onReset: () => void; onDeactivate: () => void; onActivate: () => void }) {
  return (
    <div class="row-actions" role="group" aria-label={text.actionsFor(props.account.username)}>
      {!props.self && (
        <Button variant="secondary" onClick={props.onReset}>
          {text.reset}
        </Button>
      )}
      {(!props.account.activated || props.account.disabled) && (
        <Button variant="secondary" onClick={props.onActivate}>
          {text.activate}
        </Button>
      )}
      {!props.account.disabled && !props.self && (
        <Button variant="danger" onClick={props.onDeactivate}>
          {text.deactivate}
        </Button>
      )}
    </div>
  );
}
