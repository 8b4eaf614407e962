import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { InvalidInput } from "./errors";
import { defaultTimeZone, readTimeZone } from "./local-time";
import { readCsvDialect, type CsvDialect } from "./csv";
import { readHostNames } from "./machine";

/** Everything the service can be tuned with; built once from options and the environment. */
export interface Config {
  dataDir: string;
  databasePath: string;
  photosDir: string;
  modelsDir: string;
  secretPath: string;
  tokenSecret: Uint8Array;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  bcryptCost: number;
  /** log2 of scrypt's N for the key of a new encrypted backup. */
  backupKdfCost: number;
  throttle: { perUsername: number; perAddress: number; windowSeconds: number; maxKeys: number };
  /** Writes one student account may make per minute (a token bucket with a burst of the same size). */
  studentWritesPerMinute: number;
  /** Reads without a token (the photo route) one client address may make per minute (decisions §16). */
  tokenlessReadsPerMinute: number;
  /** Times a student may fetch their whole data document per minute (`GET /api/mahasiswa/data-saya`). */
  dataDocumentsPerMinute: number;
  /** The UTF-8 bytes of title and content a student's diary may hold in total. */
  diaryQuotaBytes: number;
  /** How long the server's writes wait for another program's database lock before answering 503. */
  busyWaitMilliseconds: number;
  corsOrigins: string[] | "lan";
  jsonBodyLimitBytes: number;
  photoLimitBytes: number;
  logRequests: boolean;
  /** The faculty's IANA time zone (decisions §11): weeks, exported dates, the web interface. */
  timeZone: string;
  /** The CSV an export writes unless told otherwise (decisions §12). */
  csvDialect: CsvDialect;
  /** A score_stress at or above this opens a follow-up case whatever the motivation (decisions §13, `stres_sangat_tinggi`). */
  followUpStressMin: number;
  /** An open case without a first contact this many days after it opened is `terlambat` (decisions §19). */
  followUpContactDays: number;
  /** Names of the PC a browser may use besides its IP addresses and own names (decisions §15, `SKRINING_HOSTNAMES`, `serve --hostname`). */
  hostNames: string[];
  /** Where the admin console answers (`serve --admin-web`): this PC only, the LAN too, or nowhere. */
  adminWeb: AdminWeb;
  /** The largest roster file (and sample CSV) the admin console reads. */
  rosterLimitBytes: number;
  /** The largest model file the admin console reads. */
  modelLimitBytes: number;
  /** How often serve looks at its certificate, the PC's addresses and `tls/` (decisions §18): a new address is covered within this time. */
  tlsCheckSeconds: number;
  /** How often serve looks for a roster import to back up after (issue 44). */
  backupCheckSeconds: number;
}

/** `serve --admin-web`: who reaches the admin console's pages and routes (decisions: Admin console). */
export const adminWebModes = ["local", "lan", "off"] as const;
export type AdminWeb = (typeof adminWebModes)[number];

function adminWebFrom(environment: Environment): AdminWeb {
  const raw = environment.SKRINING_ADMIN_WEB?.trim().toLowerCase();
  if (!raw) return "local";
  const mode = adminWebModes.find((each) => each === raw);
  if (!mode) throw new InvalidInput(`SKRINING_ADMIN_WEB harus ${adminWebModes.join(", ")} (diberikan: ${environment.SKRINING_ADMIN_WEB}).`);
  return mode;
}

type Environment = Record<string, string | undefined>;

function integerFrom(environment: Environment, name: string, fallback: number, minimum: number, maximum = Number.MAX_SAFE_INTEGER): number {
  const raw = environment[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum || value > maximum) {
    const range = maximum === Number.MAX_SAFE_INTEGER ? `>= ${minimum}` : `antara ${minimum} dan ${maximum}`;
    throw new InvalidInput(`${name} harus bilangan bulat ${range} (diberikan: ${raw}).`);
  }
  return value;
}

/** The default of decisions §13: an average answer of "cukup sering" (4) over the 40 stress items. */
export const defaultFollowUpStressMin = 160;

/** Decisions §19: the contact target, in days after a case opens. */
export const defaultFollowUpContactDays = 3;

export function resolveDataDir(option: string | undefined, environment: Environment = process.env): string {
  return resolve(option ?? (environment.SKRINING_DATA || "./data"));
}

/** A new token key: 48 random bytes as text, in a file its owner alone reads (`wx`: only where there is none). */
export function writeTokenSecret(secretPath: string, flag: "w" | "wx" = "w"): void {
  writeFileSync(secretPath, randomBytes(48).toString("base64url") + "\n", { mode: 0o600, flag });
}

/**
 * The token key lives in the data folder so every process (server and CLI) signs with the
 * same key; it is created once, readable by its owner only.
 */
