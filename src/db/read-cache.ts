import type { Database, Statement } from "bun:sqlite";

/**
 * Where the database stands: rows this connection has changed (`total_changes()`) and
 * commits by any other connection (`data_version`, which moves when the CLI or a second
 * server writes). Both unchanged means nothing a read could see has changed.
 */
export class DatabaseStamp {
  private readonly statement: Statement<{ changes: number; version: number }, []>;

  constructor(client: Database) {
    this.statement = client.prepare("SELECT total_changes() AS changes, (SELECT data_version FROM pragma_data_version) AS version");
  }

  read(): { changes: number; version: number } {
    return this.statement.get()!;
  }
}

/**
 * Results of hot reads, kept until the database may have changed. Any write at all empties
 * it: coarse, but it can never serve a value older than the last commit, and the hot reads
 * it serves (the caller of every request) are far more frequent than writes.
 */
export class ReadCache<K, V> {
  private readonly entries = new Map<K, V>();
  private changes = -1;
  private version = -1;

  constructor(
    private readonly stamp: DatabaseStamp,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: K, load: () => V): V {
    const now = this.stamp.read();
    if (now.changes !== this.changes || now.version !== this.version) {
      this.entries.clear();
      this.changes = now.changes;
      this.version = now.version;
    }
    if (this.entries.has(key)) return this.entries.get(key)!;
    const value = load();
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
    return value;
  }
}
