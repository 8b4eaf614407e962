import { AsyncLocalStorage } from "node:async_hooks";
import type { JobCompanion } from "../db/write-queue";
import type { AuditEntry, AuditTrail } from "./trail";

/**
 * The audit row of one request that changes data (decisions: Audit trail). The route's
 * rule says what the row is once the change is known (`expect`); the request's first job
 * of the write queue takes it along (`claim`) and appends it in the change's own savepoint,
 * so the change and its row share one commit: an answered write always has its row, and a
 * row the trail refuses undoes the change. A request that changes nothing through the
 * queue (a profile update without a field) leaves its row after the handler, as before.
 */
export class ChangeRow {
  private rowOf: ((value: unknown) => AuditEntry | null) | undefined;
  private state: "waiting" | "claimed" | "written" | "closed" = "waiting";

  constructor(private readonly trail: AuditTrail) {}

  /** The row, from what the change's job returns; null when the change leaves none. */
  expect(rowOf: (value: unknown) => AuditEntry | null): void {
    this.rowOf = rowOf;
  }

  /** The companion of the request's next job, while the row is still to be written. */
  claim(): JobCompanion | undefined {
    const rowOf = this.take();
    if (rowOf === undefined) return undefined;
    const companion = this.trail.companionFor(rowOf);
    return { touches: companion.touches, inJob: (value) => companion.inJob(value), settled: (committed) => this.settled(companion, committed) };
  }

  /** The row's rule, if the row still waits for a change to claim it. */
  private take(): ((value: unknown) => AuditEntry | null) | undefined {
    if (this.rowOf === undefined || this.state !== "waiting") return undefined;
    this.state = "claimed";
    return this.rowOf;
  }

  private settled(claimed: { settled(committed: boolean): void }, committed: boolean): void {
    claimed.settled(committed);
    // A job rolled back leaves the row to a later job of the same request, if any.
    if (this.state === "claimed") this.state = committed ? "written" : "waiting";
  }

  /** The handler is done: whether a job wrote the row. Later jobs of the request take none. */
  close(): boolean {
    const written = this.state === "written";
    this.state = "closed";
    return written;
  }
}

/** Each request's ChangeRow, for the write queue to find from inside the request. */
const changeRows = new AsyncLocalStorage<ChangeRow>();

/**
 * Runs `handle(request)` with a ChangeRow of its own, closed once the answer is ready: a
 * timer the request left behind runs in its context, and must not take its row along.
 */
export function withChangeRow(trail: AuditTrail, handle: (request: Request) => Promise<Response>, request: Request): Promise<Response> {
  const row = new ChangeRow(trail);
  return changeRows.run(row, handle, request).finally(() => row.close());
}

/** The current request's ChangeRow, if the code runs inside one. */
export const currentChangeRow = (): ChangeRow | undefined => changeRows.getStore();

/** The write queue's `companionOf`: the current request's row, if it waits for a job. */
export const changeRowCompanion = (): JobCompanion | undefined => currentChangeRow()?.claim();