function loadOrCreateSecret(secretPath: string, environment: Environment): Uint8Array {
  const override = environment.SKRINING_SECRET;
  if (override) {
    if (override.length < 32) throw new Error("SKRINING_SECRET harus minimal 32 karakter.");
    return new TextEncoder().encode(override);
  }
  if (!existsSync(secretPath)) writeTokenSecret(secretPath, "wx");
  chmodSync(secretPath, 0o600);
  return new TextEncoder().encode(readFileSync(secretPath, "utf8").trim());
}

function corsOriginsFrom(environment: Environment): string[] | "lan" {
  const raw = environment.SKRINING_CORS_ORIGINS?.trim();
  if (!raw || raw === "lan") return "lan";
  return raw.split(",").map((origin) => origin.trim()).filter(Boolean);
}

/**
 * The data folder and its subfolders are its owner's alone (decisions §9): created 0700,
 * and an existing folder is narrowed to 0700, whatever the umask.
 */
function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** A data folder that cannot be used as it is; the message says why and what to do. */
class DataFolderError extends InvalidInput {}

/** The cost of new bcrypt hashes unless SKRINING_BCRYPT_COST says otherwise. */
export const defaultBcryptCost = 10;

/** log2 of scrypt's N for new encrypted backups unless SKRINING_BACKUP_KDF_COST says otherwise (15: 32 MB, about 0.1 s). */
/** The costs (log2 of N) a new archive may be made with, and that a reader accepts: a header cannot make a restore spend hours. */
export const kdfCostRange = { lowest: 10, highest: 20 } as const;
const defaultBackupKdfCost = 15;

export const databaseFileName = "skrining.db";

/** The data files an admin may replace from the CLI, by what they hold; backups carry them. */
export const replaceableFileNames = { questions: "questions.json", help: "help.json", privacyNotice: "privacy-notice.json" } as const;

/**
 * What a data folder holds besides its database: the secret, WAL files, photos, models,
 * the replaceable data files. Listed by name for the message of DataFolderError.
 */
function dataBesidesDatabase(dataDir: string): string[] {
  const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
  const found = entries(dataDir).filter((name) => name === "secret" || name.startsWith(`${databaseFileName}-`) || name.endsWith(".json"));
  for (const folder of ["photos", "models"]) if (entries(join(dataDir, folder)).length > 0) found.push(`${folder}/`);
  return found.sort();
}

/**
 * A folder that holds data but no database is a wrong `--data` or a restore left half
 * done: starting a new, empty database there would hand out a new admin password and
 * treat every photo as an orphan. It is refused instead, before anything is created.
 */
function assertDatabaseNotMissing(dataDir: string): void {
  if (existsSync(join(dataDir, databaseFileName))) return;
  const found = dataBesidesDatabase(dataDir);
  if (found.length === 0) return;
  throw new DataFolderError(
    `Folder data ${dataDir} berisi data (${found.join(", ")}) tetapi tidak ada ${databaseFileName}. ` +
      "skrining tidak membuat basis data baru di atasnya: periksa --data, atau pulihkan cadangan (docs/operations.md).",
  );
}

/**
 * Whether a command may start a new data folder (issue 44): `serve` and `restore` may
 * (`create: true`); `accounts import`, `accounts add` and `tls init` only in a folder that
 * `--data` or SKRINING_DATA names (`onlyWhenNamed`), never in the default `./data` of
 * whatever folder they were run from, which the server would never see. Each is told when
 * it did, to say so. Every other command refuses a folder without a database, so a
 * mistyped `--data` is noticed instead of answered from a new, empty database.
 */
export type DataFolderUse = { create: false } | { create: true; created?: (dataDir: string) => void; onlyWhenNamed?: { named: boolean } };

/** Which commands start a data folder, as the refusals name them. */
const startingCommands =
  "folder data baru hanya dibuat oleh 'skrining serve' dan 'skrining restore', atau oleh 'skrining accounts import', 'skrining accounts add' dan 'skrining tls init' bila --data (atau SKRINING_DATA) menyebutnya";

/**
 * A folder without a database, for a command that may not start one: refused before
 * anything is created, naming the folder and where it came from.
 */
function assertDatabasePresent(dataDir: string): void {
  if (existsSync(join(dataDir, databaseFileName))) return;
  const problem = existsSync(dataDir) ? `belum berisi basis data (${databaseFileName})` : "tidak ada";
  throw new DataFolderError(`Folder data ${dataDir} ${problem}. Periksa --data (atau SKRINING_DATA); ${startingCommands}.`);
}

/**
 * Whether `dataDir` (the default `./data` unless `named`) may become a new data folder: a
 * command run from another folder than the server's would otherwise start a second data
 * folder there, which the server never sees (issue 44). Refused, naming `--data`.
 */
export function assertMayStartDataFolder(dataDir: string, named: boolean): void {
  if (named || existsSync(join(dataDir, databaseFileName))) return;
  throw new DataFolderError(
    `Folder data ${dataDir} (bawaan ./data di folder kerja ini) ${existsSync(dataDir) ? `belum berisi basis data (${databaseFileName})` : "tidak ada"}; ` +
      "folder data baru tidak dibuat di sini tanpa disebut. Beri --data <folder data server> (atau SKRINING_DATA), mis. --data /var/lib/skrining; " +
      "untuk sengaja memulai folder data baru di sini: --data ./data.",
  );
}

