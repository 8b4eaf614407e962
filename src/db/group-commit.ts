import type { Database } from "bun:sqlite";

interface Job {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: write jobs that arrive in the same turn of the event loop share one
 * IMMEDIATE transaction, so they share one flush to disk (`synchronous=FULL` makes each
 * commit wait for the disk, which costs more than the work itself). Each job runs in its
 * own savepoint: a job that throws is rolled back alone and its caller gets the error,
 * the others still commit. A job's promise settles only after the commit, so an answer
 * is never sent for a write that is not on disk.
 *
 * Jobs run one after another inside the transaction, so rules that read before they write
 * (the weekly limit) see every earlier job of the same group.
 */
export class GroupCommit {
  private queue: Job[] = [];
  private scheduled = false;

  constructor(private readonly client: Database) {}

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const jobs = this.queue;
    this.queue = [];
    this.scheduled = false;
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.client.run("BEGIN IMMEDIATE");
    } catch (error) {
      for (const job of jobs) job.reject(error);
      return;
    }
    for (const job of jobs) {
      this.client.run("SAVEPOINT job");
      try {
        const value = job.work();
        this.client.run("RELEASE job");
        outcomes.push({ ok: true, value });
      } catch (error) {
        this.client.run("ROLLBACK TO job");
        this.client.run("RELEASE job");
        outcomes.push({ ok: false, error });
      }
    }
    try {
      this.client.run("COMMIT");
    } catch (error) {
      this.client.run("ROLLBACK");
      for (const job of jobs) job.reject(error);
      return;
    }
    jobs.forEach((job, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }
}
