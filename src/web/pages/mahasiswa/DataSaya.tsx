import { useEffect, useState } from "preact/hooks";
import type { PageProps } from "../../types";
import { api } from "../../api";
import { DataTable } from "../../components/charts";
import { ErrorNotice, LevelTag, Loading, Notice, Page } from "../../components/ui";
import { formatDate, formatDateTime, formatNumber, todayLocal } from "../../format";
import { usePhotoUrl, useResource } from "../../hooks";
import { privacy, student } from "../../strings";
import type { StudentData } from "../../types";
import { AccessList } from "./AccessList";

const text = privacy.dataSaya;

/**
 * Data saya: everything skrining holds about the student (`GET /api/mahasiswa/data-saya`),
 * section by section, who else opened it, and the whole document as a file to keep.
 */
export function DataSaya({ user }: PageProps) {
  const data = useResource(() => api.get<StudentData>("/api/mahasiswa/data-saya"), [user.Id_User]);
  return (
    <Page title={text.title}>
      <p>{text.intro}</p>
      {data.error ? (
        <ErrorNotice error={data.error} onRetry={data.reload} />
      ) : !data.data ? (
        <Loading />
      ) : (
        <Document data={data.data} nim={user.NIM ?? ""} />
      )}
    </Page>
  );
}

function Document({ data, nim }: { data: StudentData; nim: string }) {
  return (
    <>
      <p class="hint">{text.made(formatDateTime(data.dibuat_pada))}</p>
      <Download data={data} nim={nim} />
      {data.dibatasi_sejak && (
        <Notice kind="info">
          <p>{text.restricted(formatDateTime(data.dibatasi_sejak))}</p>
        </Notice>
      )}
      <ProfileSection data={data} />
      <ScreeningSection screenings={data.skrining} />
      <MoodSection moods={data.mood} />
      <DiarySection entries={data.jurnal} />
      <NotesSection notes={data.catatan} />
      <RequestsSection requests={data.permintaan_kontak} />
      <ConsentSection acknowledgements={data.pemberitahuan_privasi} />
      <AccessSection accesses={data.dilihat_oleh} />
      <section class="card" aria-labelledby="data-hak">
        <h2 id="data-hak">{text.rightsTitle}</h2>
        <p>{text.rights}</p>
      </section>
    </>
  );
}

/** The document exactly as the server gave it, as a JSON file made in the browser: nothing is fetched again. */
function Download({ data, nim }: { data: StudentData; nim: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const made = URL.createObjectURL(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: "application/json" }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [data]);
  return (
    <div class="download">
      {url && (
        <a class="button button-primary" href={url} download={text.fileName(nim, todayLocal())} aria-describedby="data-unduh-petunjuk">
          {text.download}
        </a>
      )}
      <p class="hint" id="data-unduh-petunjuk">
        {text.downloadHint}
      </p>
    </div>
  );
}

function ProfileSection({ data }: { data: StudentData }) {
  const photoUrl = usePhotoUrl(data.foto_url);
  return (
    <section class="card" aria-labelledby="data-profil">
      <h2 id="data-profil">{text.profileTitle}</h2>
      {photoUrl && <img class="photo" src={photoUrl} alt={text.photoAlt} width={160} height={160} />}
      <dl class="facts">
        {/* The photo's file name is the server's business: the photo itself is shown above. */}
        {Object.entries(data.profil)
          .filter(([key]) => key !== "foto_profil")
          .map(([key, value]) => (
            <div key={key}>
              <dt>{text.profileLabels[key] ?? key}</dt>
              <dd>{value === null || value === "" ? text.notSet : typeof value === "number" ? formatNumber(value) : String(value)}</dd>
            </div>
          ))}
      </dl>
    </section>
  );
}

