import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { Catatan, TindakLanjutDetail, PageProps } from "../../types";
import { api } from "../../api";
import { DataTable } from "../../components/charts";
import { Button, Confirm, ErrorNotice, Field, LevelTag, Loading, Notice, Page } from "../../components/ui";
import { formatDate, formatDateTime } from "../../format";
import { useResource } from "../../hooks";
import { pathOf } from "../../routes";
import { staff } from "../../strings";
import { BackLink, nipInUrl, ResourceError, studentName, useLecturers, withQuery } from "./shared";
import { CaseBadges, StatusBadge, StatusForm, closingWords, handlerName, isOpen, reasonWords, statusWord } from "./tindak-lanjut-status";
import { NoteList } from "./catatan-list";

const text = staff.followUp;

/** One case. Keyed by its id, so that nothing typed for one case is kept for another. */
export function DetailTindakLanjut(props: PageProps) {
  return <Detail key={props.params.id} {...props} />;
}

function Detail(props: PageProps) {
  const id = props.params.id!;
  const nip = nipInUrl(props);
  const isAdmin = nip !== null;
  const kasus = useResource(() => api.get<TindakLanjutDetail>(`/api/dosen/tindak-lanjut/${encodeURIComponent(id)}`), [id]);
  const [saved, setSaved] = useState<string | null>(null);
  const data = kasus.data;
  const back = <BackLink href={withQuery(pathOf("tindakLanjut"), { nip: nip ?? "" })} label={text.back} />;

  if (!data) {
    return (
      <Page title={text.caseFallbackTitle}>
        {back}
        {kasus.error !== undefined ? <ResourceError resource={kasus} /> : <Loading />}
      </Page>
    );
  }
  return (
    <Page title={text.caseTitle(studentName(data))}>
      {back}
      {/* A reload after a change that failed to load shows why, above the case as it was. */}
      <ResourceError resource={kasus} />
      <Facts kasus={data} studentHref={readsStudent(data, props.user.NIP ?? null, isAdmin) ? withQuery(pathOf("detailMahasiswa", { nim: data.NIM }), { nip: nip ?? "" }) : null} />
      <Levels kasus={data} stoppedAtClosing={!readsStudent(data, props.user.NIP ?? null, isAdmin)} />
      <Timeline kasus={data} />
      <CaseNotes nim={data.NIM} ownOnly={!readsStudent(data, props.user.NIP ?? null, isAdmin)} />
      <section aria-labelledby="ubah-status-judul">
        {saved && <Notice kind="success">{saved}</Notice>}
        {data.dapat_diubah ? (
          <StatusForm
            kasus={data}
            heading={
              <h2 id="ubah-status-judul" class="section-card-title">
                {text.form}
              </h2>
            }
            onSubmit={() => setSaved(null)}
            onChanged={(updated) => {
              setSaved(text.changed(statusWord(updated.status)));
              kasus.reload();
            }}
            onRefused={kasus.reload}
          />
        ) : (
          <>
            <h2 id="ubah-status-judul">{text.form}</h2>
            <ReadOnly kasus={data} />
          </>
        )}
      </section>
      {isAdmin && isOpen(data) && <Reassign kasus={data} onMoved={kasus.reload} />}
    </Page>
  );
}

/** Why this lecturer reads the case without its form: someone else handles it, or it is closed and they no longer advise the student. */
function ReadOnly(props: { kasus: TindakLanjutDetail }) {
  const { kasus } = props;
  return (
    <Notice kind="info">
      <p>{isOpen(kasus) ? text.readOnlyOpen(handlerName(kasus)) : text.readOnlyClosed}</p>
    </Notice>
  );
}

/** Whether the viewer may open the student's page (decisions §13): an admin, the advisor, or the handler while the case is open. */
function readsStudent(kasus: TindakLanjutDetail, viewer: string | null, isAdmin: boolean): boolean {
  return isAdmin || (viewer !== null && (kasus.NIP_doswal === viewer || (isOpen(kasus) && kasus.NIP === viewer)));
}

