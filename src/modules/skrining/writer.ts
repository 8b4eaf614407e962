import type { Database } from "bun:sqlite";
import type { Config } from "../../config";
import type { DatabaseClient } from "../../db";
import { describeFailure } from "../../errors";
import type { Logger } from "../../logger";
import { databaseStamp } from "../../db/read-cache";
import { StorageError, type StorageHealth } from "../../db/storage";
import { carry, uncarry, type FromWriter, type ToWriter, type WriterJob, type WriterReply, type WriterSetup } from "./writer-messages";

/**
 * At most this many jobs go to the writer at once, and the next ones only once it answered:
 * while it commits a group, this thread classifies the next (without a bound, every waiting
 * client joins one group, and little of the two threads' work overlaps).
 */
const jobsPerMessage = 16;

/**
 * The worker's code: beside this file when run from source; in an executable, where the
 * build embeds it as an entry point, under its path from the repository's root.
 */
const workerEntry = Bun.isStandaloneExecutable ? "./src/modules/skrining/writer-worker.ts" : new URL("./writer-worker.ts", import.meta.url);

/**
 * The server's questionnaire writes, on a thread and a connection of their own (issue 28):
 * the job of a submission (its checks, the insert with its summaries, the case, the audit
 * row) and the group's commit run there, while the service's thread goes on answering and
 * classifying the next submissions. The rules are the same code as on the service's thread
 * (ScreeningRecorder); what the thread changes:
 *
 * - Jobs go to the writer in messages of at most `jobsPerMessage`, one message at a time;
 *   the writer's own write queue makes each a group (one transaction) and answers once it
 *   is on disk.
 * - The storage's state is the service's: while writes are held (a damaged database) a
 *   submission is refused before it is sent; the writer's storage failures and successes
 *   are reported to the same StorageHealth.
 * - Every commit of the writer's empties the read caches of the service's connection: the
 *   next read sees the new screening. (A commit by another connection is told from the
 *   writer's by nothing SQLite offers, so both empty every cache.)
 * - If the thread fails, the submissions it held are answered 503 and the service writes
 *   on its own thread from then on (`onFailure`).
 */
export class SubmissionWriter {
  private readonly waiting = new Map<number, (reply: WriterReply) => void>();
  private batch: WriterJob[] = [];
  private nextId = 1;
  private failed: StorageError | null = null;
  private closed: (() => void) | undefined;
  private sending = false;

  private constructor(
    private readonly worker: Worker,
    private readonly client: Database,
    private readonly health: StorageHealth,
    private readonly onFailure: (error: StorageError) => void,
  ) {
    worker.onmessage = ({ data }: MessageEvent<FromWriter>) => {
      if ("replies" in data) this.settle(data.replies);
      else if ("closed" in data) this.closed?.();
    };
    worker.onerror = (event) => this.fail(new StorageError("io", new Error(`utas penulis kuesioner berhenti: ${event.message}`)));
  }

  /**
   * Starts the writer on the database the service has opened (and migrated); resolves once
   * its connection is open, rejects with why it could not open it.
   */
  static start(
    setup: WriterSetup,
    service: { client: Database; health: StorageHealth; onFailure: (error: StorageError) => void },
    entry: string | URL = workerEntry,
  ): Promise<SubmissionWriter> {
    const worker = new Worker(entry);
    worker.unref();
    return new Promise((resolve, reject) => {
      worker.onmessage = ({ data }: MessageEvent<FromWriter>) => {
        if (!("ready" in data)) return;
        if (data.ready) resolve(new SubmissionWriter(worker, service.client, service.health, service.onFailure));
        else {
          void worker.terminate();
          reject(uncarry(data.error));
        }
      };
      worker.onerror = (event) => {
        void worker.terminate();
        reject(new Error(`utas penulis kuesioner: ${event.message}`));
      };
      worker.postMessage({ setup } satisfies ToWriter);
    });
  }

  /** Sends a job with the others of this turn; settles once the writer committed or refused it. */
  submit(job: Omit<WriterJob, "id">): Promise<WriterReply> {
    const refused = this.failed ?? this.health.writesHeldBy;
    if (refused) return Promise.reject(refused);
    const id = this.nextId++;
    return new Promise<WriterReply>((resolve) => {
      // Held by the process while it waits for an answer: an unreferenced thread's messages do not wake an idle event loop.
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, resolve);
      if (this.batch.length === 0 && !this.sending) setImmediate(() => this.send());
      this.batch.push({ ...job, id });
    });
  }

  /** Closes the writer's connection and ends its thread; call when no submission is waiting (the server has stopped). */
  async stop(): Promise<void> {
    if (this.failed) return;
    const closed = new Promise<void>((resolve) => (this.closed = resolve));
    this.worker.ref();
    this.worker.postMessage({ close: true } satisfies ToWriter);
    await closed;
    await this.worker.terminate();
  }

  private send(): void {
    if (this.sending || this.failed || this.batch.length === 0) return;
    const jobs = this.batch.slice(0, jobsPerMessage);
    this.batch = this.batch.slice(jobsPerMessage);
    this.sending = true;
    this.worker.postMessage({ jobs } satisfies ToWriter);
  }

  private settle(replies: readonly WriterReply[]): void {
    this.sending = false;
    // The writer committed (or rolled back): what the service's caches hold may be older.
    databaseStamp(this.client).committedElsewhere();
    let storageFailure: StorageError | undefined;
    for (const reply of replies) {
      if (!reply.ok && "error" in reply && "storage" in reply.error) storageFailure ??= uncarry(reply.error) as StorageError;
      const resolve = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      resolve?.(reply);
    }
    if (this.waiting.size === 0) this.worker.unref();
    if (storageFailure) this.health.failed(storageFailure);
    else if (replies.some((reply) => reply.ok)) this.health.succeeded();
    this.send();
  }

  /** The thread failed (a defect, not the storage): what it held is answered 503, and the service takes the writes back. */
  private fail(error: StorageError): void {
    if (this.failed) return;
    this.failed = error;
    void this.worker.terminate();
    for (const [id, resolve] of this.waiting) resolve({ id, ok: false, error: carry(error) });
    this.waiting.clear();
    this.batch = [];
    this.closed?.();
    this.onFailure(error);
  }
}

/**
 * Starts the writer for the service's database and hands it the submissions; if it cannot
 * start, or fails later, they are written on the service's own thread (logged). Resolves
 * with the writer to stop, or null.
 */
export async function startSubmissionWriter(
  parts: { config: Config; db: DatabaseClient; health: StorageHealth; submission: { useWriter(writer: SubmissionWriter | null): void } },
  logger: Logger,
): Promise<SubmissionWriter | null> {
  const { config, db, health, submission } = parts;
  try {
    const writer = await SubmissionWriter.start(
      { databasePath: config.databasePath, busyWaitMilliseconds: config.busyWaitMilliseconds, followUpStressMin: config.followUpStressMin, timeZone: config.timeZone },
      {
        client: db.$client,
        health,
        onFailure: (error) => {
          submission.useWriter(null);
          logger.error(`${describeFailure(error)}; kuesioner kini disimpan oleh utas utama server.`);
        },
      },
    );
    submission.useWriter(writer);
    return writer;
  } catch (error) {
    logger.error(`Utas penulis kuesioner tidak dapat dimulai (${error instanceof Error ? error.message : String(error)}); kuesioner disimpan oleh utas utama server.`);
    return null;
  }
}
