import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { createApp, largestBodyBytes } from "./app";
import { AutomaticBackups, backupInChildProcess } from "./backup/automatic";
import { BackupFolder } from "./backup/backup-folder";
import { dataFolderIdentity } from "./backup/folder-identity";
import { describeBuild } from "./build-info";
import type { AdminWeb, Config } from "./config";
import { bcryptStartLine, type Bcrypt } from "./accounts/bcrypt";
import { clearUnshownPassword, createFirstAdmin, unshownPasswordReminder } from "./accounts/first-admin";
import { passwordHashing } from "./accounts/passwords";
import { closeContext, createContext, type AppContext } from "./context";
import { checkAfterListening } from "./db/integrity";
import { naming } from "./db/storage";
import { invalid } from "./errors";
import { unreferencedFolder } from "./photos/storage";
import type { Logger } from "./logger";
import { hostCheck } from "./http/host-names";
import { routeByPath } from "./http/routing";
import { startSubmissionWriter } from "./modules/skrining/writer";
import { builtWebAssets, webInterface } from "./http/web";

interface ServeOptions {
  host: string;
  port: number;
  tlsCert?: string;
  tlsKey?: string;
  /** Automatic backups (`--backup-dir`, `--backup-every`, `--backup-keep`), encrypted with `passphrase` (`--backup-passphrase-file`); none when absent. */
  backups?: { folder: string; everyMilliseconds: number; keep: number; passphrase?: string };
  /** Stops the server as SIGTERM does (the command line's output was closed: `serve | head`). */
  stop?: AbortSignal;
  /** Whether the lines logged so far reached their reader (cli/pipes.ts); assumed when absent. */
  outputWritten?: () => Promise<boolean>;
  /** `--hostname` (checked: readHostNames): more names of the PC a browser may use (decisions §15), besides SKRINING_HOSTNAMES. */
  hostnames?: string[];
}

/** The addresses a student's phone or a lab PC on the LAN can open. */
function lanUrls(host: string, port: number, scheme: "http" | "https"): string[] {
  const wildcard = host === "0.0.0.0" || host === "::" || host === "";
  const hosts = wildcard
    ? Object.values(networkInterfaces())
        .flat()
        .filter((entry) => entry !== undefined && entry.family === "IPv4")
        .map((entry) => entry!.address)
    : [host];
  return hosts.map((address) => `${scheme}://${address.includes(":") ? `[${address}]` : address}:${port}`);
}

/** `24h`, `30m`, `7d`: a backup period as the admin gave it. */
function period(milliseconds: number): string {
  const units: [number, string][] = [
    [24 * 3600_000, "hari"],
    [3600_000, "jam"],
    [60_000, "menit"],
  ];
  const [size, name] = units.find(([size]) => milliseconds % size === 0) ?? [1000, "detik"];
  return `${milliseconds / size} ${name}`;
}

/**
 * Where the admin console opens (`--admin-web`), and a warning when it is open to the
 * LAN without TLS: the admin's password would cross the network readable.
 */
function adminConsoleLines(mode: AdminWeb, urls: string[], tls: boolean): string[] {
  if (mode === "off") return ["Konsol admin di peramban dimatikan (--admin-web off); administrasi lewat perintah skrining."];
  const loopback = urls.find((url) => /\/\/(127\.|\[::1\])/.test(url));
  if (mode === "local") {
    return [
      loopback
        ? `Konsol admin: ${loopback}/admin (hanya dari PC ini; --admin-web lan untuk membukanya dari jaringan).`
        : "Konsol admin hanya dari PC ini (--admin-web local), tetapi server tidak mendengarkan alamat loopback: jalankan dengan --host 0.0.0.0 atau 127.0.0.1.",
    ];
  }
  const lines = [`Konsol admin dapat dibuka dari jaringan kampus (--admin-web lan): ${urls.map((url) => `${url}/admin`).join(", ")}.`];
  if (!tls) {
    lines.push(
      "PERINGATAN: konsol admin terbuka ke jaringan tanpa TLS; password admin dan data mahasiswa melintas jaringan tanpa enkripsi. Pakai --tls-cert dan --tls-key, atau --admin-web local.",
    );
  }
  return lines;
}