function Facts(props: { kasus: TindakLanjutDetail; studentHref: string | null }) {
  const { kasus } = props;
  const facts: [string, ComponentChildren][] = [
    [staff.detail.nim, kasus.NIM],
    [text.factStatus, <StatusBadge status={kasus.status} />],
    [text.factReason, reasonWords(kasus).join("; ")],
    [text.factHandler, handlerName(kasus)],
    [text.factAdvisor, kasus.nama_doswal ?? kasus.NIP_doswal ?? text.noAdvisor],
    [text.factOpened, formatDateTime(kasus.dibuka_pada)],
    [isOpen(kasus) ? text.factDays : text.factClosed, isOpen(kasus) ? text.days(kasus.hari_terbuka) : kasus.ditutup_pada ? formatDateTime(kasus.ditutup_pada) : ""],
    [text.factFirstContact, kasus.pertama_dihubungi_pada ? formatDateTime(kasus.pertama_dihubungi_pada) : text.notYet],
    [text.factTarget, formatDateTime(kasus.batas_kontak_pada)],
    [text.factAttempts, String(kasus.percobaan_kontak)],
  ];
  // Decisions §19: why a case closed and the handler's judgement; a case closed before they were asked says so.
  if (!isOpen(kasus)) {
    facts.push([text.factClosing, kasus.alasan_selesai ? (text.closing[kasus.alasan_selesai] ?? kasus.alasan_selesai) : text.closingNotRecorded]);
    facts.push([text.factSupport, kasus.perlu_dukungan ? (text.support[kasus.perlu_dukungan] ?? kasus.perlu_dukungan) : text.closingNotRecorded]);
  }
  return (
    <section class="card" aria-labelledby="ringkasan-kasus-judul">
      <h2 id="ringkasan-kasus-judul" class="section-card-title">
        {text.facts}
      </h2>
      <dl class="student-facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <CaseBadges kasus={kasus} withStatus={false} withReasons={false} />
      {props.studentHref && (
        <p>
          <a href={props.studentHref}>{text.toStudent}</a>
        </p>
      )}
    </section>
  );
}

/** The student's last screenings, newest first: the level words in their colours, and the warning in words. */
function Levels(props: { kasus: TindakLanjutDetail; stoppedAtClosing: boolean }) {
  const rows = props.kasus.tingkat_terakhir;
  return (
    <section aria-labelledby="tingkat-judul">
      <h2 id="tingkat-judul">{text.levels}</h2>
      {props.stoppedAtClosing && <p class="aside">{text.closedForYou}</p>}
      {rows.length === 0 ? (
        <p>{text.levelsNone}</p>
      ) : (
        <div class="compact-table">
          <DataTable
            caption={text.levelsTable}
            columns={[text.date, text.stress, text.motivation, text.warning]}
            rows={rows.map((row) => [
              formatDate(row.tanggal),
              <LevelTag measure="stres" level={row.tingkat_stres} />,
              <LevelTag measure="motivasi" level={row.tingkat_motivasi} />,
              row.early_warning ? <span class="badge badge-warning">{text.warningYes}</span> : text.warningNo,
            ])}
          />
        </div>
      )}
    </section>
  );
}

type TimelineEntry = TindakLanjutDetail["riwayat"][number];

/** The opening, a move, another contact attempt, the student's request, a change of handler (its note names the lecturers), or a critical answer (decisions §20). */
function entryTitle(entry: TimelineEntry): string {
  switch (entry.jenis) {
    case "dibuka":
      return text.openedEntry(statusWord(entry.status_ke));
    case "percobaan_kontak":
      return text.attemptEntry(text.outcomeShort[entry.hasil_kontak ?? ""] ?? "");
    case "permintaan_mahasiswa":
      return text.requestEntry;
    case "penangan":
      return text.reassignedEntry;
    case "butir_kritis":
      return text.criticalEntry;
    default:
      return text.changeEntry(statusWord(entry.status_dari ?? ""), statusWord(entry.status_ke));
  }
}

/** What a move recorded (decisions §19): a contact's outcome, a closing's reason and judgement. */
function entryDetails(entry: TimelineEntry): string | null {
  if (entry.hasil_kontak && entry.jenis === "status") return text.outcomeWords(text.outcomeShort[entry.hasil_kontak] ?? entry.hasil_kontak);
  if (entry.status_ke === "selesai" && entry.jenis === "status") return closingWords(entry);
  return null;
}

