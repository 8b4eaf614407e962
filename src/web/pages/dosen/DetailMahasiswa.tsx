import { useRef, useState } from "preact/hooks";
import { ApiError, api } from "../../api";
import { DataTable, LineChart } from "../../components/charts";
import { Button, ErrorNotice, Field, Loading, LevelTag, Notice, Page } from "../../components/ui";
import { formatDate, formatDateTime, formatNumber, formatShortDate } from "../../format";
import { useResource } from "../../hooks";
import { scales } from "../../levels";
import { pathOf } from "../../routes";
import { staff } from "../../strings";
import type { Catatan, TindakLanjutCase, Mahasiswa, PageProps, Skrining } from "../../types";
import { BackLink, nipInUrl, Photo, ResourceError, studentName, useLecturers, withQuery, type StudentFull } from "./shared";
import { CaseBadges, StatusForm, handlerName, reasonWords, statusWord } from "./tindak-lanjut-status";
import { NoteList } from "./catatan-list";
import { MeasureLines, ValidityCaution } from "./measures";
import { MoodMonth, SharedDiary } from "./student-records";

const text = staff.detail;

/** One advisee in full. Keyed by NIM, so that nothing typed for one student is kept for another. */
export function DetailMahasiswa(props: PageProps) {
  return <Detail key={props.params.nim} {...props} />;
}

function Detail(props: PageProps) {
  const nim = props.params.nim!;
  // Only the URL's lecturer (from the list's link), never one remembered from an earlier
  // list: a note must not go out in the name of a lecturer the admin did not come from.
  const nip = nipInUrl(props);
  const detail = useResource(() => api.get<StudentFull>(withQuery(`/api/dosen/mahasiswa/${encodeURIComponent(nim)}`, { NIP: nip ?? "" })), [nim, nip]);
  const data = detail.data;
  const back = <BackLink href={withQuery(pathOf("bimbingan"), { nip: nip ?? "" })} label={text.back} />;

  if (!data) {
    return (
      <Page title={text.title}>
        {back}
        {refusedAdvisee(detail.error) ? <OutOfScope nim={nim} error={detail.error} /> : detail.error !== undefined ? <ResourceError resource={detail} /> : <Loading />}
      </Page>
    );
  }
  const student = data.mahasiswa;
  return (
    <Page title={studentName(student)}>
      {back}
      <Profile student={student} latest={data.riwayat[0]} />
      <TindakLanjut kasus={data.tindak_lanjut} nip={nip} onChanged={detail.reload} />
      <Progress riwayat={data.riwayat} />
      <MoodMonth nim={student.NIM} />
      <SharedDiary nim={student.NIM} />
      <Notes student={student} catatan={data.catatan} adminNip={nip === null ? null : nip || student.NIP_doswal || ""} onSaved={detail.reload} />
    </Page>
  );
}

function Profile(props: { student: Mahasiswa; latest: Skrining | undefined }) {
  const { student, latest } = props;
  const facts: [string, string | null][] = [
    [text.nim, student.NIM],
    [text.kelas, student.kelas],
    [text.angkatan, student.angkatan],
    [text.ipk, student.IPK === null ? null : formatNumber(student.IPK)],
    [text.gender, student.gender],
    [text.usia, student.usia === null ? null : text.usiaValue(student.usia)],
    [text.olahraga, student.freq_olahraga],
    [text.tidur, student.durasi_tidur],
  ];
  return (
    <section class="card student-profile" aria-labelledby="profil-judul">
      <Photo student={student} alt={text.photo(studentName(student))} class="student-photo" />
      <div class="student-profile-main">
        <h2 id="profil-judul">{text.profile}</h2>
        <dl class="student-facts">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd class={value ? undefined : "aside"}>{value || text.notFilled}</dd>
            </div>
          ))}
        </dl>
        {latest ? (
          <>
            <p class="level-row">
              <LevelTag measure="stres" level={latest.tingkat_stres} label={staff.list.stress} /> <LevelTag measure="motivasi" level={latest.tingkat_motivasi} label={staff.list.motivation} />{" "}
              <span class="student-meta">{staff.list.lastScreening(formatDate(latest.tanggal_skrining))}</span>
            </p>
            <ValidityCaution record={latest} />
            <MeasureLines record={latest} />
          </>
        ) : (
          <p class="student-meta">{staff.list.neverScreened}</p>
        )}
      </div>
    </section>
  );
}

