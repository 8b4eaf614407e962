import { useEffect } from "preact/hooks";
import { api } from "../../api";
import { DataTable } from "../../components/charts";
import { Button, Loading, Notice } from "../../components/ui";
import { formatDateTime } from "../../format";
import { useResource } from "../../hooks";
import { admin } from "../../strings/admin";
import type { PageProps } from "../../types";
import { ResourceError } from "../dosen/shared";
import { fileSize } from "../../../file-size";
import { useAction, OutcomeNotice } from "../../components/outcome";
import { ConsolePage, DownloadButton, type BackupsAnswer } from "./shared";
import { periodInWords } from "../../../period-words";

const text = admin.cadangan;

/** How often the page asks again while a scheduled backup is being written (its button waits for it). */
const followRunningMilliseconds = 2000;


/**
 * Cadangan: the automatic backups of the running server (where, how often, how many,
 * the next and the last), their archives with size and time, a backup now, and the
 * download of one. Restoring stays a command.
 */
export function Cadangan(_props: PageProps) {
  const backups = useResource(() => api.get<BackupsAnswer>("/api/admin/cadangan"));
  const { busy, outcome, run } = useAction();
  const data = backups.data;
  const schedule = data?.jadwal;
  // The list is read again whatever the outcome: a failed backup may have removed nothing, or been the last one.
  const backUpNow = () => run(() => api.post<{ message: string }>("/api/admin/cadangan").then((answer) => answer.message)).finally(backups.reload);
  // A scheduled backup being written holds the button: the page follows it until it has ended, then shows how.
  const running = schedule?.running === true;
  useEffect(() => {
    if (!running || backups.loading) return;
    const timer = setTimeout(backups.reload, followRunningMilliseconds);
    return () => clearTimeout(timer);
  }, [running, backups.loading]);

  return (
    <ConsolePage current="adminCadangan" intro={text.intro}>
      <ResourceError resource={backups} />
      {!data ? (
        backups.loading && <Loading />
      ) : !schedule ? (
        <Notice kind="warning">
          <p>{text.off}</p>
          <p>
            {text.offHint} <code>skrining backup /srv/cadangan/skrining.tar.gz</code>
          </p>
        </Notice>
      ) : (
        <>
          <h2>{text.schedule}</h2>
          <dl class="facts">
            <div>
              <dt>{text.folder}</dt>
              <dd>
                <code>{schedule.folder}</code>
              </dd>
            </div>
            <div>
              <dt>{text.every}</dt>
              <dd>{periodInWords(schedule.everyMilliseconds)}</dd>
            </div>
            <div>
              <dt>{text.keep}</dt>
              <dd>{text.keepValue(schedule.keep)}</dd>
            </div>
            <div>
              <dt>{text.encryption}</dt>
              <dd>{schedule.encrypted ? text.encrypted : text.notEncrypted}</dd>
            </div>
            <div>
              <dt>{text.next}</dt>
              <dd>{formatDateTime(schedule.nextDue)}</dd>
            </div>
            <div>
              <dt>{text.last}</dt>
              <dd>{schedule.last ? (schedule.last.ok ? text.lastOk(formatDateTime(schedule.last.at)) : text.lastFailed(formatDateTime(schedule.last.at), schedule.last.reason ?? "")) : text.none}</dd>
            </div>
          </dl>
          {schedule.running && !busy && (
            <p role="status" class="aside">
              {text.running}
            </p>
          )}
          <OutcomeNotice outcome={outcome} focus={false} />
          <div class="button-row">
            <Button busy={busy} disabled={schedule.running} onClick={() => void backUpNow()}>
              {busy ? text.nowBusy : text.now}
            </Button>
          </div>

          <h2>{text.listHeading}</h2>
          <p class="aside" id="cadangan-catatan">
            {text.downloadNote}
          </p>
          {data.cadangan.length === 0 ? (
            <p>{text.empty}</p>
          ) : (
            <DataTable
              caption={text.table}
              columns={[text.columns.name, text.columns.time, text.columns.size, text.columns.kind, text.columns.download]}
              numeric={[false, false, true, false, false]}
              rows={data.cadangan.map((backup) => [
                backup.name,
                formatDateTime(backup.modifiedAt),
                fileSize(backup.size),
                [backup.kind ? text.kinds[backup.kind] : text.other, backup.takenBy ? text.takenBy(backup.takenBy) : "", backup.encrypted ? text.encryptedKind : ""].filter(Boolean).join(", "),
                <DownloadButton path={`/api/admin/cadangan/${encodeURIComponent(backup.name)}`} label={text.downloadOf(backup.name)} describedBy="cadangan-catatan" />,
              ])}
            />
          )}
        </>
      )}
      <p class="command-hint">
        {text.restore} <code>{"skrining restore <arsip> --force"}</code>
      </p>
    </ConsolePage>
  );
}
