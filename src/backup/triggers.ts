import { desc, eq } from "drizzle-orm";
import type { DatabaseClient } from "../db";
import { schemaLevel } from "../db/migrate";
import { auditLog } from "../db/schema";
import type { BackupTriggers } from "./automatic";

/**
 * What in the server's database calls for a backup before the schedule's next (issue 44):
 * the newest roster import by its audit row (whoever made it: the console, or
 * `accounts import` in another process), found through the index on the action; and how
 * many migrations the database has had.
 */
export function databaseChanges(db: DatabaseClient): BackupTriggers {
  return {
    newestImport: () => {
      const row = db.select({ id: auditLog.id, at: auditLog.at }).from(auditLog).where(eq(auditLog.action, "accounts_import")).orderBy(desc(auditLog.id)).limit(1).get();
      return row ? { id: row.id, at: Date.parse(row.at) } : null;
    },
    schemaMigrations: () => schemaLevel(db.$client).applied,
  };
}