/** Every status change with its note, author and time, oldest first: the case's story as it happened. */
function Timeline(props: { kasus: TindakLanjutDetail }) {
  const entries = props.kasus.riwayat;
  return (
    <section aria-labelledby="riwayat-judul">
      <h2 id="riwayat-judul">{text.timeline}</h2>
      {entries.length === 0 ? (
        <p>{text.timelineNone}</p>
      ) : (
        <ol class="note-list follow-up-timeline">
          {entries.map((entry, index) => (
            <li key={index} class="card">
              <h3 class="section-card-title">
                {entryTitle(entry)}
              </h3>
              <p class="student-meta">{text.by(entry.oleh, formatDateTime(entry.waktu))}</p>
              {entryDetails(entry) && <p class="student-meta">{entryDetails(entry)}</p>}
              {entry.catatan && <p class="note-text">{entry.catatan}</p>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * An admin hands an open case to another lecturer, after saying what that means and asking
 * once more: the new handler reads the student's data while the case is open.
 */
function Reassign(props: { kasus: TindakLanjutDetail; onMoved: () => void }) {
  const lecturers = useLecturers(true);
  const [choice, setChoice] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [moved, setMoved] = useState<string | null>(null);
  const others = (lecturers.data ?? []).filter((lecturer) => lecturer.NIP !== props.kasus.NIP);
  const chosen = others.find((lecturer) => lecturer.NIP === choice);

  function ask(event: Event) {
    event.preventDefault();
    setError(null);
    setMoved(null);
    setFieldError(choice ? null : text.reassignMissing);
    if (choice) setConfirming(true);
  }

  async function handOver() {
    setBusy(true);
    try {
      const updated = await api.put<TindakLanjutDetail>(`/api/dosen/tindak-lanjut/${props.kasus.id}/pemilik`, { NIP: choice });
      setChoice("");
      setMoved(text.reassigned(updated.nama_dosen ?? choice));
      props.onMoved();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  return (
    <section class="card" aria-labelledby="pindah-judul">
      <h2 id="pindah-judul" class="section-card-title">
        {text.reassign}
      </h2>
      <p class="aside">{text.reassignIntro}</p>
      <ResourceError resource={lecturers} />
      {error !== null && <ErrorNotice error={error} />}
      {moved && <Notice kind="success">{moved}</Notice>}
      {!lecturers.data ? (
        lecturers.error === undefined && <Loading />
      ) : confirming && chosen ? (
        <Confirm
          id="serahkan"
          question={text.reassignConfirm(studentName(props.kasus), handlerName(props.kasus), chosen.nama_dosen || chosen.NIP)}
          yes={text.reassignYes}
          busy={busy}
          onYes={() => void handOver()}
          onNo={() => setConfirming(false)}
        />
      ) : (
        <form class="form" onSubmit={ask} noValidate>
          <Field label={text.reassignField} error={fieldError}>
            {({ id, describedBy, invalid }) => (
              <select
                id={id}
                value={choice}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                onChange={(event) => {
                  setChoice(event.currentTarget.value);
                  setFieldError(null);
                  setMoved(null);
                }}
              >
                <option value="">{text.reassignPick}</option>
                {others.map((lecturer) => (
                  <option key={lecturer.NIP} value={lecturer.NIP}>
                    {lecturer.nama_dosen}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <div class="button-row">
            <Button type="submit" variant="secondary">
              {text.reassignSubmit}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

/**
 * The counselling notes of the case's student (decisions §19): all of them for whoever may
 * read the student, else the notes the viewer wrote with their replies (a counsellor after
 * the case closed reads the student's answer here). Nothing when the viewer may read none.
 */
function CaseNotes(props: { nim: string; ownOnly: boolean }) {
  const notes = useResource(() => api.get<Catatan[]>(`/api/dosen/catatan/${encodeURIComponent(props.nim)}`).catch(() => null), [props.nim]);
  if (!notes.data || notes.data.length === 0) return null;
  return (
    <section aria-labelledby="catatan-kasus-judul">
      <h2 id="catatan-kasus-judul">{props.ownOnly ? text.notesOnCaseOwn : text.notesOnCase}</h2>
      <p class="aside">{props.ownOnly ? text.notesOnCaseOwnHint : text.notesOnCaseHint}</p>
      <NoteList notes={notes.data} />
    </section>
  );
}