/**
 * The student's open follow-up case, if any: its status, a link to its timeline, and the
 * status form. A case closed here leaves the page with the success and no form.
 */
function TindakLanjut(props: { kasus: TindakLanjutCase | null; nip: string | null; onChanged: () => void }) {
  const followUp = staff.followUp;
  const [saved, setSaved] = useState<string | null>(null);
  const { kasus } = props;
  return (
    <section aria-labelledby="tindak-lanjut-judul">
      <h2 id="tindak-lanjut-judul">{followUp.onStudent}</h2>
      {saved && <Notice kind="success">{saved}</Notice>}
      {!kasus ? (
        <p>{followUp.onStudentNone}</p>
      ) : (
        <>
          <CaseBadges kasus={kasus} />
          <p class="student-meta">{reasonWords(kasus).join("; ")}</p>
          <p class="student-meta">
            {followUp.opened(formatDate(kasus.dibuka_pada))} · {followUp.daysOpen(kasus.hari_terbuka)} · {followUp.handler(handlerName(kasus))}
          </p>
          <p>
            <a href={withQuery(pathOf("detailTindakLanjut", { id: String(kasus.id) }), { nip: props.nip ?? "" })}>{followUp.onStudentLink}</a>
          </p>
          {kasus.dapat_diubah ? (
            <StatusForm
              key={kasus.id}
              kasus={kasus}
              heading={<h3 class="section-card-title">{followUp.form}</h3>}
              onSubmit={() => setSaved(null)}
              onChanged={(updated) => {
                setSaved(followUp.changed(statusWord(updated.status)));
                props.onChanged();
              }}
              onRefused={props.onChanged}
            />
          ) : (
            <Notice kind="info">
              <p>{followUp.readOnlyOpen(handlerName(kasus))}</p>
            </Notice>
          )}
        </>
      )}
    </section>
  );
}

