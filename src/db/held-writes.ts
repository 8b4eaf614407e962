import type { Database } from "bun:sqlite";
import type { StorageHealth } from "./storage";
import { WriteQueue } from "./write-queue";

/**
 * The write queue every process uses: refuses each write with the storage's reason while
 * the storage holds writes (StorageHealth.holdWrites: the database failed its check at
 * start), before the write touches the file; otherwise a WriteQueue like any other.
 */
export class HoldableWriteQueue extends WriteQueue {
  constructor(
    client: Database,
    private readonly health: StorageHealth,
    busyWaitMilliseconds: number,
  ) {
    super(client, { busyWaitMilliseconds, health });
  }

  override run<T>(work: () => T): Promise<T> {
    const held = this.health.writesHeldBy;
    return held ? Promise.reject(held) : super.run(work);
  }
}
