import type { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import type { JobCompanion, WriteQueue } from "../db/write-queue";
import { auditLog, auditSubjects, type AuditAction } from "../db/schema";
import { ServiceError } from "../errors";
import type { Logger } from "../logger";
import { operatingSystemAccount } from "../os-account";

/**
 * Who acted: an account (from its token), a command on the PC, or nobody known (a failed
 * login, a read without a token). Named by account id and username only: a name is looked
 * up when a row is shown, so erasing an account leaves no name in the trail (decisions §16).
 */
export interface AuditActor {
  userId: number | null;
  username: string | null;
  /** `mahasiswa`, `dosen`, `admin`, `cli` or `anonim`. */
  role: string;
}

/**
 * Who acts, and through what: a command (the operating-system account, the command's words
 * `skrining privacy erase`) or the admin console (the admin's account, the route, the
 * client's address). The rows of the same act carry the same action and detail either way.
 */
export interface AuditSource {
  actor: AuditActor;
  target: string;
  clientAddress?: string | null;
}

export interface AuditEntry {
  actor: AuditActor;
  clientAddress?: string | null;
  action: AuditAction;
  /** The student concerned, when there is one (a shorthand for `students: [nim]`). */
  nim?: string | null;
  /** The students concerned (a lecturer's page of advisees, a minute of reads without a token). */
  students?: readonly string[];
  /** The route (`GET /api/dosen/mahasiswa/:nim`) or the command (`skrining privacy erase`). */
  target: string;
  detail?: string | null;
  /** When it happened, if not when the row is appended (a read's row is written a moment later). */
  at?: Date;
  /** How many reads the row stands for: repeats of a read while its row waits are counted, not rowed. */
  reads?: number;
}

/** A row of audit_log as stored. */
export interface AuditRow {
  id: number;
  at: string;
  actor_user_id: number | null;
  actor_username: string | null;
  actor_role: string;
  /** Only in rows of format 1 (written before migration 0011). */
  actor_name: string | null;
  client_address: string | null;
  action: AuditAction;
  /** Only in rows of format 1; the students of every row are in audit_subjects. */
  nim: string | null;
  target: string;
  detail: string | null;
  reads: number;
  previous_hash: string;
  hash: string;
  format: number;
}

/** The `previous_hash` of the first row. */
export const chainStart = "0".repeat(64);

/** The format rows are written in now. */
const currentFormat = 2;

/**
 * The actor of a command: the operating-system account that ran it (decisions §16), or the
 * one behind sudo (`sudo -u skrining skrining …` names the administrator who typed it).
 */
export function commandActor(): AuditActor {
  return { userId: null, username: process.env.SUDO_USER || operatingSystemAccount(), role: "cli" };
}

/** A row's students as its hash covers them: each once, in order. */
export const studentsOf = (entry: Pick<AuditEntry, "nim" | "students">): string[] =>
  [...new Set(entry.students ?? (entry.nim ? [entry.nim] : []))].sort();

/**
 * SHA-256 over every column but the hash itself, the id included so that rows cannot be
 * reordered. Format 2 covers the row's students (audit_subjects); its `nim` and
 * `actor_name` are null, and covered, so that filling them in shows too. Format 1 is
 * the hash as written before migration 0011 (its `nim` and `actor_name`; `reads` only when
 * it is not 1, as written before migration 0008), so earlier rows keep their hashes.
 */
export function auditRowHash(row: Omit<AuditRow, "hash">, students: readonly string[]): string {
  const content: unknown[] =
    row.format === 1
      ? [row.id, row.at, row.actor_user_id, row.actor_username, row.actor_role, row.actor_name, row.client_address, row.action, row.nim, row.target, row.detail, row.previous_hash]
      : ["v2", row.id, row.at, row.actor_user_id, row.actor_username, row.actor_role, row.actor_name, row.client_address, row.action, row.nim, row.target, row.detail, row.reads, students, row.previous_hash];
  if (row.format === 1 && row.reads !== 1) content.push(row.reads);
  return createHash("sha256").update(JSON.stringify(content)).digest("hex");
}

/** The tables an append writes (and sqlite_sequence, which no cache reads). */
export const trailTables = [auditLog, auditSubjects];

/** What the service answers when a row did not land: something in the database (a trigger of someone's) swallowed it. */
export const swallowedRow = "Jejak audit menolak baris baru (ada pemicu asing di audit_log?); perubahan dibatalkan. Jalankan skrining audit verify.";

/**
 * Appends rows to the chain. Must run inside a write transaction (the write queue's, or an
 * IMMEDIATE one of a command), so that no other process appends between reading the last
 * hash and inserting. A row that an unknown trigger ignores fails the whole transaction:
 * the change it records is not made either.
 */
export function appendAuditRows(sqlite: Database, entries: readonly AuditEntry[], now = new Date()): void {
  if (entries.length === 0) return;
  const last = sqlite.query<{ id: number; hash: string }, []>("SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1").get();
  const sequence = sqlite.query<{ seq: number }, []>("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'").get();
  let id = Math.max(last?.id ?? 0, sequence?.seq ?? 0);
  let previousHash = last?.hash ?? chainStart;
  const appendedAt = now.toISOString();
  // query(), not prepare(): the statements are cached by the connection and finalized when it closes.
  const insert = sqlite.query(
    `INSERT INTO audit_log (id, at, actor_user_id, actor_username, actor_role, actor_name, client_address, action, nim, target, detail, reads, previous_hash, hash, format)
     VALUES (?, ?, ?, ?, ?, NULL, ?, ?, NULL, ?, ?, ?, ?, ?, ?)`,
  );
  const insertStudent = sqlite.query("INSERT INTO audit_subjects (nim, audit_id) VALUES (?, ?)");
  for (const entry of entries) {
    id += 1;
    const students = studentsOf(entry);
    const row = {
      id,
      at: entry.at ? entry.at.toISOString() : appendedAt,
      actor_user_id: entry.actor.userId,
      actor_username: entry.actor.username,
      actor_role: entry.actor.role,
      actor_name: null,
      client_address: entry.clientAddress ?? null,
      action: entry.action,
      nim: null,
      target: entry.target,
      detail: entry.detail ?? null,
      reads: entry.reads ?? 1,
      previous_hash: previousHash,
      format: currentFormat,
    };
    const hash = auditRowHash(row, students);
    const inserted = insert.run(row.id, row.at, row.actor_user_id, row.actor_username, row.actor_role, row.client_address, row.action, row.target, row.detail, row.reads, row.previous_hash, hash, row.format);
    let landed = inserted.changes === 1;
    for (const nim of students) landed = insertStudent.run(nim, id).changes === 1 && landed;
    if (!landed) throw new ServiceError("unavailable", swallowedRow);
    previousHash = hash;
  }
}

/** How long the rows of reads wait for company before they are written, and how many may wait. */
export const viewRowDelayMilliseconds = 100;
const viewRowBatch = 1000;
/** Reads without a token are rowed per client address and minute (decisions §16). */
const anonymousWindowMilliseconds = 60_000;
/** At most this many addresses get a row of their own in a minute; the rest share one. */
const anonymousAddresses = 10_000;

/** What a request did: its row but for its students, time and count. */
export type AuditEvent = Omit<AuditEntry, "nim" | "students" | "at" | "reads">;

/** A value of a repeat key: each prefixed by its length, so that no two different sequences of values join to the same key. */
const keyPart = (value: string | number | null | undefined) => (value === null || value === undefined ? "-" : `${String(value).length}:${value}`);

type WaitingRead = AuditEntry & { reads: number };
type StudentsKey = { sorted: readonly string[]; key: string };
type AnonymousRead = WaitingRead & { students: string[]; seen: Set<string> };

/**
 * The service's side of the trail. Writes are recorded before their answer is sent. A read
 * is one row, whatever number of students it showed (a lecturer's page: one row naming the
 * page's students). The rows of reads are not waited for: they gather for up to
 * `viewRowDelayMilliseconds` (or `viewRowBatch` rows) and are written in one job of the
 * write queue, so that a busy server flushes them to disk a few times a second instead of
 * once per event-loop turn (decisions: Audit trail). A read repeated while its row waits
 * adds one to the row's `reads` instead of a row of its own. Reads without a token (the
 * photo route) are rowed once per client address and minute, with their count and every
 * student read (decisions §16), so no client makes the trail grow faster than that. A
 * crash can lose the view rows of that last moment; a write's row is never lost, and takes
 * the waiting view rows with it, in their order.
 */
export class AuditTrail {
  private waiting: AuditEntry[] = [];
  /** The waiting rows of reads by their repeat key: same caller, address, action, route, detail and students. */
  private waitingReads = new Map<string, WaitingRead>();
  /** The reads without a token of the current minute, by client address. */
  private anonymous = new Map<string, AnonymousRead>();
  /** The part of the key an actor gives; actors are kept per caller (`principalActor`), so this is built once for each. */
  private readonly actorKeys = new WeakMap<AuditActor, string>();
  /** The part of the key a frozen list of students gives (studentsKey). */
  private readonly studentsKeys = new WeakMap<readonly string[], StudentsKey>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private anonymousTimer: ReturnType<typeof setTimeout> | undefined;
  private written: Promise<void> = Promise.resolve();
  /** Whether a batch's job waits in the write queue: it takes the waiting rows when it runs. */
  private batchQueued = false;

  constructor(
    private readonly sqlite: Database,
    private readonly writes: WriteQueue,
    private readonly logger: Logger,
  ) {}

  /**
   * Resolves once the rows are on disk; a storage failure rejects, like the write it records.
   * The reads' rows waiting then go first, taken when the job runs (see flush).
   */
  record(...entries: AuditEntry[]): Promise<void> {
    return this.writes.run(() => appendAuditRows(this.sqlite, [...this.takeWaiting(), ...entries]), { alone: true, touches: trailTables });
  }

  /**
   * The row of a change, appended inside the change's own job (src/audit/change-row.ts),
   * with the rows of reads waiting before it. If the job does not commit, those go back
   * to wait for the next batch.
   */
  companionFor(rowOf: (changed: unknown) => AuditEntry | null): JobCompanion {
    let taken: ReturnType<AuditTrail["rowsAhead"]> | undefined;
    return {
      touches: trailTables,
      inJob: (changed) => {
        taken = this.rowsAhead(rowOf(changed));
        appendAuditRows(this.sqlite, taken.rows);
      },
      settled: (committed) => {
        taken?.settled(committed);
        taken = undefined;
      },
    };
  }

  /**
   * The row of a change with the rows of reads waiting before it, taken now (none when the
   * change leaves no row), in the change's job (companionFor). If the change does not
   * commit, those wait again.
   */
  private rowsAhead(row: AuditEntry | null): { rows: AuditEntry[]; settled(committed: boolean): void } {
    if (row === null) return { rows: [], settled: () => {} };
    const taken = this.takeWaiting();
    return {
      rows: [...taken, row],
      settled: (committed) => {
        if (!committed) this.putBack(taken);
      },
    };
  }

  /** The row of a read that showed `students` (none: an aggregate): written soon, with others, and not waited for. */
  note(event: AuditEvent, students: readonly string[]): void {
    const { sorted, key: studentsKey } = this.studentsKey(students);
    const key = `${this.actorKey(event.actor)}|${keyPart(event.clientAddress)}|${keyPart(event.action)}|${keyPart(event.target)}|${keyPart(event.detail)}|${studentsKey}`;
    const waiting = this.waitingReads.get(key);
    if (waiting) waiting.reads += 1;
    else {
      const row = { ...event, students: sorted, at: new Date(), reads: 1 };
      this.waitingReads.set(key, row);
      this.waiting.push(row);
    }
    if (this.waiting.length >= viewRowBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), viewRowDelayMilliseconds);
  }

  /**
   * A read without a token: counted into its address's row of the minute. The minute's
   * rows are written when it ends; a student read again in it adds no second mention.
   */
  noteAnonymous(event: AuditEvent, nim: string): void {
    const address = event.clientAddress ?? "";
    const key = this.anonymous.has(address) || this.anonymous.size < anonymousAddresses ? address : "*";
    let row = this.anonymous.get(key);
    if (!row) {
      row = { ...event, clientAddress: key === "*" ? null : event.clientAddress, detail: key === "*" ? "alamat lain" : event.detail, students: [], seen: new Set(), at: new Date(), reads: 0 };
      this.anonymous.set(key, row);
    }
    row.reads += 1;
    if (!row.seen.has(nim)) {
      row.seen.add(nim);
      row.students.push(nim);
    }
    // Not holding the process open: a stopping server writes the minute with flushAll().
    this.anonymousTimer ??= setTimeout(() => void this.endMinute(), anonymousWindowMilliseconds).unref();
  }

  /** The minute of reads without a token is over: its rows join the waiting view rows. */
  private endMinute(): Promise<void> {
    if (this.anonymousTimer !== undefined) clearTimeout(this.anonymousTimer);
    this.anonymousTimer = undefined;
    for (const { seen, ...row } of this.anonymous.values()) {
      void seen;
      this.waiting.push(row);
    }
    this.anonymous = new Map();
    return this.flush();
  }

  /**
   * Writes the waiting view rows now; resolves once they (and any earlier batch) are on disk
   * or reported lost. The rows are taken when the batch's job runs, not when it is queued:
   * a write's job already waiting in the queue takes them first, before its own row, so that
   * the order of the rows stays the order of what happened (the reads were answered before
   * the write was made).
   */
  flush(): Promise<void> {
    if (this.waiting.length > 0 && !this.batchQueued) {
      this.batchQueued = true;
      let rows: AuditEntry[] | undefined;
      this.written = this.writes
        .run(
          () => {
            this.batchQueued = false;
            rows = this.takeWaiting();
            appendAuditRows(this.sqlite, rows);
          },
          { alone: true, touches: trailTables },
        )
        .catch((error: unknown) => {
          // A group that could not begin never ran the job: its rows are lost with it, as before.
          if (rows === undefined) {
            this.batchQueued = false;
            rows = this.takeWaiting();
          }
          if (rows.length > 0) this.logger.error(`Jejak audit: ${rows.length} baris akses baca tidak tertulis: ${error instanceof Error ? error.message : String(error)}`);
        });
    }
    return this.written;
  }

  /** Everything waiting, the current minute's reads without a token included: for a stopping server. */
  flushAll(): Promise<void> {
    return this.endMinute();
  }

  /**
   * A read's students each once, in order, and their part of the repeat key. A frozen list
   * (a cached page's, src/http/audit.ts) is the same at every read of the page: its part
   * is made once (a 20-student page cost a third of the read, issue 28).
   */
  private studentsKey(students: readonly string[]): StudentsKey {
    const known = this.studentsKeys.get(students);
    if (known) return known;
    // Not frozen in turn: JavaScriptCore reads a frozen array on a slower path (asking
    // whether one is frozen too), and every row of a read goes through this list again
    // when it is written.
    const sorted = [...new Set(students)].sort();
    const made = { sorted, key: sorted.map(keyPart).join(",") };
    if (Object.isFrozen(students)) this.studentsKeys.set(students, made);
    return made;
  }

  private actorKey(actor: AuditActor): string {
    let key = this.actorKeys.get(actor);
    if (key === undefined) {
      key = [actor.userId, actor.username, actor.role].map(keyPart).join("|");
      this.actorKeys.set(actor, key);
    }
    return key;
  }

  /** Rows of reads taken by a job that did not commit: they wait again, before any newer. */
  private putBack(rows: AuditEntry[]): void {
    if (rows.length === 0) return;
    this.waiting = [...rows, ...this.waiting];
    this.timer ??= setTimeout(() => void this.flush(), viewRowDelayMilliseconds);
  }

  private takeWaiting(): AuditEntry[] {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.waiting;
    this.waiting = [];
    this.waitingReads = new Map();
    return rows;
  }
}
