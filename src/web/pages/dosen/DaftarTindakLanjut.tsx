import type { TindakLanjutCase, TindakLanjutFigures, TindakLanjutPage, TindakLanjutSummary, PageProps } from "../../types";
import { api } from "../../api";
import { DataTable } from "../../components/charts";
import { Field, Loading, Page } from "../../components/ui";
import { formatDate, formatNumber } from "../../format";
import { useResource } from "../../hooks";
import { navigate } from "../../router";
import { pathOf } from "../../routes";
import { common, staff } from "../../strings";
import { LecturerPicker, ListHeading, Pager, ResourceError, studentName, useActingNip, withQuery } from "./shared";
import { CaseBadges, closingWords, handlerName, isOld, isOpen } from "./tindak-lanjut-status";

const text = staff.followUp;

/** The status filter of the page's URL and what it asks the API for. */
const statusFilters: Record<string, string> = {
  terbuka: "baru,dihubungi,dirujuk",
  baru: "baru",
  dihubungi: "dihubungi",
  dirujuk: "dirujuk",
  selesai: "selesai",
};
const oldAfterDays = 7;

/**
 * Daftar tindak lanjut: the cases of the lecturer (an admin: of everyone, or of one lecturer), open
 * ones first and the oldest of them first, with the figures above. The filters and the page
 * live in the URL, so that a reload or Back shows the same list.
 */
