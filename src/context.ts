import type { Config } from "./config";
import { AccountsService } from "./accounts/service";
import { openDatabase, stopWaitingForLocks, type DatabaseClient } from "./db";
import { StorageHealth } from "./db/storage";
import { WriteQueue } from "./db/write-queue";
import { consoleLogger, type Logger } from "./logger";
import { RegistryClassifier } from "./models/registry";
import { AuthService } from "./modules/auth/service";
import { CatatanService } from "./modules/catatan/service";
import { DosenService } from "./modules/dosen/service";
import { StatisticsService } from "./modules/dosen/statistics";
import { FotoService } from "./modules/foto/service";
import { ProfilService } from "./modules/profil/service";
import { PhotoStore } from "./photos/storage";
import { DiaryService } from "./modules/diary/service";
import { QuestionsService } from "./modules/kuesioner/service";
import { KuesionerService } from "./modules/mahasiswa/kuesioner";
import { SkriningService } from "./modules/mahasiswa/service";
import { MoodService } from "./modules/mood/service";

/** The long-lived pieces one process shares: configuration, database and services. */
export interface AppContext {
  config: Config;
  db: DatabaseClient;
  logger: Logger;
  /** Every write of the process goes through it (see WriteQueue). */
  writes: WriteQueue;
  health: StorageHealth;
  accounts: AccountsService;
  auth: AuthService;
  kuesioner: KuesionerService;
  skrining: SkriningService;
  questions: QuestionsService;
  catatan: CatatanService;
  profil: ProfilService;
  foto: FotoService;
  mood: MoodService;
  diary: DiaryService;
  dosen: DosenService;
}

export function createContext(config: Config, logger: Logger = consoleLogger): AppContext {
  const db = openDatabase(config.databasePath);
  stopWaitingForLocks(db);
  const health = new StorageHealth(logger);
  const writes = new WriteQueue(db.$client, { busyWaitMilliseconds: config.busyWaitMilliseconds, health });
  const kuesioner = new KuesionerService(db, writes, new RegistryClassifier(db, config.dataDir), logger);
  return {
    config,
    db,
    logger,
    writes,
    health,
    accounts: new AccountsService(db, writes, config.bcryptCost),
    auth: new AuthService(db, writes, config),
    kuesioner,
    skrining: new SkriningService(db, kuesioner),
    questions: new QuestionsService(config.dataDir, logger),
    catatan: new CatatanService(db, writes),
    profil: new ProfilService(db, writes),
    foto: new FotoService(db, writes, new PhotoStore(config.dataDir, config.photosDir), config.photoLimitBytes, logger),
    mood: new MoodService(db, writes),
    diary: new DiaryService(db, writes, config.diaryQuotaBytes),
    dosen: new DosenService(db, writes, new StatisticsService(db)),
  };
}

export function closeContext(context: AppContext): void {
  context.db.$client.close();
}
