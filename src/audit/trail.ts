import type { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { userInfo } from "node:os";
import type { WriteQueue } from "../db/write-queue";
import type { AuditAction } from "../db/schema";
import type { Logger } from "../logger";

/** Who acted: an account (from its token), a command on the PC, or nobody known (a failed login). */
export interface AuditActor {
  userId: number | null;
  username: string | null;
  /** `mahasiswa`, `dosen`, `admin`, `cli` or `anonim`. */
  role: string;
  name: string | null;
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
  /** The student concerned, when there is one. */
  nim?: string | null;
  /** The route (`GET /api/dosen/mahasiswa/:nim`) or the command (`skrining privacy erase`). */
  target: string;
  detail?: string | null;
  /** When it happened, if not when the row is appended (a read's row is written a moment later). */
  at?: Date;
  /** How many identical reads the row stands for: repeats of a read while its row waits are counted, not rowed. */
  reads?: number;
}

export interface AuditRow {
  id: number;
  at: string;
  actor_user_id: number | null;
  actor_username: string | null;
  actor_role: string;
  actor_name: string | null;
  client_address: string | null;
  action: AuditAction;
  nim: string | null;
  target: string;
  detail: string | null;
  reads: number;
  previous_hash: string;
  hash: string;
}

/** The `previous_hash` of the first row. */
export const chainStart = "0".repeat(64);

/** The actor of a command: the operating-system account that ran it (the one behind sudo, if any). */
export function commandActor(): AuditActor {
  let username = process.env.SUDO_USER || null;
  if (!username) {
    try {
      username = userInfo().username;
    } catch {
      username = null;
    }
  }
  return { userId: null, username, role: "cli", name: null };
}

/**
 * SHA-256 over every column but the hash itself, the id included so that rows cannot be
 * reordered. `reads` joins the content only when it is not 1, so rows written before the
 * column existed (migration 0008) keep their hashes.
 */
export function auditRowHash(row: Omit<AuditRow, "hash">): string {
  const content: unknown[] = [
    row.id,
    row.at,
    row.actor_user_id,
    row.actor_username,
    row.actor_role,
    row.actor_name,
    row.client_address,
    row.action,
    row.nim,
    row.target,
    row.detail,
    row.previous_hash,
  ];
  if (row.reads !== 1) content.push(row.reads);
  return createHash("sha256").update(JSON.stringify(content)).digest("hex");
}

/**
 * Appends rows to the chain. Must run inside a write transaction (the write queue's, or an
 * IMMEDIATE one of a command), so that no other process appends between reading the last
 * hash and inserting.
 */
export function appendAuditRows(sqlite: Database, entries: readonly AuditEntry[], now = new Date()): void {
  if (entries.length === 0) return;
  const last = sqlite.query<{ id: number; hash: string }, []>("SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1").get();
  const sequence = sqlite.query<{ seq: number }, []>("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'").get();
  let id = Math.max(last?.id ?? 0, sequence?.seq ?? 0);
  let previousHash = last?.hash ?? chainStart;
  const appendedAt = now.toISOString();
  // query(), not prepare(): the statement is cached by the connection and finalized when it closes.
  const insert = sqlite.query(
    `INSERT INTO audit_log (id, at, actor_user_id, actor_username, actor_role, actor_name, client_address, action, nim, target, detail, reads, previous_hash, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const entry of entries) {
    id += 1;
    const row = {
      id,
      at: entry.at ? entry.at.toISOString() : appendedAt,
      actor_user_id: entry.actor.userId,
      actor_username: entry.actor.username,
      actor_role: entry.actor.role,
      actor_name: entry.actor.name,
      client_address: entry.clientAddress ?? null,
      action: entry.action,
      nim: entry.nim ?? null,
      target: entry.target,
      detail: entry.detail ?? null,
      reads: entry.reads ?? 1,
      previous_hash: previousHash,
    };
    const hash = auditRowHash(row);
    insert.run(row.id, row.at, row.actor_user_id, row.actor_username, row.actor_role, row.actor_name, row.client_address, row.action, row.nim, row.target, row.detail, row.reads, row.previous_hash, hash);
    previousHash = hash;
  }
}

/** How long the rows of reads wait for company before they are written, and how many may wait. */
export const viewRowDelayMilliseconds = 100;
const viewRowBatch = 1000;

/** What a request did, the same for every student it concerns: its rows but for their `nim`. */
export type AuditEvent = Omit<AuditEntry, "nim" | "at" | "reads">;

/** A value of a repeat key: each prefixed by its length, so that no two different sequences of values join to the same key. */
const keyPart = (value: string | number | null | undefined) => (value === null || value === undefined ? "-" : `${String(value).length}:${value}`);

/**
 * The service's side of the trail. Writes are recorded before their answer is sent. The
 * rows of reads are not waited for: they gather for up to `viewRowDelayMilliseconds`
 * (or `viewRowBatch` rows) and are written in one job of the write queue, so that a busy
 * server flushes them to disk a few times a second instead of once per event-loop turn
 * (decisions: Audit trail). A read repeated while its row waits adds one to the row's
 * `reads` instead of a row of its own: every read is counted, and a client reading the same
 * thing in a loop costs a counter, not an insert. A crash can lose the view rows of that
 * last moment; a write's row is never lost, and takes the waiting view rows with it, in
 * their order.
 */
export class AuditTrail {
  private waiting: AuditEntry[] = [];
  /**
   * The waiting rows of reads by their repeat key: two reads with the same key (same
   * caller, address, action, route, detail and student) are one read repeated.
   */
  private waitingReads = new Map<string, AuditEntry & { reads: number }>();
  /** The part of the key an actor gives; actors are kept per caller (`principalActor`), so this is built once for each. */
  private readonly actorKeys = new WeakMap<AuditActor, string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private written: Promise<void> = Promise.resolve();

  constructor(
    private readonly sqlite: Database,
    private readonly writes: WriteQueue,
    private readonly logger: Logger,
  ) {}

  /** Resolves once the rows are on disk; a storage failure rejects, like the write it records. */
  record(...entries: AuditEntry[]): Promise<void> {
    const rows = [...this.takeWaiting(), ...entries];
    return this.writes.run(() => appendAuditRows(this.sqlite, rows));
  }

  /** The rows of a read, one for each student (`null`: none): written soon, with others, and not waited for. */
  note(event: AuditEvent, students: readonly (string | null)[]): void {
    if (students.length === 0) return;
    const at = new Date();
    const prefix = `${this.actorKey(event.actor)}|${keyPart(event.clientAddress)}|${keyPart(event.action)}|${keyPart(event.target)}|${keyPart(event.detail)}|`;
    for (const nim of students) {
      const key = prefix + keyPart(nim);
      const waiting = this.waitingReads.get(key);
      if (waiting) {
        waiting.reads += 1;
        continue;
      }
      const row = { ...event, nim, at, reads: 1 };
      this.waitingReads.set(key, row);
      this.waiting.push(row);
    }
    if (this.waiting.length >= viewRowBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), viewRowDelayMilliseconds);
  }

  /** Writes the waiting view rows now; resolves once they (and any earlier batch) are on disk or reported lost. */
  flush(): Promise<void> {
    const rows = this.takeWaiting();
    if (rows.length > 0) {
      this.written = this.writes
        .run(() => appendAuditRows(this.sqlite, rows))
        .catch((error: unknown) => {
          this.logger.error(`Jejak audit: ${rows.length} baris akses baca tidak tertulis: ${error instanceof Error ? error.message : String(error)}`);
        });
    }
    return this.written;
  }

  private actorKey(actor: AuditActor): string {
    let key = this.actorKeys.get(actor);
    if (key === undefined) {
      key = [actor.userId, actor.username, actor.role, actor.name].map(keyPart).join("|");
      this.actorKeys.set(actor, key);
    }
    return key;
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

export interface AuditProblem {
  id: number;
  problem: string;
}

const idRange = (first: number, last: number) => (first === last ? `baris ${first}` : `baris ${first}–${last}`);

/**
 * Walks the chain from the first row; every break is named by the row where it shows. A
 * gap in the ids is a removed row (AUTOINCREMENT never gives an id twice); a row whose
 * content no longer gives its hash was changed; a row whose `previous_hash` is not the
 * hash of the row before it, with no gap, follows a row that was changed and given a new
 * hash.
 */
export function verifyAuditChain(sqlite: Database): { rows: number; lastHash: string; problems: AuditProblem[] } {
  const problems: AuditProblem[] = [];
  let previousHash = chainStart;
  let previousId = 0;
  let rows = 0;
  for (const row of sqlite.query<AuditRow, []>("SELECT * FROM audit_log ORDER BY id").iterate()) {
    rows += 1;
    if (row.id !== previousId + 1) {
      problems.push({ id: row.id, problem: `${idRange(previousId + 1, row.id - 1)} hilang sebelum baris ini` });
    } else if (row.previous_hash !== previousHash) {
      problems.push({ id: row.id, problem: `hash baris sebelumnya tidak cocok: baris ${previousId} diubah (dan hash-nya dihitung ulang) atau baris ini diubah` });
    }
    const { hash, ...content } = row;
    if (auditRowHash(content) !== hash) problems.push({ id: row.id, problem: "isi baris tidak cocok dengan hash-nya: baris ini diubah" });
    previousHash = row.hash;
    previousId = row.id;
  }
  // AUTOINCREMENT remembers the highest id ever given, so removing the newest rows shows too.
  const sequence = sqlite.query<{ seq: number }, []>("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'").get()?.seq ?? 0;
  if (sequence > previousId) problems.push({ id: previousId + 1, problem: `${idRange(previousId + 1, sequence)} (yang terbaru) hilang` });
  return { rows, lastHash: previousHash, problems };
}

/** The triggers that keep the table append-only (migration 0005); the names of those missing. */
export const auditTriggers = ["audit_log_no_update", "audit_log_no_delete"] as const;

export function missingAuditTriggers(sqlite: Database): string[] {
  const present = new Set(
    sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log'").all().map((row) => row.name),
  );
  return auditTriggers.filter((name) => !present.has(name));
}
