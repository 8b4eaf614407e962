import type { Config } from "./config";
import { openDatabase, type DatabaseClient } from "./db";
import { GroupCommit } from "./db/group-commit";
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
  const kuesioner = new KuesionerService(db, new GroupCommit(db.$client), new RegistryClassifier(db, config.dataDir), logger);
  return {
    config,
    db,
    logger,
    auth: new AuthService(db, config),
    kuesioner,
    skrining: new SkriningService(db, kuesioner),
    questions: new QuestionsService(config.dataDir, logger),
    catatan: new CatatanService(db),
    profil: new ProfilService(db),
    foto: new FotoService(db, new PhotoStore(config.dataDir, config.photosDir), config.photoLimitBytes, logger),
    mood: new MoodService(db),
    diary: new DiaryService(db, config.diaryQuotaBytes),
    dosen: new DosenService(db, new StatisticsService(db)),
  };
}

export function closeContext(context: AppContext): void {
  context.db.$client.close();
}