/** Whether the data folder was named (`--data` or SKRINING_DATA) rather than the default `./data`. */
export const dataDirNamed = (option: string | undefined, environment: Environment = process.env) => option !== undefined || Boolean(environment.SKRINING_DATA);

/** Creates the data folder layout on first use (when `use` allows) and reads every setting. */
export function loadConfig(dataDirOption?: string, environment: Environment = process.env, use: DataFolderUse = { create: true }): Config {
  // Read before anything is created: a mistyped zone leaves no folder behind.
  const timeZone = readTimeZone(environment.SKRINING_TZ || defaultTimeZone);
  const csvDialect = readCsvDialect(environment.SKRINING_CSV || "excel-id");
  // Above the fallback's Sedang band (up to 120), at most the highest score.
  const followUpStressMin = integerFrom(environment, "SKRINING_FOLLOW_UP_STRESS_MIN", defaultFollowUpStressMin, 121, 200);
  const followUpContactDays = integerFrom(environment, "SKRINING_FOLLOW_UP_CONTACT_DAYS", defaultFollowUpContactDays, 1, 30);
  const hostNames = readHostNames([environment.SKRINING_HOSTNAMES ?? ""]);
  const adminWeb = adminWebFrom(environment);
  const rosterLimitBytes = integerFrom(environment, "SKRINING_ROSTER_LIMIT", 5 * 1024 * 1024, 1024);
  const modelLimitBytes = integerFrom(environment, "SKRINING_MODEL_LIMIT", 50 * 1024 * 1024, 1024);
  const dataDir = resolveDataDir(dataDirOption, environment);
  assertDatabaseNotMissing(dataDir);
  const databasePresent = existsSync(join(dataDir, databaseFileName));
  if (!use.create) assertDatabasePresent(dataDir);
  else if (use.onlyWhenNamed) assertMayStartDataFolder(dataDir, use.onlyWhenNamed.named);
  const photosDir = join(dataDir, "photos");
  const modelsDir = join(dataDir, "models");
  for (const dir of [dataDir, photosDir, modelsDir]) privateFolder(dir);
  if (!databasePresent && use.create) use.created?.(dataDir);
  const secretPath = join(dataDir, "secret");
  return {
    dataDir,
    databasePath: join(dataDir, databaseFileName),
    photosDir,
    modelsDir,
    secretPath,
    tokenSecret: loadOrCreateSecret(secretPath, environment),
    accessTokenSeconds: integerFrom(environment, "SKRINING_ACCESS_TTL", 8 * 3600, 1),
    refreshTokenSeconds: integerFrom(environment, "SKRINING_REFRESH_TTL", 30 * 24 * 3600, 1),
    bcryptCost: integerFrom(environment, "SKRINING_BCRYPT_COST", defaultBcryptCost, 4),
    backupKdfCost: integerFrom(environment, "SKRINING_BACKUP_KDF_COST", defaultBackupKdfCost, kdfCostRange.lowest, kdfCostRange.highest),
    throttle: {
      perUsername: integerFrom(environment, "SKRINING_THROTTLE_USERNAME", 10, 1),
      perAddress: integerFrom(environment, "SKRINING_THROTTLE_ADDRESS", 100, 1),
      windowSeconds: integerFrom(environment, "SKRINING_THROTTLE_WINDOW", 15 * 60, 1),
      maxKeys: integerFrom(environment, "SKRINING_THROTTLE_KEYS", 20_000, 2),
    },
    studentWritesPerMinute: integerFrom(environment, "SKRINING_STUDENT_WRITES", 30, 1),
    tokenlessReadsPerMinute: integerFrom(environment, "SKRINING_TOKENLESS_READS", 120, 1),
    dataDocumentsPerMinute: integerFrom(environment, "SKRINING_DATA_SAYA_PER_MINUTE", 6, 1),
    diaryQuotaBytes: integerFrom(environment, "SKRINING_DIARY_QUOTA", 4 * 1024 * 1024, 1024),
    busyWaitMilliseconds: integerFrom(environment, "SKRINING_BUSY_WAIT", 1000, 0),
    corsOrigins: corsOriginsFrom(environment),
    jsonBodyLimitBytes: 1024 * 1024,
    photoLimitBytes: integerFrom(environment, "SKRINING_PHOTO_LIMIT", 2 * 1024 * 1024, 1024),
    logRequests: environment.SKRINING_LOG !== "off",
    timeZone,
    csvDialect,
    followUpStressMin,
    followUpContactDays,
    hostNames,
    adminWeb,
    rosterLimitBytes,
    modelLimitBytes,
    tlsCheckSeconds: integerFrom(environment, "SKRINING_TLS_CHECK_SECONDS", 60, 1),
    backupCheckSeconds: integerFrom(environment, "SKRINING_BACKUP_CHECK_SECONDS", 60, 1),
  };
}