export function DaftarTindakLanjut(props: PageProps) {
  const nip = useActingNip(props);
  const isAdmin = nip !== null;
  const statusParam = props.search.get("status") ?? "";
  const status = statusParam in statusFilters ? statusParam : "";
  const old = props.search.get("min_hari") === String(oldAfterDays);
  const page = Math.max(1, Number.parseInt(props.search.get("page") ?? "", 10) || 1);

  const cases = useResource(
    () => api.get<TindakLanjutPage>(withQuery("/api/dosen/tindak-lanjut", { status: statusFilters[status], min_hari: old ? oldAfterDays : "", nip: nip ?? "", page })),
    [status, old, nip, page],
  );
  const listPath = (changes: Record<string, string | number>) =>
    withQuery(pathOf("tindakLanjut"), { nip: nip ?? "", status, min_hari: old ? oldAfterDays : "", page: page > 1 ? page : "", ...changes });

  const result = cases.data;
  const pages = result?.pagination;
  const filtered = status !== "" || old;
  let summary = "";
  if (cases.loading) summary = common.loading;
  else if (pages?.total === 0) summary = filtered ? text.none : text.noneAtAll;
  else if (pages) summary = `${text.found(pages.total)} · ${common.page(pages.page, pages.total_pages)}`;

  return (
    <Page title={staff.nav.tindakLanjut}>
      <p class="aside">{text.intro}</p>
      {isAdmin && (
        <LecturerPicker nip={nip} noneLabel={text.lecturerNone} hint={text.lecturerHint} onPick={(chosen) => navigate(withQuery(pathOf("tindakLanjut"), { nip: chosen, status, min_hari: old ? oldAfterDays : "" }))} />
      )}

      <div class="list-tools follow-up-tools">
        <Field label={text.filterStatus}>
          {({ id }) => (
            <select id={id} value={status} onChange={(event) => navigate(listPath({ status: event.currentTarget.value, page: "" }))}>
              <option value="">{text.filterAll}</option>
              <option value="terbuka">{text.filterOpen}</option>
              {Object.keys(text.status).map((each) => (
                <option key={each} value={each}>
                  {text.status[each]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={text.filterAge}>
          {({ id }) => (
            <select id={id} value={old ? String(oldAfterDays) : ""} onChange={(event) => navigate(listPath({ min_hari: event.currentTarget.value, page: "" }))}>
              <option value="">{text.filterAgeAll}</option>
              <option value={String(oldAfterDays)}>{text.filterAgeOld}</option>
            </select>
          )}
        </Field>
      </div>

      <ListHeading page={page} heading={text.heading} summary={summary} resource={cases} />
      {result && pages && (
        <>
          {pages.total > 0 && result.data.length === 0 && (
            <p>
              {text.emptyPage} <a href={listPath({ page: "" })}>{text.firstPage}</a>
            </p>
          )}
          {result.data.length > 0 && (
            <ul class="student-list">
              {result.data.map((kasus) => (
                <CaseCard key={kasus.id} kasus={kasus} viewer={isAdmin ? null : (props.user.NIP ?? "")} href={withQuery(pathOf("detailTindakLanjut", { id: String(kasus.id) }), { nip: nip ?? "" })} />
              ))}
            </ul>
          )}
          <Pager page={page} totalPages={pages.total_pages} label={text.pages} pathFor={(page) => listPath({ page })} />
        </>
      )}
      {/* The figures after the cases: on a phone the cases come first (decisions §19). */}
      <Summary isAdmin={isAdmin} listPath={(lecturer) => withQuery(pathOf("tindakLanjut"), { nip: lecturer, status: "terbuka", min_hari: oldAfterDays })} />
    </Page>
  );
}

/**
 * The two roles of decisions §13 in words, as far as they tell the viewer something: an
 * admin sees both; a lecturer the handler when it is someone else, and the advisor when
 * they handle the case of another lecturer's advisee.
 */
function roles(kasus: TindakLanjutCase, viewer: string | null): string[] {
  const handler = kasus.NIP ? text.handler(handlerName(kasus)) : text.noOwner;
  const advisor = kasus.NIP_doswal ? text.advisor(kasus.nama_doswal || kasus.NIP_doswal) : text.noAdvisor;
  if (viewer === null) return [handler, advisor];
  return [kasus.NIP !== viewer ? handler : "", kasus.NIP_doswal !== viewer ? advisor : ""].filter(Boolean);
}

/** One case: whose, why, its status and how long it has been open. */
function CaseCard(props: { kasus: TindakLanjutCase; viewer: string | null; href: string }) {
  const { kasus } = props;
  const dates = [text.opened(formatDate(kasus.dibuka_pada)), isOpen(kasus) ? text.daysOpen(kasus.hari_terbuka) : kasus.ditutup_pada && text.closed(formatDate(kasus.ditutup_pada))]
    .filter(Boolean)
    .join(" · ");
  return (
    <li class={`card student-card${kasus.terlambat || kasus.permintaan_menunggu || isOld(kasus) ? " student-card-warning" : ""}`}>
      <div class="student-main">
        {/* A restricted student's case is listed so that its owner knows why it waits; it cannot be opened. */}
        <h3 class="student-name">{kasus.dibatasi ? studentName(kasus) : <a href={props.href}>{studentName(kasus)}</a>}</h3>
        <p class="student-meta">{[`${staff.detail.nim} ${kasus.NIM}`, ...roles(kasus, props.viewer)].join(" · ")}</p>
        <CaseBadges kasus={kasus} />
        {kasus.dibatasi && <p class="student-meta">{text.restricted}</p>}
        <p class="student-meta">{dates}</p>
        {kasus.pertama_dihubungi_pada && <p class="student-meta">{text.firstContact(formatDate(kasus.pertama_dihubungi_pada))}</p>}
        {isOpen(kasus) && (kasus.segera || !kasus.pertama_dihubungi_pada) && <p class="student-meta">{text.contactBy(formatDate(kasus.batas_kontak_pada))}</p>}
        {!isOpen(kasus) && <p class="student-meta">{closingWords(kasus)}</p>}
      </div>
    </li>
  );
}

const median = (figures: TindakLanjutFigures) => (figures.median_hari_ke_kontak_pertama === null ? text.summaryNoMedian : formatNumber(figures.median_hari_ke_kontak_pertama));

/**
 * The figures the faculty meets about: for an admin a table of every lecturer and the whole
 * faculty, each lecturer leading to their open cases older than a week; for a lecturer
 * their own three numbers.
 */
function Summary(props: { isAdmin: boolean; listPath: (nip: string) => string }) {
  const summary = useResource(() => api.get<TindakLanjutSummary>("/api/dosen/tindak-lanjut/ringkasan"), []);
  const data = summary.data;
  return (
    <section aria-labelledby="ringkasan-judul">
      <h2 id="ringkasan-judul">{props.isAdmin ? text.summary : text.summaryOwn}</h2>
      {summary.error !== undefined ? (
        <ResourceError resource={summary} />
      ) : !data ? (
        <Loading />
      ) : props.isAdmin ? (
        <div class="compact-table">
          <DataTable
            caption={text.summaryTable}
            columns={[text.summaryLecturer, text.summaryOpen, text.summaryNew, text.summaryLate, text.summaryOld, text.summaryMedian]}
            numeric={[false, true, true, true, true, true]}
            rows={[
              ...data.per_dosen.map((row) => [
                row.NIP ? <a href={props.listPath(row.NIP)}>{row.nama_dosen ?? row.NIP}</a> : text.summaryNoOwner,
                formatNumber(row.terbuka),
                formatNumber(row.baru),
                formatNumber(row.terlambat),
                formatNumber(row.lebih_dari_7_hari),
                median(row),
              ]),
              [
                <strong>{text.summaryFaculty}</strong>,
                formatNumber(data.fakultas.terbuka),
                formatNumber(data.fakultas.baru),
                formatNumber(data.fakultas.terlambat),
                formatNumber(data.fakultas.lebih_dari_7_hari),
                median(data.fakultas),
              ],
            ]}
          />
          <p class="aside">{text.summaryBasis}</p>
        </div>
      ) : (
        <OwnFigures figures={data.per_dosen[0] ?? data.fakultas} />
      )}
    </section>
  );
}

function OwnFigures(props: { figures: TindakLanjutFigures }) {
  const { figures } = props;
  return (
    <>
      <dl class="stat-totals">
        <div class="card">
          <dt>{text.summaryOpen}</dt>
          <dd>{formatNumber(figures.terbuka)}</dd>
        </div>
        <div class="card">
          <dt>{text.summaryLate}</dt>
          <dd>{formatNumber(figures.terlambat)}</dd>
        </div>
        <div class="card">
          <dt>{text.summaryOld}</dt>
          <dd>{formatNumber(figures.lebih_dari_7_hari)}</dd>
        </div>
        <div class="card">
          <dt>{text.summaryMedian}</dt>
          <dd>{median(figures)}</dd>
        </div>
      </dl>
      <p class="aside">{text.summaryBasis}</p>
    </>
  );
}
