import type { AuditEntry } from "../../audit/trail";
import type { Role } from "../../db/schema";
import { StorageError, type StorageProblem } from "../../db/storage";
import { ServiceError, type ErrorCode } from "../../errors";
import type { SubmissionExtras } from "./answers";
import type { Predictions, ProfileInputs } from "./model-inputs";
import type { RecorderSettings, SubmissionResult } from "./recording";

/** What the writer's thread is started with. */
export interface WriterSetup extends RecorderSettings {
  databasePath: string;
  busyWaitMilliseconds: number;
}

/** Predictions made on the service's thread, with the profile they were made from (the answers are the job's own). */
export type PredictionsAhead = Predictions & { profile: ProfileInputs };

/** One submission for the writer: the request's part of the job, and the audit rows that go into its savepoint. */
export interface WriterJob {
  id: number;
  role: Role;
  nim: string;
  /**
   * The answers: as JSON text when the service could read them (then every value survives
   * the text unchanged, and the text is what is stored), otherwise as they came, so that the
   * job refuses them with the same error as on the service's thread.
   */
  jawaban: { text: string } | { value: unknown };
  /** The values beside the answers (decisions §20), as they came: JSON values, which a message carries unchanged. */
  extras: SubmissionExtras;
  predictions: PredictionsAhead | null;
  auditRows: AuditEntry[];
}

/** An error as it crosses between the threads (an Error's class does not). */
export type CarriedError =
  | { storage: StorageProblem; cause: { message: string; code?: string }; file?: string }
  | { code: ErrorCode; message: string; details: ServiceError["details"] }
  | { unexpected: string };

/** What the writer answers for one job: its result, its refusal, or the inputs it needs predictions for. */
export type WriterReply = { id: number } & ({ ok: true; value: SubmissionResult } | { ok: false; error: CarriedError } | { ok: false; stale: ProfileInputs });

/** What the writer says about itself: ready (or why not), and closed. */
export type WriterStatus = { ready: true } | { ready: false; error: CarriedError } | { closed: true };

export type ToWriter = { setup: WriterSetup } | { jobs: WriterJob[] } | { close: true };
export type FromWriter = { replies: WriterReply[] } | WriterStatus;

export function carry(error: unknown): CarriedError {
  if (error instanceof StorageError) {
    const cause = error.cause instanceof Error ? error.cause : new Error(String(error.cause));
    const code = (cause as { code?: unknown }).code;
    return { storage: error.problem, cause: { message: cause.message, ...(typeof code === "string" && { code }) }, ...(error.file !== undefined && { file: error.file }) };
  }
  if (error instanceof ServiceError) return { code: error.code, message: error.message, details: error.details };
  return { unexpected: error instanceof Error ? error.message : String(error) };
}

export function uncarry(carried: CarriedError): Error {
  if ("storage" in carried) return new StorageError(carried.storage, Object.assign(new Error(carried.cause.message), carried.cause.code === undefined ? {} : { code: carried.cause.code }), carried.file);
  if ("code" in carried) return new ServiceError(carried.code, carried.message, carried.details);
  return new Error(carried.unexpected);
}
