import type { Logger } from "../../logger";
import type { WriteQueue } from "../../db/write-queue";
import { StorageError } from "../../db/storage";
import { currentChangeRow } from "../../audit/change-row";
import type { Classifier, ModelFeatures, ModelType } from "../../models/classifier";
import type { Principal } from "../../requests/principal";
import { type JsonObject, requestedNim } from "../../requests/values";
import type { Level } from "../../skrining/scoring";
import type { SubmissionExtras } from "./answers";
import type { ClassificationInputs, Classified, Predictions } from "./model-inputs";
import { ScreeningRecorder, studentUnknown, submissionTables, type RecorderSettings, type SubmissionResult } from "./recording";
import type { SubmissionWriter } from "./writer";
import { uncarry, type PredictionsAhead } from "./writer-messages";

/** How many times a submission is predicted again because the student's profile changed before its job ran. */
const predictionAttempts = 3;

/**
 * Questionnaire submission (ScreeningRecorder has the rules): its job runs in the write
 * queue of this thread, or, on the server, on the writer's thread (SubmissionWriter). Then
 * the models are asked here, before the job, from the profile as it is then; the job checks
 * that its own inputs are the same, and asks for new predictions if the profile changed in
 * between. Settles once the record is committed to disk together with its group.
 */
export class SubmissionService {
  private readonly recorder: ScreeningRecorder;
  private writer: SubmissionWriter | null = null;
  private startWriter: (() => void) | null = null;

  constructor(
    db: ConstructorParameters<typeof ScreeningRecorder>[0],
    private readonly writes: WriteQueue,
    private readonly classifier: Classifier,
    private readonly logger: Logger,
    settings: RecorderSettings,
  ) {
    this.recorder = new ScreeningRecorder(db, settings);
  }

  lastSubmissionOf(nim: string): string | undefined {
    return this.recorder.lastSubmissionOf(nim);
  }

  /** From now on the jobs go to `writer` (the server's), or, with null, stay on this thread. */
  useWriter(writer: SubmissionWriter | null): void {
    this.writer = writer;
  }

  /** `start` is called at the first submission, which is written on this thread like any before the writer is ready. */
  startWriterAtFirstSubmission(start: () => void): void {
    this.startWriter = start;
  }

  async submit(principal: Principal, body: JsonObject): Promise<SubmissionResult> {
    if (this.startWriter) {
      const start = this.startWriter;
      this.startWriter = null;
      start();
    }
    const nim = requestedNim(principal, body.NIM);
    if (nim === null) throw studentUnknown();
    // Decisions §20: the values the client sends beside the answers, read in the job.
    const extras: SubmissionExtras = { durasiDetik: body.durasi_detik, jawabanKeselamatan: body.jawaban_keselamatan };
    if (this.writer) return this.submitThrough(this.writer, principal, nim, body.jawaban, extras);
    return this.writes.run(() => this.recorder.record(principal.role, nim, body.jawaban, (inputs) => this.predict(inputs), undefined, extras), {
      touches: submissionTables(body.jawaban),
    });
  }

  private async submitThrough(writer: SubmissionWriter, principal: Principal, nim: string, jawaban: unknown, extras: SubmissionExtras): Promise<SubmissionResult> {
    const inputs = this.recorder.inputsAhead(nim, jawaban);
    let predictions: PredictionsAhead | null = inputs && { profile: inputs.profile, ...this.predict(inputs) };
    // Answers read here are integers and short texts, which JSON text carries exactly (and sends faster than the object).
    const answers = inputs ? { text: JSON.stringify(jawaban) } : { value: jawaban };
    for (let attempt = 1; ; attempt++) {
      const rows = currentChangeRow()?.claimAhead();
      const reply = await writer.submit({ role: principal.role, nim, jawaban: answers, extras, predictions, auditRows: rows?.rows ?? [] }).catch((error: unknown) => {
        rows?.settled(false);
        throw error;
      });
      rows?.settled(reply.ok);
      if (reply.ok) return reply.value;
      if ("error" in reply) throw uncarry(reply.error);
      // The student's profile changed between the prediction and the job (or the job found them first).
      if (attempt === predictionAttempts) throw new StorageError("busy", new Error("profil mahasiswa berubah selama kuesioner disimpan"));
      predictions = { profile: reply.stale, ...this.predict(this.recorder.inputsFor(jawaban, reply.stale)) };
    }
  }

  private predict({ features, fallbacks }: ClassificationInputs): Predictions {
    return { stress: this.classify("stress", features, fallbacks.stress), motivasi: this.classify("motivasi", features, fallbacks.motivasi) };
  }

  /** A model's answer, or the thresholds when there is none or it fails (logged, never a 500). */
  private classify(type: ModelType, features: ModelFeatures, fallback: Level): Classified {
    try {
      const result = this.classifier.classify(type, features);
      if (result) return result;
    } catch (error) {
      this.logger.error(`model ${type} gagal, memakai ambang batas: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { level: fallback, modelId: null, probability: null };
  }
}
