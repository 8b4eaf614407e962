import { join } from "node:path";
import { createApp, largestBodyBytes } from "./app";
import { commandActor } from "./audit/trail";
import { AutomaticBackups } from "./backup/automatic";
import { backupInChildProcess } from "./backup/child-process";
import { BackupFolder } from "./backup/backup-folder";
import { databaseChanges } from "./backup/triggers";
import { dataFolderIdentity } from "./backup/folder-identity";
import { banner, lanUrls } from "./banner";
import { describeBuild } from "./build-info";
import { writeServeState } from "./serve-state";
import type { Config } from "./config";
import type { Bcrypt } from "./accounts/bcrypt";
import { clearUnshownPassword, createFirstAdmin, unshownPasswordReminder } from "./accounts/first-admin";
import { passwordHashing } from "./accounts/passwords";
import { closeContext, createContext } from "./context";
import { checkAfterListening } from "./db/integrity";
import { naming } from "./db/storage";
import { unreferencedFolder } from "./photos/storage";
import type { Logger } from "./logger";
import { consoleAddressOn } from "./http/admin-web";
import { certificatePort, type HttpApi } from "./http/certificate-port";
import { hostCheck } from "./http/host-names";
import { Listeners } from "./http/listeners";
import { routeByPath } from "./http/routing";
import type { PhotoService } from "./modules/profil/photo";
import type { ServedTls } from "./tls/served";
import { builtWebAssets, webInterface } from "./http/web";

interface ServeOptions {
  host: string;
  port: number;
  /** With TLS (a `tls/` folder or --tls-cert/--tls-key): the port of everything but the certificate page (decisions §18). */
  httpsPort?: number;
  /** With TLS: whether the plain port answers the API too (`--http-api allow`, for an old app). */
  httpApi?: HttpApi;
  /** The certificate to serve, read and checked before the data folder was opened (openServedTls); null for plain HTTP. */
  tls: ServedTls | null;
  /** Automatic backups (`--backup-dir`, `--backup-every`, `--backup-keep`), encrypted with `passphrase` (`--backup-passphrase-file`); none when absent. */
  backups?: { folder: string; everyMilliseconds: number; keep: number; passphrase?: string };
  /** Stops the server as SIGTERM does (the command line's output was closed: `serve | head`). */
  stop?: AbortSignal;
  /** Whether the lines logged so far reached their reader (cli/pipes.ts); assumed when absent. */
  outputWritten?: () => Promise<boolean>;
  /** `--hostname` (checked: readHostNames): more names of the PC a browser may use (decisions §15), besides SKRINING_HOSTNAMES. */
  hostnames?: string[];
  /**
   * Writes a line to the terminal the server was started from, and nowhere else (not the
   * log file); null or absent when standard output is no terminal (a service's journal, a
   * pipe, a file). Only there is the first admin's generated password shown (decisions §21).
   */
  terminal?: ((line: string) => void) | null;
}

/**
 * The backup folder, claimed for this data folder (decisions §17): refused when it is inside
 * the data folder or another data folder owns it. A data folder copied by hand gets an
 * identity of its own here, so the copy's backups never rotate the original's. Encrypted
 * archives are read with the server's passphrase; one it cannot read is nobody's. The
 * archive reader (tar) is loaded only by a server that makes backups.
 */
async function claimBackupFolder(config: Config, folder: string, passphrase: string | undefined, logger: Logger): Promise<BackupFolder> {
  const { readArchive } = await import("./backup/archive-reader");
  const identity = dataFolderIdentity(config.dataDir);
  if (identity.changed === "copy") logger.info(`Folder data ${config.dataDir} adalah salinan folder data lain: mendapat identitas sendiri, jadi cadangan otomatisnya terpisah.`);
  const source = passphrase === undefined ? undefined : async () => passphrase;
  return BackupFolder.claim(folder, config.dataDir, identity, async (archive) => (await readArchive(archive, source)).manifest, logger);
}

/**
 * Whether a request may read or write an account, so that it must wait for the first
 * admin: anything with credentials (a token) and anything that is not a plain read (a
 * login, an activation). A read without a token (`GET /api/auth/me` answering 401, the
 * web pages, /health, a CORS preflight) is answered at once.
 */
function mayConcernAccounts(request: Request): boolean {
  return request.headers.has("authorization") || !["GET", "HEAD", "OPTIONS"].includes(request.method);
}

/**
 * The start-up tidy of the photos folder (PhotoService.sweepOrphans) among the files that
 * were there before the port opened. A failure (a read-only folder) is logged: the
 * service goes on, and the next start tries again.
 */