/**
 * What an admin needs at start: where to open the web interface (the LAN addresses first;
 * the loopback one works only on this PC), the data folder, the zone and the backups, the
 * first admin's credentials once, and on a new installation what to do next.
 */
function banner(start: {
  config: Config;
  options: ServeOptions;
  admin: { username: string; password: string; generated: boolean } | null;
  /** How to set the password of an admin an earlier start created but never showed. */
  reminder: string | null;
  bcrypt: Bcrypt;
  urls: string[];
  newInstallation: boolean;
}): string[] {
  const { config, options, admin } = start;
  const loopback = (url: string) => /\/\/(127\.|\[::1\])/.test(url);
  const lines = [
    `${describeBuild()} berjalan. Buka di peramban (browser) dari jaringan kampus:`,
    ...start.urls.filter((url) => !loopback(url)).map((url) => `  ${url}/`),
    ...start.urls.filter(loopback).map((url) => `  ${url}/  (hanya dari PC ini)`),
    `Data: ${config.dataDir}; zona waktu ${config.timeZone}; ` +
      (options.backups
        ? `cadangan otomatis ke ${options.backups.folder} tiap ${period(options.backups.everyMilliseconds)}, ${options.backups.keep} terakhir disimpan, ${options.backups.passphrase === undefined ? "tidak terenkripsi" : "terenkripsi"}.`
        : "cadangan otomatis tidak aktif (--backup-dir)."),
    // Backups carry the token key and every student's answers, and go onto USB disks (decisions §17).
    ...(options.backups && options.backups.passphrase === undefined
      ? ['Cadangan yang dibawa keluar PC ini sebaiknya terenkripsi: jalankan dengan --backup-passphrase-file <file> (docs/operations.md, bagian "Encrypted backups").']
      : []),
    bcryptStartLine(start.bcrypt),
    ...adminConsoleLines(config.adminWeb, start.urls, Boolean(options.tlsCert)),
  ];
  if (admin) {
    lines.push(
      admin.generated
        ? `Akun admin pertama dibuat: username "${admin.username}", password "${admin.password}" (hanya ditampilkan sekali; ganti dengan 'skrining accounts passwd admin').`
        : `Akun admin pertama dibuat: username "${admin.username}" dengan password dari SKRINING_ADMIN_PASSWORD.`,
    );
  }
  if (start.reminder) lines.push(start.reminder);
  if (start.newInstallation) {
    lines.push(
      "Langkah berikutnya:",
      "  1. Impor daftar dosen dan mahasiswa: skrining accounts import daftar.csv (format kolom: README, bagian \"Accounts CSV\").",
      "  2. Pilihan: daftarkan model prediksi, mis. skrining model add --type stress --file model.joblib --activate; tanpa model, tingkat ditentukan aturan skor.",
      ...(options.backups
        ? []
        : ["  3. Jalankan dengan --backup-dir <folder> --backup-passphrase-file <file> agar data dicadangkan otomatis dan terenkripsi (docs/operations.md, bagian Backups)."]),
    );
  }
  return lines;
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
function tidyPhotos(context: AppContext, among: ReadonlySet<string>, logger: Logger): void {
  const { photosDir } = context.config;
  try {
    const swept = context.photos.sweepOrphans(among);
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
  if (Boolean(options.tlsCert) !== Boolean(options.tlsKey)) throw new Error("--tls-cert dan --tls-key harus diberikan bersama.");
  // A file that is no database, or damage met while opening it, stops the start here with
  // the file named; the whole file is checked once the port listens (checkAfterListening).
  const context = naming(config.databasePath, () => createContext(config, logger));
  // The photos there before the port opens: the tidy after the check looks at these only, never at an upload of this run.
  const photosBefore = context.photos.photoFiles();
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
  let server: ReturnType<typeof Bun.serve> | undefined;
  const clientAddress = (request: Request) => server?.requestIP(request)?.address ?? "unknown";
  const assets = await builtWebAssets();
  if (!assets) logger.error("Antarmuka web belum dibangun (server dijalankan dari kode sumber tanpa build): halaman web menjawab 503; jalankan 'npm run build:web', lalu mulai ulang. API tetap berjalan.");
  const web = webInterface(config.timeZone, assets, { adminWeb: config.adminWeb, clientAddress });
  // Made before the app, for the console's "Cadangan"; started once the server listens and the admin exists.
  let backups: AutomaticBackups | null = null;
  if (options.backups && backupFolder) {
    const { passphrase, ...schedule } = options.backups;
    const write = backupInChildProcess(config.dataDir, environment, passphrase);
    backups = new AutomaticBackups({ ...schedule, encrypted: passphrase !== undefined, write, ownership: backupFolder, logger });
  }
  const app = createApp(context, clientAddress, { backups });

  const tls = options.tlsCert && options.tlsKey ? { cert: Bun.file(options.tlsCert), key: Bun.file(options.tlsKey) } : undefined;
  // The web interface answers its own paths; everything else is the API's.
  // A browser naming the PC by a name nobody gave it is refused first (DNS rebinding, decisions §15).
  const wrongHost = hostCheck([...config.hostNames, ...(options.hostnames ?? [])]);
  const answer = (request: Request) => wrongHost(request) ?? web(request) ?? app.handle(routeByPath(request));
  // Requests that come while the first admin is being created wait for it (a login as admin
  // then works), unless they cannot concern any account (mayConcernAccounts).
  let ready = false;
  const { promise: firstAdminCreated, resolve: admitWaiting } = Promise.withResolvers<void>();
  try {
    server = Bun.serve({
      hostname: options.host,
      port: options.port,
      tls,
      maxRequestBodySize: largestBodyBytes(config),
      fetch: (request) => (ready || !mayConcernAccounts(request) ? answer(request) : firstAdminCreated.then(() => answer(request))),
    });
  } catch (error) {
    closeContext(context);
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") throw invalid(`Port ${options.port} sudah dipakai program lain (mungkin skrining yang sudah berjalan); hentikan program itu atau pilih --port lain.`);
    if (code === "EACCES") throw invalid(`Port ${options.port} hanya boleh dibuka oleh administrator sistem; pilih --port di atas 1023.`);
    throw error;
  }
  // The first admin only once the server listens: a start refused before (a port in use) creates nobody.
  const reminder = unshownPasswordReminder(context.accounts, config.dataDir);
  let admin: Awaited<ReturnType<typeof createFirstAdmin>>;
  try {
    admin = await createFirstAdmin(context.accounts, config.dataDir, environment.SKRINING_ADMIN_PASSWORD);
  } catch (error) {
    await server.stop(true);
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
  void integrity.done.then((verdict) => verdict === "sound" && !stopping && tidyPhotos(context, photosBefore, logger));
  const scheme = tls ? "https" : "http";
  const urls = lanUrls(options.host, server.port ?? options.port, scheme);
  for (const line of banner({ config, options, admin, reminder, bcrypt, urls, newInstallation: !context.accounts.hasAccounts("mahasiswa") })) logger.info(line);
  if (admin?.generated && (await (options.outputWritten?.() ?? true))) clearUnshownPassword(config.dataDir, admin.username);
  backups?.start();
  // Started by the first submission, not on the way to the first answer (its thread loading
  // took 10–40 ms from it); until it is ready, submissions are written on this thread.
  let writer: ReturnType<typeof startSubmissionWriter> | undefined;
  context.submission.startWriterAtFirstSubmission(() => (writer = startSubmissionWriter(context, logger)));

  await new Promise<void>((resolve) => {
    const onSigint = () => void stop("SIGINT diterima");
    const onSigterm = () => void stop("SIGTERM diterima");
    const stop = async (why: string) => {
      if (stopping) return;
      stopping = true;
      logger.info(`${why}, menghentikan server...`);
      integrity.stop();
      await Promise.all([server!.stop(), backups?.stop()]);
      // No submission is waiting any more: the writer's connection closes before the service's
      // (once a start still under way has handed it over).
      const started = await writer;
      context.submission.useWriter(null);
      await started?.stop();
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
