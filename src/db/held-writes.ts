import type { Database } from "bun:sqlite";
import type { StorageHealth } from "./storage";
import { WriteQueue } from "./write-queue";

/**
 * The write queue every process uses: refuses each write with the storage's reason while
 * the storage holds writes (StorageHealth.holdWrites: the database failed its check at
 * start), before the write touches the file or takes a request's audit row; otherwise a
 * WriteQueue like any other.
 */
export class HoldableWriteQueue extends WriteQueue {
  private readonly health: StorageHealth;

  constructor(client: Database, options: ConstructorParameters<typeof WriteQueue>[1] & { health: StorageHealth }) {
    super(client, options);
    this.health = options.health;
  }

  override run<T>(work: () => T, options?: Parameters<WriteQueue["run"]>[1]): Promise<T> {
    const held = this.health.writesHeldBy;
    return held ? Promise.reject(held) : super.run(work, options);
  }
}
