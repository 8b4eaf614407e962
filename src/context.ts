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
import { RegistryClassifier } from "./models/registry";
import { AuthService } from "./auth/service";
import { ContentService } from "./modules/content/service";
import { DiaryService } from "./modules/diary/service";
import { DosenService } from "./modules/dosen/service";
import { StatisticsService } from "./modules/dosen/statistics";
import { MoodService } from "./modules/mood/service";
import { NotesService } from "./modules/notes/service";
import { DataSayaService } from "./modules/data-saya/service";
import { StudentDataDocuments } from "./privacy/document";
import { PrivasiService } from "./modules/privasi/service";
import { PhotoService } from "./modules/profil/photo";
import { ProfilService } from "./modules/profil/service";
import { QuestionsService } from "./modules/questions/service";
import { SafetyQuestionService } from "./modules/keselamatan/service";
import { SkriningService } from "./modules/skrining/service";
import { SubmissionService } from "./modules/skrining/submission";
import { PhotoStore } from "./photos/storage";

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
  submission: SubmissionService;
  skrining: SkriningService;
  /** Decisions §20: the optional safety question. */
  safety: SafetyQuestionService;
  questions: QuestionsService;
  content: ContentService;
  profil: ProfilService;
  audit: AuditTrail;
  photos: PhotoService;
  mood: MoodService;
  diary: DiaryService;
  notes: NotesService;
  dosen: DosenService;
  /** A student's data document (Data saya, the privacy export). */
  documents: StudentDataDocuments;
  dataSaya: DataSayaService;
  privasi: PrivasiService;
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
  const submission = new SubmissionService(db, writes, new RegistryClassifier(db, config.dataDir), logger, { followUpStressMin: config.followUpStressMin, timeZone: config.timeZone });
  const notes = new NotesService(db, writes);
  const profil = new ProfilService(db, writes);
  const mood = new MoodService(db, writes);
  const diary = new DiaryService(db, writes, config.diaryQuotaBytes);
  const content = new ContentService(config.dataDir, logger);
  const documents = new StudentDataDocuments(db, { profil, mood, diary, notes });
  return {
    config,
    db,
    logger,
    writes,
    health,
    audit: new AuditTrail(db.$client, writes, logger),
    accounts: new AccountsService(db, writes, config.bcryptCost),
    auth: new AuthService(db, writes, config),
    submission,
    skrining: new SkriningService(db, submission),
    safety: new SafetyQuestionService(db.$client, writes),
    questions: new QuestionsService(config.dataDir, logger),
    content,
    profil,
    photos: new PhotoService(db, writes, new PhotoStore(config.dataDir, config.photosDir), config.photoLimitBytes, logger),
    mood,
    diary,
    notes,
    dosen: new DosenService(db, new StatisticsService(db, config.timeZone), notes, config.followUpStressMin, config.followUpContactDays),
    documents,
    dataSaya: new DataSayaService(documents, config.dataDocumentsPerMinute),
    privasi: new PrivasiService(db, writes, content.privacyNotice),
  };
}

export function closeContext(context: AppContext): void {
  context.db.$client.close();
}