/** The scores over time (oldest left) with their numbers, then every screening. */
function Progress(props: { riwayat: readonly Skrining[] }) {
  const oldestFirst = [...props.riwayat].reverse();
  const points = (value: (record: Skrining) => number) =>
    oldestFirst.map((record) => ({ x: Date.parse(record.tanggal_skrining), y: value(record), label: formatShortDate(record.tanggal_skrining) }));
  return (
    <section aria-labelledby="perkembangan-judul">
      <h2 id="perkembangan-judul">{text.progress}</h2>
      {oldestFirst.length === 0 ? (
        <p>{text.neverScreened}</p>
      ) : (
        <>
          <div class="compact-table">
            <h3>{text.stressChart}</h3>
            <LineChart title={text.stressChartTitle} points={points((record) => record.score_stress)} scale={scales.stres} />
            <DataTable
              caption={text.stressTable}
              columns={[text.date, text.score, text.level]}
              numeric={[false, true, false]}
              rows={oldestFirst.map((record) => [formatDateTime(record.tanggal_skrining), formatNumber(record.score_stress), <LevelTag measure="stres" level={record.tingkat_stres} />])}
            />
          </div>
          <div class="compact-table">
            <h3>{text.sdiChart}</h3>
            <LineChart title={text.sdiChartTitle} points={points((record) => record.score_sdi)} scale={scales.motivasi} />
            <DataTable
              caption={text.sdiTable}
              columns={[text.date, text.sdi, text.level]}
              numeric={[false, true, false]}
              rows={oldestFirst.map((record) => [formatDateTime(record.tanggal_skrining), formatNumber(record.score_sdi), <LevelTag measure="motivasi" level={record.tingkat_motivasi} />])}
            />
          </div>
          <h3>{text.history}</h3>
          <p class="aside">{text.historyCount(props.riwayat.length)}</p>
          <ol class="screening-list">
            {props.riwayat.map((record) => (
              <li key={record.Id_skrining} class="card">
                <p class="screening-date">{formatDateTime(record.tanggal_skrining)}</p>
                <p class="level-row">
                  <LevelTag measure="stres" level={record.tingkat_stres} label={staff.list.stress} />{" "}
                  <span class="student-meta">{withConfidence(text.stressScore(formatNumber(record.score_stress)), record.probabilitas_stres)}</span>{" "}
                  <LevelTag measure="motivasi" level={record.tingkat_motivasi} label={staff.list.motivation} />{" "}
                  <span class="student-meta">{withConfidence(text.sdiScore(formatNumber(record.score_sdi)), record.probabilitas_motivasi)}</span>
                </p>
                <ValidityCaution record={record} />
                <MeasureLines record={record} />
                <p>
                  <strong>{text.advice}:</strong> {record.saran}
                </p>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

const percent = new Intl.NumberFormat("id-ID", { style: "percent", maximumFractionDigits: 0 });

/**
 * A score with the model's confidence in the level beside it (its probability of that
 * level); the thresholds, a model kind without probabilities and screenings from before
 * they were kept show the score alone.
 */
function withConfidence(score: string, probability: number | null): string {
  return probability === null ? score : `${score}; ${text.confidence(percent.format(probability))}`;
}

const noteLimit = 5000;

/**
 * The notes with the student's replies, newest first, and a form for a new one. The typed
 * text stays until the server has saved it: a refusal or a lost connection loses nothing.
 * `adminNip` is the lecturer an admin writes for: the list's, else the student's advisor
 * ("" when neither, which the server refuses with its own text); null for a lecturer.
 */
function Notes(props: { student: Mahasiswa; catatan: readonly Catatan[]; adminNip: string | null; onSaved: () => void }) {
  const notes = staff.notes;
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const lecturers = useLecturers(props.adminNip !== null);
  const actingName = lecturers.data?.find((lecturer) => lecturer.NIP === props.adminNip)?.nama_dosen ?? props.adminNip;
  // Characters as the server counts them (code points), not UTF-16 units.
  const length = Array.from(draft.trim()).length;

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    setSaved(null);
    const problem = length === 0 ? notes.empty : length > noteLimit ? notes.tooLong : null;
    setFieldError(problem);
    if (problem) {
      field.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const body = { NIM: props.student.NIM, isi_catatan: draft, ...(props.adminNip !== null ? { NIP: props.adminNip } : {}) };
      const answer = await api.post<{ message: string; id: number }>("/api/dosen/catatan", body);
      setDraft("");
      setSaved(answer.message);
      props.onSaved();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="catatan-judul">
      <h2 id="catatan-judul">{notes.heading}</h2>
      <div class="card">
        <h3 class="section-card-title">{notes.write}</h3>
        {props.adminNip && actingName && <p class="aside">{staff.lecturer.actingAs(actingName)}</p>}
        {error !== null && <ErrorNotice error={error} />}
        {saved && <Notice kind="success">{saved}</Notice>}
        <form class="form" onSubmit={submit} noValidate>
          <Field label={notes.field} hint={notes.hint(length)} error={fieldError}>
            {({ id, describedBy, invalid }) => (
              <textarea
                ref={field}
                id={id}
                name="isi_catatan"
                value={draft}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                onInput={(event) => {
                  setDraft(event.currentTarget.value);
                  setSaved(null);
                }}
              />
            )}
          </Field>
          <div class="button-row">
            <Button type="submit" busy={busy}>
              {busy ? notes.submitting : notes.submit}
            </Button>
          </div>
        </form>
      </div>
      {props.catatan.length === 0 ? (
        <p>{notes.none}</p>
      ) : (
        <NoteList notes={props.catatan} />
      )}
    </section>
  );
}

/** The advisor scope's refusal: a student this lecturer may not read (now). */
const refusedAdvisee = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 403;

/**
 * A student the lecturer may not read (decisions §19): when the student moved away from them,
 * the page says when and to whom; else the refusal. Either way the notes the lecturer wrote,
 * with their replies (the notes route still answers their author), and nothing else.
 */
function OutOfScope(props: { nim: string; error: ApiError }) {
  const moved = props.error.body.pindah_dosen_wali as { tanggal: string; nama_dosen_wali_baru: string | null } | undefined;
  const notes = useResource(() => api.get<Catatan[]>(`/api/dosen/catatan/${encodeURIComponent(props.nim)}`).catch(() => [] as Catatan[]), [props.nim]);
  return (
    <>
      {moved ? (
        <Notice kind="info">
          <p>{text.moved(formatDate(moved.tanggal), moved.nama_dosen_wali_baru)}</p>
          <p>{text.movedDetail}</p>
        </Notice>
      ) : (
        <ErrorNotice error={props.error} />
      )}
      {notes.data && notes.data.length > 0 && (
        <section aria-labelledby="catatan-lama-judul">
          <h2 id="catatan-lama-judul">{text.ownNotes}</h2>
          <NoteList notes={notes.data} />
        </section>
      )}
    </>
  );
}
