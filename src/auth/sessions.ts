import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { createHash, randomBytes } from "node:crypto";
import type { DatabaseClient } from "../db";
import { databaseStamp, ReadCache } from "../db/read-cache";
import { sessions } from "../db/schema";
import { nowIso } from "../records";
import { preparedOnFirstUse } from "../db/prepared";

/**
 * What `sessions` stores of a session id: its SHA-256 (decisions §21). The id itself is
 * 128 random bits that only its tokens carry, so a copy of the database (a backup, a
 * download from the console) holds nothing a token signed with the copied secret could
 * name; a plain hash is enough for a random value of that size.
 */
export function sessionIdHash(id: string): string {
  return createHash("sha256").update(id).digest("base64url");
}

/**
 * Logins as rows of `sessions` (decisions §9). The database is the only truth, so a
 * logout in one process is seen by every other process on the same data folder and
 * survives a restart; reads go through a cache (by the id a token carries) that empties on
 * any write. The writing methods run inside a job of the write queue.
 */
export class SessionStore {
  private readonly sessionById;
  private readonly active: ReadCache<string, { userId: number; ended: boolean } | undefined>;

  constructor(
    private readonly db: DatabaseClient,
    private readonly lifetimeSeconds: number,
  ) {
    this.sessionById = preparedOnFirstUse(() =>
      db
        .select({ userId: sessions.userId, endedAt: sessions.endedAt })
        .from(sessions)
        .where(eq(sessions.idHash, sql.placeholder("idHash")))
        .prepare(),
    );
    this.active = new ReadCache(databaseStamp(db.$client), { reads: [sessions], maxEntries: 2000 });
  }

  /** Starts a session for a login; expired sessions are purged on the way. */
  start(userId: number): string {
    const id = randomBytes(16).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    this.db.delete(sessions).where(lt(sessions.expiresAt, now)).run();
    this.db.insert(sessions).values({ idHash: sessionIdHash(id), userId, createdAt: nowIso(), expiresAt: now + this.lifetimeSeconds }).run();
    return id;
  }

  /** Whether `id` is a session of `userId` that has not ended. */
  isActive(id: string, userId: number): boolean {
    const session = this.active.get(id, () => {
      const row = this.sessionById.get({ idHash: sessionIdHash(id) });
      return row && { userId: row.userId, ended: row.endedAt !== null };
    });
    return session !== undefined && session.userId === userId && !session.ended;
  }

  end(id: string): void {
    this.db.update(sessions).set({ endedAt: nowIso() }).where(and(eq(sessions.idHash, sessionIdHash(id)), isNull(sessions.endedAt))).run();
  }
}

/** Ends every session of a user (a password change, decisions §9). */
export function endAllSessions(db: DatabaseClient, userId: number): void {
  db.update(sessions).set({ endedAt: nowIso() }).where(and(eq(sessions.userId, userId), isNull(sessions.endedAt))).run();
}

/** Ends every session there is (a restore that made a new token key, decisions §21). */
export function endEverySession(db: DatabaseClient): void {
  db.update(sessions).set({ endedAt: nowIso() }).where(isNull(sessions.endedAt)).run();
}
