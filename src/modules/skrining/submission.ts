import type { Logger } from "../../logger";
import type { WriteQueue } from "../../db/write-queue";
import type { Classifier, ModelFeatures, ModelType } from "../../models/classifier";
import type { Principal } from "../../requests/principal";
import { type JsonObject, requestedNim } from "../../requests/values";
import type { Level } from "../../skrining/scoring";
import type { SubmissionExtras } from "./answers";
import type { ClassificationInputs, Classified, Predictions } from "./model-inputs";
import { ScreeningRecorder, studentUnknown, submissionTables, type RecorderSettings, type SubmissionResult } from "./recording";
import type { TindakLanjutReachReader } from "../tindak-lanjut/reach";

/**
 * Questionnaire submission (ScreeningRecorder has the rules): its job runs in the write
 * queue, on the connection every request of the server uses, and asks the models inside
 * the job, from the profile the job read. Settles once the record is committed to disk
 * together with its group (the write queue commits the jobs of one turn together).
 */
export class SubmissionService {
  private readonly recorder: ScreeningRecorder;

  constructor(
    db: ConstructorParameters<typeof ScreeningRecorder>[0],
    private readonly writes: WriteQueue,
    private readonly classifier: Classifier,
    private readonly logger: Logger,
    settings: RecorderSettings,
    followUpReach: TindakLanjutReachReader,
  ) {
    this.recorder = new ScreeningRecorder(db, settings, followUpReach);
  }

  lastSubmissionOf(nim: string): string | undefined {
    return this.recorder.lastSubmissionOf(nim);
  }

  async submit(principal: Principal, body: JsonObject): Promise<SubmissionResult> {
    const nim = requestedNim(principal, body.NIM);
    if (nim === null) throw studentUnknown();
    // Decisions §20: the values the client sends beside the answers, read in the job.
    const extras: SubmissionExtras = { durasiDetik: body.durasi_detik, jawabanKeselamatan: body.jawaban_keselamatan };
    return this.writes.run(() => this.recorder.record(principal.role, nim, body.jawaban, (inputs) => this.predict(inputs), extras), {
      touches: submissionTables(body.jawaban),
    });
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
