import type { Database, Statement } from "bun:sqlite";

/**
 * Where the database stands: rows this connection has changed (`total_changes()`) and
 * commits by any other connection (`data_version`, which moves when the CLI or a second
 * server writes). Both unchanged means nothing a read could see has changed.
 *
 * One stamp per connection (`databaseStamp`), shared by its caches. Asking costs a query;
 * while the server handles a request the answer is held (`hold()` at the start of every
 * request), so a request asks once however many caches it reads, and it is dropped again
 * by every commit of the write queue (`forget()`), so a request never reads past its own
 * write. A commit by another process within the same request shows at the next one.
 * Without `hold()` (commands, tests of the cache) every read asks.
 */
export class DatabaseStamp {
  private readonly statement: Statement<{ changes: number; version: number }, []>;
  private holding = false;
  private held: { changes: number; version: number } | undefined;

  constructor(private readonly client: Database) {
    // query(), not prepare(): the connection caches the statement and finalizes it when it
    // closes, so a command's connection still closes cleanly (its WAL file removed).
    this.statement = client.query("SELECT total_changes() AS changes, (SELECT data_version FROM pragma_data_version) AS version");
  }

  read(): { changes: number; version: number } {
    // Inside a transaction (a job of the write queue) every read asks: the job may have written.
    if (this.client.inTransaction) return this.statement.get()!;
    if (this.held) return this.held;
    const now = this.statement.get()!;
    if (this.holding) this.held = now;
    return now;
  }

  /** A request begins: ask once more, then keep the answer until `forget()` or the next request. */
  hold(): void {
    this.holding = true;
    this.held = undefined;
  }

  /** This connection wrote: the next read asks again. */
  forget(): void {
    this.held = undefined;
  }
}

const stamps = new WeakMap<Database, DatabaseStamp>();

/** The connection's one stamp. */
export function databaseStamp(client: Database): DatabaseStamp {
  let stamp = stamps.get(client);
  if (!stamp) {
    stamp = new DatabaseStamp(client);
    stamps.set(client, stamp);
  }
  return stamp;
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
