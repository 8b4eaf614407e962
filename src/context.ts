import type { Config } from "./config";
import { openDatabase, type DatabaseClient } from "./db";
import { consoleLogger, type Logger } from "./logger";
import { AuthService } from "./modules/auth/service";

/** The long-lived pieces one process shares: configuration, database and services. */
export interface AppContext {
  config: Config;
  db: DatabaseClient;
  logger: Logger;
  auth: AuthService;
}

export function createContext(config: Config, logger: Logger = consoleLogger): AppContext {
  const db = openDatabase(config.databasePath);
  return { config, db, logger, auth: new AuthService(db, config) };
}

export function closeContext(context: AppContext): void {
  context.db.$client.close();
}
