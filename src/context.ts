import { AccountsService } from "./accounts/service";
import type { Config } from "./config";
import { openDatabase, scratchInMemory, stopWaitingForLocks, type DatabaseClient, type MigrationRecord } from "./db";
import { StorageHealth, asStorageError } from "./db/storage";
import { AuditTrail } from "./audit/trail";
import { hasWeeklyCounts, useTimeZone, weeksTimeZone } from "./db/summaries";
import { zoneOffsetChanges } from "./local-time";
import { HoldableWriteQueue } from "./db/held-writes";
import type { WriteQueue } from "./db/write-queue";
import { changeRowCompanion } from "./audit/change-row";
import { consoleLogger, type Logger } from "./logger";
import { AuthService } from "./auth/service";
import { AdvisorScope } from "./privasi/advisor-scope";
import { ProcessingRestriction } from "./privasi/restriction";


/**
 * The core one process shares: configuration, the database and its write queue, storage
 * health, the logger, the audit trail, accounts and sign-in, and who may see a student and
 * whose processing is restricted (decisions §9). Everything else is a feature's:
 * each module builds its own services from this (src/modules/<feature>/index.ts), and
 * src/app.ts lists the modules.
 */
export interface AppContext {
  config: Config;
  db: DatabaseClient;
  logger: Logger;
  /** Every write of the process goes through it (see WriteQueue). */
  writes: WriteQueue;
  health: StorageHealth;
  accounts: AccountsService;
  auth: AuthService;
  audit: AuditTrail;
  /** Who may see a student (decisions §9): one for the route guards and every module. */
  scope: AdvisorScope;
  /** Whose processing is restricted (`privacy restrict`): one, with one read cache, for the guards and every module. */
  restriction: ProcessingRestriction;
}

/**
 * The long-lived pieces on the data folder of `config`. `migration` names who migrates a
 * database that holds data (serve's audit row, issue 44).
 */
export function createContext(config: Config, logger: Logger = consoleLogger, migration: MigrationRecord = {}): AppContext {
  const db = openDatabase(config.databasePath, undefined, logger, "migrate", migration);
  // Before the server stops waiting for locks: a command may hold the database a moment.
  try {
    const previousZone = weeksTimeZone(db.$client) ?? "UTC";
    const recounted = useTimeZone(db.$client, config.timeZone, zoneOffsetChanges);
    // A new database has nothing to recount; one with screenings is worth a line.
    if (recounted && hasWeeklyCounts(db.$client)) {
      logger.info(`Minggu statistik kini dihitung menurut zona waktu ${config.timeZone} (sebelumnya ${previousZone}).`);
    }
  } catch (error) {
    db.$client.close();
    throw asStorageError(error, config.databasePath);
  }
  stopWaitingForLocks(db);
  scratchInMemory.use(db);
  const health = new StorageHealth(logger);
  const writes = new HoldableWriteQueue(db.$client, { busyWaitMilliseconds: config.busyWaitMilliseconds, health, companionOf: changeRowCompanion });
  return {
    config,
    db,
    logger,
    writes,
    health,
    audit: new AuditTrail(db.$client, writes, logger),
    accounts: new AccountsService(db, writes, config.bcryptCost),
    auth: new AuthService(db, writes, config),
    scope: new AdvisorScope(db.$client),
    restriction: new ProcessingRestriction(db),
  };
}

export function closeContext(context: AppContext): void {
  context.db.$client.close();
}
