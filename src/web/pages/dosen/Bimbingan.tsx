import { useEffect, useState } from "preact/hooks";
import type { PageProps } from "../../types";
import { api } from "../../api";
import { Button, Field, LevelTag, Notice, Page } from "../../components/ui";
import { formatDate } from "../../format";
import { useResource } from "../../hooks";
import { navigate } from "../../router";
import { pathOf } from "../../routes";
import { common, staff } from "../../strings";
import { CautionBadge } from "./measures";
import { LecturerPicker, ListHeading, Pager, Photo, studentName, useActingNip, withQuery, type StudentItem, type StudentPage } from "./shared";

const text = staff.list;

/**
 * Mahasiswa bimbingan: the advisees, searchable by NIM or name, by page, by NIM or by risk.
 * The search, the page and the order live in the URL, so that a reload or Back shows the same list.
 */
export function Bimbingan(props: PageProps) {
  const nip = useActingNip(props);
  const q = props.search.get("q")?.trim() ?? "";
  const page = Math.max(1, Number.parseInt(props.search.get("page") ?? "", 10) || 1);
  const risk = props.search.get("sort") === "risk";
  // Decisions §19: only the advisees whose replies the lecturer has not seen.
  const replied = props.search.get("balasan") === "1";
  const waiting = nip === "";

  const [draft, setDraft] = useState(q);
  // Back and forward change the search without typing: the field follows the URL.
  useEffect(() => setDraft(q), [q]);

  const students = useResource(
    () => (waiting ? Promise.resolve(null) : api.get<StudentPage>(withQuery("/api/dosen/mahasiswa", { q, page, sort: risk ? "risk" : "", balasan: replied ? "1" : "", NIP: nip ?? "" }))),
    [q, page, risk, replied, nip],
  );

  const listPath = (changes: Record<string, string | number>) =>
    withQuery(pathOf("bimbingan"), { q, page: page > 1 ? page : "", sort: risk ? "risk" : "", balasan: replied ? "1" : "", nip: nip ?? "", ...changes });

  const result = students.data;
  let summary = "";
  if (students.loading) summary = common.loading;
  else if (result?.total === 0) summary = replied ? text.noneReplied : q ? text.noneFor(q) : text.none;
  else if (result) summary = `${q ? text.foundFor(result.total, q) : text.found(result.total)} · ${common.page(result.page, result.total_pages)}`;

  return (
    <Page title={staff.nav.bimbingan}>
      {nip !== null && <LecturerPicker nip={nip} onPick={(chosen) => navigate(withQuery(pathOf("bimbingan"), { nip: chosen, sort: risk ? "risk" : "" }))} />}
      {waiting ? (
        <Notice kind="info">
          <p>{staff.lecturer.prompt}</p>
        </Notice>
      ) : (
        <>
          <div class="list-tools">
            <form
              role="search"
              class="search-row"
              onSubmit={(event) => {
                event.preventDefault();
                navigate(listPath({ q: draft.trim(), page: "" }));
              }}
            >
              <Field label={text.search} hint={text.searchHint}>
                {({ id, describedBy }) => (
                  <input id={id} type="search" name="q" autocomplete="off" value={draft} aria-describedby={describedBy} onInput={(event) => setDraft(event.currentTarget.value)} />
                )}
              </Field>
              <div class="button-row">
                <Button type="submit">{text.searchSubmit}</Button>
                {q && (
                  <Button variant="secondary" onClick={() => navigate(listPath({ q: "", page: "" }))}>
                    {text.clearSearch}
                  </Button>
                )}
              </div>
            </form>
            <div class="list-filters">
              <Field label={text.show}>
                {({ id }) => (
                  <select id={id} value={replied ? "1" : ""} onChange={(event) => navigate(listPath({ balasan: event.currentTarget.value, page: "" }))}>
                    <option value="">{text.showAll}</option>
                    <option value="1">{text.showReplied}</option>
                  </select>
                )}
              </Field>
              {!replied && (
                <Field label={text.sort}>
                  {({ id }) => (
                    <select id={id} value={risk ? "risk" : ""} onChange={(event) => navigate(listPath({ sort: event.currentTarget.value, page: "" }))}>
                      <option value="">{text.sortNim}</option>
                      <option value="risk">{text.sortRisk}</option>
                    </select>
                  )}
                </Field>
              )}
            </div>
          </div>

          <ListHeading page={page} heading={text.heading} summary={summary} resource={students} />
          {result && (
            <>
              {result.total > 0 && result.data.length === 0 && (
                <p>
                  {text.emptyPage} <a href={listPath({ page: "" })}>{text.firstPage}</a>
                </p>
              )}
              {result.data.length > 0 && (
                <ul class="student-list">
                  {result.data.map((student) => (
                    <StudentCard key={student.NIM} student={student} href={withQuery(pathOf("detailMahasiswa", { nim: student.NIM }), { nip: nip ?? "" })} />
                  ))}
                </ul>
              )}
              <Pager page={page} totalPages={result.total_pages} label={text.pages} pathFor={(page) => listPath({ page })} />
            </>
          )}
        </>
      )}
    </Page>
  );
}

/** One advisee: who, the latest levels and when, and the warnings in words. */
function StudentCard(props: { student: StudentItem; href: string }) {
  const { student } = props;
  const latest = student.last_skrining;
  const meta = [`${staff.detail.nim} ${student.NIM}`, student.kelas, student.angkatan && `${staff.detail.angkatan} ${student.angkatan}`].filter(Boolean).join(" · ");
  // Decisions §19: every reason for attention carries the same badge, besides its own.
  const attention = student.early_warning || student.stres_sangat_tinggi;
  return (
    <li class={`card student-card${attention ? " student-card-warning" : ""}`}>
      <Photo student={student} alt="" class="avatar" />
      <div class="student-main">
        <h3 class="student-name">
          <a href={props.href}>{studentName(student)}</a>
        </h3>
        <p class="student-meta">{meta}</p>
        {(attention || latest?.is_spike || student.balasan_baru > 0 || latest?.validitas?.status === "hati_hati") && (
          <p class="badge-row">
            {attention && <span class="badge badge-warning">{text.attention}</span>}
            {latest?.tingkat_stres === "Tinggi" && latest.tingkat_motivasi === "Rendah" && <span class="badge badge-warning">{text.earlyWarning}</span>}
            {student.stres_sangat_tinggi && <span class="badge badge-danger">{text.veryHighStress}</span>}
            {latest?.is_spike && <span class="badge badge-danger">{text.spike}</span>}
            {student.balasan_baru > 0 && <span class="badge badge-info">{text.newReplies(student.balasan_baru)}</span>}
            {latest && <CautionBadge record={latest} />}
          </p>
        )}
        {latest ? (
          <>
            <p class="level-row">
              <LevelTag measure="stres" level={latest.tingkat_stres} label={text.stress} /> <LevelTag measure="motivasi" level={latest.tingkat_motivasi} label={text.motivation} />
            </p>
            <p class="student-meta">{text.lastScreening(formatDate(latest.tanggal_skrining))}</p>
          </>
        ) : (
          <p class="student-meta">{text.neverScreened}</p>
        )}
      </div>
    </li>
  );
}