function tidyPhotos(photos: PhotoService, photosDir: string, among: ReadonlySet<string>, logger: Logger): void {
  try {
    const swept = photos.sweepOrphans(among);
    if (swept && swept.deleted > 0) logger.info(`${swept.deleted} unggahan foto yang tidak selesai dihapus dari ${photosDir}`);
    if (swept && swept.movedAside > 0) {
      logger.info(`${swept.movedAside} file foto tanpa pemilik dipindahkan ke ${join(photosDir, unreferencedFolder)}; periksa lalu hapus bila memang tidak dipakai.`);
    }
  } catch (error) {
    logger.error(`Perapian folder foto ${photosDir} saat start gagal: ${error instanceof Error ? error.message : String(error)}; dicoba lagi pada start berikutnya.`);
  }
}

/** Runs the service until SIGINT or SIGTERM; resolves once it has stopped cleanly. */
export async function serve(config: Config, options: ServeOptions, logger: Logger, environment: Record<string, string | undefined> = process.env): Promise<void> {
  const { tls } = options;
  const givenNames = [...config.hostNames, ...(options.hostnames ?? [])];
  // A file that is no database, or damage met while opening it, stops the start here with
  // the file named; the whole file is checked once the port listens (checkAfterListening).
  // A migration at this start leaves its audit row as `skrining migrate`'s does (issue 44).
  const context = naming(config.databasePath, () => createContext(config, logger, { source: { actor: commandActor(), target: "skrining serve" } }));
  let backupFolder: BackupFolder | undefined;
  let bcrypt: Bcrypt;
  try {
    backupFolder = options.backups && (await claimBackupFolder(config, options.backups.folder, options.backups.passphrase, logger));
    // Chosen before the first admin is hashed, so that a refused SKRINING_BCRYPT stops the start rather than a login.
    bcrypt = await passwordHashing();
  } catch (error) {
    closeContext(context);
    throw error;
  }
  let listeners: Listeners | undefined;
  const clientAddress = (request: Request) => listeners?.requestAddress(request) ?? "unknown";
  const assets = await builtWebAssets();
  if (!assets) logger.error("Antarmuka web belum dibangun (server dijalankan dari kode sumber tanpa build): halaman web menjawab 503; jalankan 'npm run build:web', lalu mulai ulang. API tetap berjalan.");
  // The console's address on this PC, as its refusal to a LAN client names it: the service's scheme and port once open.
  const consoleAddress = () => consoleAddressOn(tls ? "https" : "http", listeners?.servicePort ?? options.port);
  const web = webInterface(config.timeZone, assets, { adminWeb: config.adminWeb, clientAddress, consoleAddress });
  // Made before the app, for the console's "Cadangan"; started once the server listens and the admin exists.
  let backups: AutomaticBackups | null = null;
  if (options.backups && backupFolder) {
    const { passphrase, ...schedule } = options.backups;
    const write = backupInChildProcess(config.dataDir, environment, passphrase);
    backups = new AutomaticBackups({
      ...schedule,
      encrypted: passphrase !== undefined,
      write,
      ownership: backupFolder,
      logger,
      // A backup soon after a roster import and after a migration (issue 44).
      triggers: databaseChanges(context.db),
      checkEveryMilliseconds: config.backupCheckSeconds * 1000,
    });
  }
  // Where the console's Sertifikat page says the service and the certificate page are: the PC's addresses now.
  const addresses = () => ({ https: lanUrls(options.host, listeners!.servicePort, "https").map((url) => `${url}/`), certificatePage: lanUrls(options.host, listeners!.plainPort, "http").map((url) => `${url}/`) });
  const app = createApp(context, clientAddress, { backups, tls: tls && { served: tls, addresses }, consoleAddress });
  // The photos there before the port opens: the tidy after the check looks at these only, never at an upload of this run.
  const photosBefore = app.features.photos.photoFiles();

  // The web interface answers its own paths; everything else is the API's.
  // A browser naming the PC by a name nobody gave it is refused first (DNS rebinding, decisions §15);
  // the names the served certificate covers are the PC's too.
  const wrongHost = hostCheck(givenNames, () => tls?.pair.facts.dnsNames ?? []);
  const answer = (request: Request) => wrongHost(request) ?? web(request) ?? app.handle(routeByPath(request));
  // Requests that come while the first admin is being created wait for it (a login as admin
  // then works), unless they cannot concern any account (mayConcernAccounts).
  let ready = false;
  const { promise: firstAdminCreated, resolve: admitWaiting } = Promise.withResolvers<void>();
  const service = (request: Request) => (ready || !mayConcernAccounts(request) ? answer(request) : firstAdminCreated.then(() => answer(request)));
  // The plain port's answers name the ports as they are once open (a test may ask for port 0).
  const ports = () => ({ port: listeners!.plainPort, httpsPort: listeners!.servicePort });
  const plainAnswer = tls && certificatePort({ tls, ports, httpApi: options.httpApi ?? "refuse", service });
  try {
    listeners = Listeners.open({
      host: options.host,
      port: options.port,
      httpsPort: options.httpsPort ?? 5443,
      maxRequestBodySize: largestBodyBytes(config),
      service,
      tls: tls && plainAnswer ? { ...tls.pair, plain: (request) => wrongHost(request) ?? plainAnswer(request) } : undefined,
    });
  } catch (error) {
    closeContext(context);
    throw error;
  }
  // The first admin only once the server listens: a start refused before (a port in use) creates nobody.
  const reminder = unshownPasswordReminder(context.accounts, config.dataDir);
  let admin: Awaited<ReturnType<typeof createFirstAdmin>>;
  try {
    admin = await createFirstAdmin(context.accounts, config.dataDir, environment.SKRINING_ADMIN_PASSWORD);
  } catch (error) {
    await listeners.stop();
    closeContext(context);
    throw error;
  }
  ready = true;
  admitWaiting();
  // The database's check, once the port answers and the first admin exists (decisions:
  // Storage faults): damage found holds every write from then on; reads go on.
  let stopping = false;
  const integrity = checkAfterListening(config.databasePath, context.health, logger);
  // Photos are tidied against a database that passed the check, never a damaged one.
  void integrity.done.then((verdict) => verdict === "sound" && !stopping && tidyPhotos(app.features.photos, config.photosDir, photosBefore, logger));
  const terminal = options.terminal ?? null;
  const urls = lanUrls(options.host, listeners.servicePort, tls ? "https" : "http");
  const plain = tls && { served: tls, plainUrls: lanUrls(options.host, listeners.plainPort, "http"), httpApi: options.httpApi ?? "refuse" };
  for (const line of banner({ config, host: options.host, backups: options.backups, admin, reminder, bcrypt, urls, tls: plain, newInstallation: !context.accounts.hasAccounts("mahasiswa"), terminal: terminal !== null })) {
    logger.info(line);
  }
  // What doctor reads of this start (issue 44); a folder that cannot take it is only logged.
  try {
    const schedule = options.backups && { folder: options.backups.folder, everyMilliseconds: options.backups.everyMilliseconds, keep: options.backups.keep, encrypted: options.backups.passphrase !== undefined };
    writeServeState(config.dataDir, {
      pid: process.pid,
      startedAt: new Date().toISOString(),
      program: describeBuild(),
      host: options.host,
      port: listeners.plainPort,
      httpsPort: tls ? listeners.servicePort : null,
      adminWeb: config.adminWeb,
      backups: schedule ?? null,
    });
  } catch (error) {
    logger.error(`Keadaan server untuk skrining doctor tidak dapat ditulis di ${config.dataDir}: ${error instanceof Error ? error.message : String(error)}.`);
  }
  // Renewed without a restart (decisions §18); each new pair replaces the HTTPS listener.
  tls?.start(config.tlsCheckSeconds, (pair) => listeners!.serveCertificate(pair, logger));
  // Decisions §21: the generated password on the terminal only; without one it stays unshown, and every start says how to set one.
  if (admin?.generated && terminal) {
    terminal(`Password admin pertama: ${admin.password}`);
    if (await (options.outputWritten?.() ?? true)) clearUnshownPassword(config.dataDir, admin.username);
  }
  void backups?.start();
  // The start-up code ran with the JIT held back (scripts/build-executable.ts); what runs from
  // here on is the requests' code, which the normal policy compiles in time.
  Bun.unsafe.setJITPolicy(1);

  await new Promise<void>((resolve) => {
    const onSigint = () => void stop("SIGINT diterima");
    const onSigterm = () => void stop("SIGTERM diterima");
    const stop = async (why: string) => {
      if (stopping) return;
      stopping = true;
      logger.info(`${why}, menghentikan server...`);
      integrity.stop();
      await Promise.all([tls?.stop(), backups?.stop()]);
      await listeners!.stop();
      // The view rows still gathering are written before the database closes.
      await context.audit.flushAll();
      closeContext(context);
      // Stopped: no handler is left behind in a process that goes on (a test running serve in-process).
      process.off("SIGINT", onSigint);
      process.off("SIGTERM", onSigterm);
      resolve();
    };
    process.once("SIGINT", onSigint);
    process.once("SIGTERM", onSigterm);
    // The output may have closed while the server was starting.
    const outputClosed = () => void stop("Keluaran standar ditutup (pembacanya berhenti)");
    if (options.stop?.aborted) outputClosed();
    else options.stop?.addEventListener("abort", outputClosed);
  });
}
