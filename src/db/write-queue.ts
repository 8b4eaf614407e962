import type { Database } from "bun:sqlite";
import type { Table } from "drizzle-orm";
import { databaseStamp, writtenTables, type Tables } from "./read-cache";
import { StorageError, asStorageError, type StorageHealth } from "./storage";

/**
 * What a job's caller adds to the job: the audit row of the request that asked for the
 * change (src/audit/change-row.ts), so that the change and its row are one savepoint and
 * one commit.
 */
export interface JobCompanion {
  /** The tables it writes, besides the job's. */
  readonly touches: readonly Table[];
  /** Runs after the job's work, in its savepoint, with what the work returned; throwing rolls the job back. */
  inJob(value: unknown): void;
  /** Whether the job's changes (and so the companion's) reached the disk, once the group settled. */
  settled(committed: boolean): void;
}

interface Job {
  work: () => unknown;
  companion: JobCompanion | undefined;
  touches: ReadonlySet<string> | "everything";
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface WriteQueueOptions {
  /** How long to keep retrying while another program holds the write lock, before answering busy. */
  busyWaitMilliseconds: number;
  health?: StorageHealth;
  /** The companion of a job, asked for when the job is queued (the caller's context is the caller's then). */
  companionOf?: () => JobCompanion | undefined;
}

/**
 * Every write of the service goes through here, one group at a time:
 *
 * - Group commit: jobs that arrive in the same turn of the event loop share one IMMEDIATE
 *   transaction and so one flush to disk (`synchronous=FULL` makes each commit wait for the
 *   disk, which costs more than the work itself). Each job runs in its own savepoint: a job
 *   that throws is rolled back alone and its caller gets the error, the others commit.
 *   Jobs run one after another, so a rule that reads before it writes (the weekly limit)
 *   sees every earlier job of the group.
 * - A job's promise settles only after the commit: an answer is never sent for a write that
 *   is not on disk, and a write that did not reach the disk is never reported as done.
 *   Whatever the commit does (a full or read-only disk, SQLite rolling the transaction back
 *   by itself), every job is settled.
 * - The connection waits for no lock (busy_timeout 0 on the server): while another program
 *   holds the write lock, the group is retried from timers, so reads keep being answered,
 *   and after `busyWaitMilliseconds` its jobs fail with a busy StorageError.
 */
export class WriteQueue {
  private queue: Job[] = [];
  private scheduled = false;
  private busy = false;

  constructor(
    private readonly client: Database,
    private readonly options: WriteQueueOptions,
  ) {}

  /**
   * Queues `work`; settles once its group committed. `touches`: the tables the work writes
   * (its triggers' included), so that only the read caches reading one of them are emptied;
   * without it, every cache is. `alone`: the job takes no companion (the trail's own rows,
   * which must not carry a request's row).
   */
  run<T>(work: () => T, options: { touches?: Tables; alone?: boolean } = {}): Promise<T> {
    const companion = options.alone ? undefined : this.options.companionOf?.();
    const tables = options.touches ?? "everything";
    const touches = writtenTables(companion && tables !== "everything" ? [...tables, ...companion.touches] : tables);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, companion, touches, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.busy) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.queue.length === 0) return;
    this.busy = true;
    const stamp = databaseStamp(this.client);
    let changesBefore: number | undefined;
    let jobs: Job[] = [];
    try {
      const began = await this.begin();
      // Nothing of the group is written yet: what the connection changed before it.
      if (began === true) changesBefore = stamp.totalChanges();
      jobs = this.queue;
      this.queue = [];
      if (began instanceof Error) {
        this.failAll(jobs, began);
      } else {
        this.commitGroup(jobs);
      }
    } finally {
      // Whatever the group ended in, the caches of what it may have written are emptied.
      if (changesBefore !== undefined) stamp.written(touchedBy(jobs), changesBefore);
      this.busy = false;
      if (this.queue.length > 0) this.schedule();
    }
  }

  /** BEGIN IMMEDIATE, retried with growing pauses while the lock is held elsewhere; the error when it cannot begin. */
  private async begin(): Promise<true | Error> {
    const deadline = Date.now() + this.options.busyWaitMilliseconds;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      try {
        this.client.run("BEGIN IMMEDIATE");
        return true;
      } catch (error) {
        const failure = asStorageError(error);
        const retry = failure instanceof StorageError && failure.problem === "busy" && Date.now() + pause <= deadline;
        if (!retry) return failure instanceof Error ? failure : new Error(String(failure));
      }
      await Bun.sleep(pause);
    }
  }

  private commitGroup(jobs: Job[]): void {
    const outcomes: Outcome[] = [];
    try {
      for (const job of jobs) outcomes.push(this.runJob(job));
      // SQLite rolls a transaction back by itself on some failures (a full disk, an I/O
      // error): then nothing of the group is left to commit, and the jobs learn why.
      if (!this.client.inTransaction) {
        const cause = outcomes.find((outcome) => !outcome.ok && outcome.error instanceof StorageError);
        throw cause && !cause.ok ? cause.error : transactionLost();
      }
      this.client.run("COMMIT");
    } catch (error) {
      if (this.client.inTransaction) {
        try {
          this.client.run("ROLLBACK");
        } catch {
          // The transaction is gone either way; the jobs learn why from the first error.
        }
      }
      this.failAll(jobs, error);
      return;
    }
    for (const [index, job] of jobs.entries()) job.companion?.settled(outcomes[index]!.ok);
    // A job refused by a storage problem (the disk filled up during it) says so too.
    const storageFailure = outcomes.find((outcome) => !outcome.ok && outcome.error instanceof StorageError);
    if (!storageFailure) this.options.health?.succeeded();
    jobs.forEach((job, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }

  /** One job in its own savepoint; its own error (a rule it refused by) is its outcome. */
  private runJob(job: Job): Outcome {
    if (!this.client.inTransaction) return { ok: false, error: transactionLost() };
    this.client.run("SAVEPOINT job");
    try {
      const value = job.work();
      job.companion?.inJob(value);
      this.client.run("RELEASE job");
      return { ok: true, value };
    } catch (error) {
      if (this.client.inTransaction) {
        this.client.run("ROLLBACK TO job");
        this.client.run("RELEASE job");
      }
      return { ok: false, error: this.classified(error) };
    }
  }

  private failAll(jobs: Job[], error: unknown): void {
    const failure = this.classified(error);
    for (const job of jobs) {
      job.companion?.settled(false);
      job.reject(failure);
    }
  }

  private classified(error: unknown): unknown {
    const failure = asStorageError(error);
    if (failure instanceof StorageError) this.options.health?.failed(failure);
    return failure;
  }
}

/** The tables a group's jobs wrote: `everything` if one of them did not say. */
function touchedBy(jobs: readonly Job[]): ReadonlySet<string> | "everything" {
  const tables = new Set<string>();
  for (const { touches } of jobs) {
    if (touches === "everything") return touches;
    for (const table of touches) tables.add(table);
  }
  return tables;
}

const transactionLost = () => new StorageError("io", new Error("SQLite membatalkan transaksi"));
