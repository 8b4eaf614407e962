import type { Database, Statement } from "bun:sqlite";
import { getTableName, type Table } from "drizzle-orm";

/** The tables a cache reads or a write job writes; `everything` when that is not known. */
export type Tables = readonly Table[] | "everything";

interface Cache {
  readonly reads: ReadonlySet<string> | "everything";
  clear(): void;
}

const tableNames = (tables: Tables): ReadonlySet<string> | "everything" => (tables === "everything" ? tables : new Set(tables.map((table) => getTableName(table))));

/**
 * Keeps the read caches of one connection no older than the last commit, emptying each
 * only when something it reads may have changed (issue 28):
 *
 * - this connection's writes go through the write queue, which says after each group which
 *   tables its jobs wrote (`written`); the caches that read one of them are emptied, the
 *   others keep what they hold (the audit trail's rows, written ten times a second on a
 *   busy server, empty none);
 * - a commit by another connection (a command, a second server) moves SQLite's
 *   `data_version`, and a write on this connection outside the queue moves
 *   `total_changes()` past what the queue reported: either empties every cache.
 *
 * Asking SQLite costs a query. On the server (`askOncePerTurn`) it is asked once per turn
 * of the event loop, however many requests that turn answers: another process's commit
 * shows from the next turn. Inside a transaction (a job of the write queue, which may have
 * written) and in commands, every read asks.
 */
export class DatabaseStamp {
  private readonly statement: Statement<{ changes: number; version: number }, []>;
  private readonly caches = new Set<Cache>();
  private changes = -1;
  private version = -1;
  private oncePerTurn = false;
  private askedThisTurn = false;

  constructor(private readonly client: Database) {
    // query(), not prepare(): the connection caches the statement and finalizes it when it
    // closes, so a command's connection still closes cleanly (its WAL file removed).
    this.statement = client.query("SELECT total_changes() AS changes, (SELECT data_version FROM pragma_data_version) AS version");
  }

  register(cache: Cache): void {
    this.caches.add(cache);
  }

  /** The server's setting: ask SQLite once per turn of the event loop, not at every read. */
  askOncePerTurn(): void {
    this.oncePerTurn = true;
  }

  /** Before a cache answers: empties every cache if the database changed behind the queue's back. */
  check(): void {
    const inTransaction = this.client.inTransaction;
    if (this.askedThisTurn && !inTransaction) return;
    const now = this.statement.get()!;
    if (now.changes !== this.changes || now.version !== this.version) {
      for (const cache of this.caches) cache.clear();
      this.changes = now.changes;
      this.version = now.version;
    }
    if (this.oncePerTurn && !inTransaction) {
      this.askedThisTurn = true;
      setImmediate(() => {
        this.askedThisTurn = false;
      });
    }
  }

  /**
   * The write queue's report after a group, committed or not: the tables its jobs wrote,
   * and `changesBefore`, the connection's total_changes() when the group began (a change
   * between the last report and then was made outside the queue: every cache is emptied).
   */
  written(tables: ReadonlySet<string> | "everything", changesBefore: number): void {
    const unreported = changesBefore !== this.changes;
    for (const cache of this.caches) {
      if (unreported || tables === "everything" || cache.reads === "everything" || [...cache.reads].some((table) => tables.has(table))) cache.clear();
    }
    const now = this.statement.get()!;
    this.changes = now.changes;
    if (unreported) this.version = now.version;
  }

  /** The connection's total_changes() now: what the write queue reads before a group. */
  totalChanges(): number {
    return this.statement.get()!.changes;
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

/** The names of the tables a write job writes, for `written`. */
export const writtenTables = tableNames;

/**
 * Results of hot reads, kept until something they read may have changed (DatabaseStamp):
 * it can never serve a value older than the last commit, and the hot reads it serves (the
 * caller of every request) are far more frequent than writes. Each cache states its bound
 * in entries, chosen with the bytes an entry holds (docs/decisions.md, "Memory").
 */
export class ReadCache<K, V> implements Cache {
  private readonly entries = new Map<K, V>();
  readonly reads: ReadonlySet<string> | "everything";
  private readonly maxEntries: number;

  constructor(
    private readonly stamp: DatabaseStamp,
    options: { reads: Tables; maxEntries?: number },
  ) {
    this.reads = tableNames(options.reads);
    this.maxEntries = options.maxEntries ?? 10_000;
    stamp.register(this);
  }

  get(key: K, load: () => V): V {
    this.stamp.check();
    if (this.entries.has(key)) return this.entries.get(key)!;
    const value = load();
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
