import type { Config } from "./config";
import { openDatabase, type DatabaseClient } from "./db";
import { consoleLogger, type Logger } from "./logger";
import { thresholdsOnly } from "./models/classifier";
import { AuthService } from "./modules/auth/service";
import { CatatanService } from "./modules/catatan/service";
import { QuestionsService } from "./modules/kuesioner/service";
import { KuesionerService } from "./modules/mahasiswa/kuesioner";
import { SkriningService } from "./modules/mahasiswa/service";

/** The long-lived pieces one process shares: configuration, database and services. */
export interface AppContext {
  config: Config;
  db: DatabaseClient;
  logger: Logger;
  auth: AuthService;
  kuesioner: KuesionerService;
  skrining: SkriningService;
  questions: QuestionsService;
  catatan: CatatanService;
}

export function createContext(config: Config, logger: Logger = consoleLogger): AppContext {
  const db = openDatabase(config.databasePath);
  const kuesioner = new KuesionerService(db, thresholdsOnly, logger);
  return {
    config,
    db,
    logger,
    auth: new AuthService(db, config),
    kuesioner,
    skrining: new SkriningService(db, kuesioner),
    questions: new QuestionsService(config.dataDir, logger),
    catatan: new CatatanService(db),
  };
}

export function closeContext(context: AppContext): void {
  context.db.$client.close();
}
