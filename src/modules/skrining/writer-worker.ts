// The questionnaire's writer thread (writer.ts): a connection and a write queue of its own,
// running the same job as the service's thread (ScreeningRecorder) with the predictions the
// service made before sending it. Built into the executables as an entry point of its own
// (scripts/build-executable.ts).
import { appendAuditRows, trailTables } from "../../audit/trail";
import { openDatabase, scratchInMemory, stopWaitingForLocks, type DatabaseClient } from "../../db";
import { asStorageError } from "../../db/storage";
import { WriteQueue, type JobCompanion } from "../../db/write-queue";
import { sameProfile, type Predictor, type ProfileInputs } from "./model-inputs";
import { ScreeningRecorder, submissionTables } from "./recording";
import { carry, type FromWriter, type PredictionsAhead, type ToWriter, type WriterJob, type WriterReply, type WriterSetup } from "./writer-messages";

declare var self: Worker;

/** The job's profile is not the one the service predicted from (it changed in between, or no prediction was made). */
class StalePrediction extends Error {
  constructor(readonly profile: ProfileInputs) {
    super("prediksi dibuat dari profil lain");
  }
}

const predictionsGiven =
  (predictions: PredictionsAhead | null): Predictor =>
  ({ profile }) => {
    if (predictions && sameProfile(predictions.profile, profile)) return predictions;
    throw new StalePrediction(profile);
  };

let writer: { db: DatabaseClient; writes: WriteQueue; recorder: ScreeningRecorder } | undefined;
/** The audit rows of the job being queued: the queue asks for them synchronously, in run(). */
let companion: JobCompanion | undefined;

const post = (message: FromWriter) => postMessage(message);

function open(setup: WriterSetup): void {
  // The service has migrated the database: this connection only opens it, with the same settings.
  const db = openDatabase(setup.databasePath, undefined, undefined, "current");
  stopWaitingForLocks(db);
  scratchInMemory.use(db);
  const writes = new WriteQueue(db.$client, { busyWaitMilliseconds: setup.busyWaitMilliseconds, companionOf: () => companion });
  writer = { db, writes, recorder: new ScreeningRecorder(db, { followUpStressMin: setup.followUpStressMin, timeZone: setup.timeZone }) };
}

async function run(job: WriterJob): Promise<WriterReply> {
  const { db, writes, recorder } = writer!;
  const rows = job.auditRows;
  companion = rows.length === 0 ? undefined : { touches: trailTables, inJob: () => appendAuditRows(db.$client, rows), settled: () => {} };
  let done: Promise<unknown>;
  try {
    const answers = job.jawaban;
    const jawaban = "text" in answers ? JSON.parse(answers.text) : answers.value;
    const text = "text" in answers ? answers.text : undefined;
    done = writes.run(() => recorder.record(job.role, job.nim, jawaban, predictionsGiven(job.predictions), text, job.extras), { touches: submissionTables(jawaban) });
  } finally {
    companion = undefined;
  }
  try {
    return { id: job.id, ok: true, value: (await done) as ReturnType<ScreeningRecorder["record"]> };
  } catch (error) {
    if (error instanceof StalePrediction) return { id: job.id, ok: false, stale: error.profile };
    return { id: job.id, ok: false, error: carry(error) };
  }
}

self.onmessage = ({ data }: MessageEvent<ToWriter>) => {
  if ("setup" in data) {
    try {
      open(data.setup);
      post({ ready: true });
    } catch (error) {
      post({ ready: false, error: carry(asStorageError(error, data.setup.databasePath)) });
    }
  } else if ("jobs" in data) {
    void Promise.all(data.jobs.map(run)).then((replies) => post({ replies }));
  } else {
    writer?.db.$client.close();
    post({ closed: true });
  }
};
