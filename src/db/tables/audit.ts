// The audit trail (decisions: Privacy and audit).
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { auditActions } from "./audit-actions";

/**
 * Append-only: triggers refuse UPDATE and DELETE (migration 0005). Each row's `hash` is
 * SHA-256 over its content, its students and the previous row's hash, so a row changed or
 * removed by editing the file is found by `skrining audit verify`. No foreign keys: the
 * trail outlives the accounts and students it names. Rows of `format` 2 (migration 0011)
 * keep their students in audit_subjects and no actor name (looked up when shown, decisions
 * §16); rows of format 1, written before, keep `nim` and `actor_name` as they were hashed.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: text("at").notNull(),
    actorUserId: integer("actor_user_id"),
    actorUsername: text("actor_username"),
    /** `mahasiswa`, `dosen`, `admin`, `cli` (a command on the PC) or `anonim` (a failed login). */
    actorRole: text("actor_role").notNull(),
    actorName: text("actor_name"),
    clientAddress: text("client_address"),
    action: text("action", { enum: auditActions }).notNull(),
    nim: text("nim"),
    /** The route (`GET /api/dosen/mahasiswa/:nim`) or the command (`skrining privacy erase`). */
    target: text("target").notNull(),
    detail: text("detail"),
    /** How many identical reads the row stands for (decisions: Audit trail); 1 for every other action. */
    reads: integer("reads").notNull().default(1),
    previousHash: text("previous_hash").notNull(),
    hash: text("hash").notNull(),
    /** 1: written before migration 0011 (`nim`, `actor_name`); 2: students in audit_subjects, no name. */
    format: integer("format").notNull().default(1),
  },
  (table) => [
    index("audit_log_actor_index").on(table.actorUsername, table.id),
    index("audit_log_at_index").on(table.at),
    index("audit_log_action_index").on(table.action, table.id),
  ],
);

/**
 * The students each audit row concerns, one row per student: what `data-saya` and
 * `audit list --nim` read, by NIM. Append-only like the trail; a row of the trail hashes
 * its students, so one added or removed here is found by `audit verify`. WITHOUT ROWID
 * (its migration), so a student's rows sit together in primary-key order.
 */
export const auditSubjects = sqliteTable(
  "audit_subjects",
  {
    nim: text("nim").notNull(),
    auditId: integer("audit_id").notNull(),
  },
  (table) => [primaryKey({ columns: [table.nim, table.auditId] }), index("audit_subjects_row_index").on(table.auditId, table.nim)],
);
