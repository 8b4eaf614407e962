// What the staff pages share: the API's shapes, the admin's chosen lecturer (kept in the
// URL), the lecturer picker, query strings, names and photos.
import type { Static } from "elysia";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { PageProps } from "../../types";
import { ApiError, api } from "../../api";
import { ErrorNotice, Field, Loading, Notice, Page } from "../../components/ui";
import { usePhotoUrl, useResource, type Resource } from "../../hooks";
import { navigate } from "../../router";
import { common, staff } from "../../strings";
import type { Mahasiswa } from "../../types";
import type { LecturerList, StatistikResponse, StudentDetail, StudentList } from "../../../modules/dosen/model";

export type StudentPage = Static<typeof StudentList>;
export type StudentItem = StudentPage["data"][number];
export type StudentFull = Static<typeof StudentDetail>;
export type Lecturer = Static<typeof LecturerList>[number];
export type Statistik = Static<typeof StatistikResponse>;


/** `path?a=1&b=2` with the empty values left out, so that URLs stay short and stable. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

const rememberedNipKey = "skrining.dosen.nip";

function rememberedNip(): string {
  try {
    return sessionStorage.getItem(rememberedNipKey) ?? "";
  } catch {
    return "";
  }
}

function rememberNip(nip: string): void {
  try {
    if (nip) sessionStorage.setItem(rememberedNipKey, nip);
    else sessionStorage.removeItem(rememberedNipKey);
  } catch {
    // Without storage the choice lives in the URL alone.
  }
}

/** `?nip=` of the URL for an admin ("" when absent); null for a lecturer. */
export const nipInUrl = (props: PageProps): string | null => (props.user.role === "admin" ? (props.search.get("nip")?.trim() ?? "") : null);

/**
 * The lecturer an admin acts as on the list and the statistics: `?nip=` of the URL. The menu's links carry no query, so
 * the last choice of this tab is put back into the URL when it has none. Null for a
 * lecturer, who always acts as themselves; "" for an admin who has not chosen yet.
 */
export function useActingNip(props: PageProps): string | null {
  const isAdmin = props.user.role === "admin";
  const inUrl = nipInUrl(props) ?? "";
  const nip = isAdmin ? inUrl || rememberedNip() : null;
  useEffect(() => {
    if (!isAdmin) return;
    if (inUrl) rememberNip(inUrl);
    else if (nip) {
      const search = new URLSearchParams(location.search);
      search.set("nip", nip);
      navigate(`${location.pathname}?${search}`, { replace: true });
    }
  }, [isAdmin, inUrl, nip]);
  return nip;
}

/** Forgets the admin's choice (the picker's empty option), so that it is not put back. */
export const forgetNip = () => rememberNip("");

/** Every lecturer, for an admin; nothing is asked for a lecturer. */
export function useLecturers(isAdmin: boolean) {
  return useResource(() => (isAdmin ? api.get<Lecturer[]>("/api/dosen/daftar") : Promise.resolve([])), [isAdmin]);
}

/** The admin's lecturer picker; `onPick` gets the chosen NIP ("" for none, which `noneLabel` names where it means everyone). */
export function LecturerPicker(props: { nip: string; onPick: (nip: string) => void; noneLabel?: string; hint?: string }) {
  const lecturers = useLecturers(true);
  if (lecturers.error) return <ResourceError resource={lecturers} />;
  const list = lecturers.data;
  if (!list) return <Loading />;
  return (
    <div class="lecturer-picker">
      <Field label={staff.lecturer.label} hint={props.hint ?? staff.lecturer.hint}>
        {({ id, describedBy }) => (
          <select
            id={id}
            value={props.nip}
            aria-describedby={describedBy}
            onChange={(event) => {
              const nip = event.currentTarget.value;
              if (!nip) forgetNip();
              props.onPick(nip);
            }}
          >
            <option value="">{props.noneLabel ?? staff.lecturer.none}</option>
            {list.map((lecturer) => (
              <option key={lecturer.NIP} value={lecturer.NIP}>
                {staff.lecturer.option(lecturer.nama_dosen, lecturer.total_mahasiswa)}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}

/** Whether trying again can help: no connection, a busy or failing server; not a refusal. */
const retryable = (error: unknown) => !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;

export const studentName = (student: Pick<Mahasiswa, "NIM" | "nama_mahasiswa">) => student.nama_mahasiswa || student.NIM;

/**
 * The student's photo, only when one is stored; a file missing on the server hides it
 * rather than showing a broken image. `alt` is empty where the name stands beside it.
 */
export function Photo(props: { student: Pick<Mahasiswa, "NIM" | "foto_profil">; alt: string; class: string }) {
  const url = usePhotoUrl(props.student.foto_profil ? `/api/mahasiswa/profil/foto/${encodeURIComponent(props.student.NIM)}?v=${encodeURIComponent(props.student.foto_profil)}` : null);
  if (!url) return null;
  return <img class={props.class} src={url} alt={props.alt} />;
}

/** A resource's error, with a retry button when trying again may help; nothing without one. */
export function ResourceError(props: { resource: Resource<unknown> }) {
  const { error, reload } = props.resource;
  if (error === undefined) return null;
  return <ErrorNotice error={error} onRetry={retryable(error) ? reload : undefined} />;
}

/**
 * A paged list's heading and its one live region (loading, the count, "nothing found", so
 * that each is read out), then the resource's error. After moving to another page,
 * reading starts again at the heading.
 */
export function ListHeading(props: { page: number; heading: string; summary: string; resource: Resource<unknown> }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const shownPage = useRef(props.page);
  useLayoutEffect(() => {
    if (shownPage.current !== props.page) heading.current?.focus();
    shownPage.current = props.page;
  }, [props.page]);
  return (
    <>
      <h2 ref={heading} tabIndex={-1} class="list-heading">
        {props.heading}
      </h2>
      <p role="status" class="aside">
        {props.summary}
      </p>
      <ResourceError resource={props.resource} />
    </>
  );
}

/** The link back to the list a page was opened from. */
export function BackLink(props: { href: string; label: string }) {
  return (
    <p>
      <a href={props.href}>
        <span aria-hidden="true">← </span>
        {props.label}
      </a>
    </p>
  );
}

/** The previous and next page links under a paged list; `pathFor` builds the link of a page. */
export function Pager(props: { page: number; totalPages: number; label: string; pathFor: (page: number) => string }) {
  if (props.totalPages <= 1) return null;
  return (
    <nav class="list-pager" aria-label={props.label}>
      {props.page > 1 ? (
        <a href={props.pathFor(props.page - 1)}>
          <span aria-hidden="true">← </span>
          {common.previous}
        </a>
      ) : (
        <span />
      )}
      <span>{common.page(props.page, props.totalPages)}</span>
      {props.page < props.totalPages ? (
        <a href={props.pathFor(props.page + 1)}>
          {common.next}
          <span aria-hidden="true"> →</span>
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** A lecturer's own page (their first page, their profile) opened by an admin, who has none of their own. */
export function LecturersOnly(props: { title: string }) {
  return (
    <Page title={props.title}>
      <Notice kind="info">
        <p>{staff.lecturer.lecturersOnly}</p>
      </Notice>
    </Page>
  );
}
