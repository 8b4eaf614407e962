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

export interface AuditEntry {
  actor: AuditActor;
  clientAddress?: string | null;
  action: AuditAction;
  /** The student concerned, when there is one. */
  nim?: string | null;
  /** The route (`GET /api/dosen/mahasiswa/:nim`) or the command (`skrining privacy erase`). */
  target: string;
  detail?: string | null;
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

/** SHA-256 over every column but the hash itself, the id included so that rows cannot be reordered. */
export function auditRowHash(row: Omit<AuditRow, "hash">): string {
  const content = [
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
  const at = now.toISOString();
  const insert = sqlite.prepare(
    `INSERT INTO audit_log (id, at, actor_user_id, actor_username, actor_role, actor_name, client_address, action, nim, target, detail, previous_hash, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const entry of entries) {
    id += 1;
    const row = {
      id,
      at,
      actor_user_id: entry.actor.userId,
      actor_username: entry.actor.username,
      actor_role: entry.actor.role,
      actor_name: entry.actor.name,
      client_address: entry.clientAddress ?? null,
      action: entry.action,
      nim: entry.nim ?? null,
      target: entry.target,
      detail: entry.detail ?? null,
      previous_hash: previousHash,
    };
    const hash = auditRowHash(row);
    insert.run(row.id, row.at, row.actor_user_id, row.actor_username, row.actor_role, row.actor_name, row.client_address, row.action, row.nim, row.target, row.detail, row.previous_hash, hash);
    previousHash = hash;
  }
}

/**
 * The service's side of the trail. Writes are recorded before their answer is sent;
 * reads join the next group of writes and are not waited for, so that logging a view
 * costs a read no flush of its own (decisions: Privacy and audit).
 */
export class AuditTrail {
  constructor(
    private readonly sqlite: Database,
    private readonly writes: WriteQueue,
    private readonly logger: Logger,
  ) {}

  /** Resolves once the rows are on disk; a storage failure rejects, like the write it records. */
  record(...entries: AuditEntry[]): Promise<void> {
    return this.writes.run(() => appendAuditRows(this.sqlite, entries));
  }

  /** Rows for a read: they join the write queue's next group (one commit for every job of a turn) and are not waited for. */
  note(...entries: AuditEntry[]): void {
    if (entries.length === 0) return;
    this.writes.run(() => appendAuditRows(this.sqlite, entries)).catch((error: unknown) => {
      this.logger.error(`Jejak audit: ${entries.length} baris akses baca tidak tertulis: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}

export interface AuditProblem {
  id: number;
  problem: string;
}

/** Walks the chain from the first row; every break is named by the row where it shows. */
export function verifyAuditChain(sqlite: Database): { rows: number; lastHash: string; problems: AuditProblem[] } {
  const problems: AuditProblem[] = [];
  let previousHash = chainStart;
  let previousId = 0;
  let rows = 0;
  for (const row of sqlite.query<AuditRow, []>("SELECT * FROM audit_log ORDER BY id").iterate()) {
    rows += 1;
    if (row.id !== previousId + 1) {
      problems.push({ id: row.id, problem: `baris ${previousId + 1}–${row.id - 1} hilang sebelum baris ini` });
    }
    if (row.previous_hash !== previousHash) {
      problems.push({ id: row.id, problem: "hash baris sebelumnya tidak cocok: baris sebelumnya diubah atau dihapus" });
    }
    const { hash, ...content } = row;
    if (auditRowHash(content) !== hash) problems.push({ id: row.id, problem: "isi baris tidak cocok dengan hash-nya: baris ini diubah" });
    previousHash = row.hash;
    previousId = row.id;
  }
  // AUTOINCREMENT remembers the highest id ever given, so removing the newest rows shows too.
  const sequence = sqlite.query<{ seq: number }, []>("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'").get()?.seq ?? 0;
  if (sequence > previousId) problems.push({ id: previousId + 1, problem: `baris ${previousId + 1}–${sequence} (yang terbaru) hilang` });
  return { rows, lastHash: previousHash, problems };
}