function ScreeningSection({ screenings }: { screenings: StudentData["skrining"] }) {
  return (
    <section class="card" aria-labelledby="data-skrining">
      <h2 id="data-skrining">{text.screeningTitle}</h2>
      {screenings.length === 0 ? (
        <p>{text.screeningEmpty}</p>
      ) : (
        <ul class="entry-list">
          {screenings.map((screening) => {
            const answers = Object.entries(screening.input_jawaban);
            return (
              <li key={screening.Id_skrining} class="entry">
                <h3>{text.screeningHeading(formatDate(screening.tanggal_skrining))}</h3>
                <p class="level-pair">
                  <LevelTag measure="stres" level={screening.tingkat_stres} label={text.stress} />
                  <span class="cell-score">{text.score(formatNumber(screening.score_stress))}</span>
                  <LevelTag measure="motivasi" level={screening.tingkat_motivasi} label={text.motivation} />
                  <span class="cell-score">{text.score(formatNumber(screening.score_sdi))}</span>
                </p>
                <p class="entry-content">{screening.saran}</p>
                <details>
                  <summary>{text.answers(answers.length)}</summary>
                  <dl class="answers">
                    {answers.map(([key, value]) => (
                      <div key={key}>
                        <dt>{key}</dt>
                        <dd>{typeof value === "string" || typeof value === "number" ? String(value) : JSON.stringify(value)}</dd>
                      </div>
                    ))}
                  </dl>
                </details>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function MoodSection({ moods }: { moods: StudentData["mood"] }) {
  return (
    <section class="card" aria-labelledby="data-mood">
      <h2 id="data-mood">{text.moodTitle}</h2>
      {moods.length === 0 ? (
        <p>{text.moodEmpty}</p>
      ) : (
        <DataTable caption={text.moodCaption(moods.length)} columns={text.moodColumns} rows={moods.map((mood) => [formatDate(mood.date), student.moodLabel(mood.mood_value)])} />
      )}
    </section>
  );
}

function DiarySection({ entries }: { entries: StudentData["jurnal"] }) {
  return (
    <section class="card" aria-labelledby="data-jurnal">
      <h2 id="data-jurnal">{text.diaryTitle}</h2>
      {entries.length === 0 ? (
        <p>{text.diaryEmpty}</p>
      ) : (
        <ul class="entry-list">
          {entries.map((entry) => (
            <li key={entry.id} class="entry">
              <h3>{entry.title || text.untitled}</h3>
              <p class="entry-date">{formatDate(entry.date)}</p>
              <p class="entry-content">{entry.content}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function NotesSection({ notes }: { notes: StudentData["catatan"] }) {
  return (
    <section class="card" aria-labelledby="data-catatan">
      <h2 id="data-catatan">{text.notesTitle}</h2>
      {notes.length === 0 ? (
        <p>{text.notesEmpty}</p>
      ) : (
        <ul class="entry-list">
          {notes.map((note) => (
            <li key={note.Id_catatan} class="entry">
              <h3>{text.noteHeading(note.nama_dosen, note.NIP, formatDate(note.tanggal_catat))}</h3>
              <p class="entry-content">{note.isi_catatan}</p>
              {note.reply ? (
                <>
                  <p class="entry-date">{text.reply(note.tanggal_reply ? formatDateTime(note.tanggal_reply) : "")}</p>
                  <p class="entry-content">{note.reply}</p>
                </>
              ) : (
                <p class="hint">{text.noReply}</p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Decisions §19: the student's requests to be contacted, with what they wrote. */
function RequestsSection({ requests }: { requests: StudentData["permintaan_kontak"] }) {
  return (
    <section class="card" aria-labelledby="data-permintaan">
      <h2 id="data-permintaan">{text.requestsTitle}</h2>
      {requests.length === 0 ? (
        <p>{text.requestsEmpty}</p>
      ) : (
        <ul class="entry-list">
          {requests.map((request) => (
            <li key={request.waktu} class="entry">
              <p class="entry-date">{formatDateTime(request.waktu)}</p>
              <p class="entry-content">{request.pesan || text.requestNoMessage}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ConsentSection({ acknowledgements }: { acknowledgements: StudentData["pemberitahuan_privasi"] }) {
  return (
    <section class="card" aria-labelledby="data-persetujuan">
      <h2 id="data-persetujuan">{text.consentTitle}</h2>
      {acknowledgements.length === 0 ? (
        <p>{text.consentEmpty}</p>
      ) : (
        <ul>
          {acknowledgements.map((acknowledgement) => (
            <li key={acknowledgement.versi}>{text.consentItem(acknowledgement.versi, formatDateTime(acknowledgement.disetujui_pada))}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AccessSection({ accesses }: { accesses: StudentData["dilihat_oleh"] }) {
  return (
    <section class="card" aria-labelledby="data-akses">
      <h2 id="data-akses">{text.accessTitle}</h2>
      <p>{text.accessIntro}</p>
      {accesses.length === 0 ? <p>{text.accessEmpty}</p> : <AccessList accesses={accesses} />}
    </section>
  );
}
