import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { createApp } from "./app";
import type { Config } from "./config";
import { closeContext, createContext } from "./context";
import { checkDatabase } from "./db";
import { StorageError, naming } from "./db/storage";
import { invalid } from "./errors";
import { unreferencedFolder } from "./photos/storage";
import type { Logger } from "./logger";
import { routeByPath } from "./http/routing";
import { webAnswer } from "./http/web";

interface ServeOptions {
  host: string;
  port: number;
  tlsCert?: string;
  tlsKey?: string;
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

/** Runs the service until SIGINT or SIGTERM; resolves once it has stopped cleanly. */
export async function serve(config: Config, options: ServeOptions, logger: Logger, environment: Record<string, string | undefined> = process.env): Promise<void> {
  if (Boolean(options.tlsCert) !== Boolean(options.tlsKey)) throw new Error("--tls-cert dan --tls-key harus diberikan bersama.");
  // Damage is looked for before anything else reads the data, and reported with the file.
  const context = naming(config.databasePath, () => createContext(config, logger));
  const damage = naming(config.databasePath, () => checkDatabase(context.db, false));
  if (damage.length > 0) {
    closeContext(context);
    throw new StorageError("damaged", new Error(damage.slice(0, 3).join("; ")), config.databasePath);
  }
  const swept = context.photos.sweepOrphans();
  if (swept && swept.deleted > 0) logger.info(`${swept.deleted} unggahan foto yang tidak selesai dihapus dari ${config.photosDir}`);
  if (swept && swept.movedAside > 0) {
    logger.info(`${swept.movedAside} file foto tanpa pemilik dipindahkan ke ${join(config.photosDir, unreferencedFolder)}; periksa lalu hapus bila memang tidak dipakai.`);
  }
  // The first admin's bcrypt hash runs on the thread pool while the app is built; the
  // server listens only once the admin exists.
  const adminCreation = context.accounts.ensureAdmin(environment.SKRINING_ADMIN_PASSWORD);
  let server: ReturnType<typeof Bun.serve> | undefined;
  const app = createApp(context, (request) => server?.requestIP(request)?.address ?? "unknown");
  const admin = await adminCreation;
  if (admin) {
    logger.info(
      admin.generated
        ? `Akun admin pertama dibuat: username "${admin.username}", password "${admin.password}" (hanya ditampilkan sekali; ganti dengan 'skrining accounts passwd admin').`
        : `Akun admin pertama dibuat: username "${admin.username}" dengan password dari SKRINING_ADMIN_PASSWORD.`,
    );
  }

  const tls = options.tlsCert && options.tlsKey ? { cert: Bun.file(options.tlsCert), key: Bun.file(options.tlsKey) } : undefined;
  try {
    server = Bun.serve({
      hostname: options.host,
      port: options.port,
      tls,
      maxRequestBodySize: config.photoLimitBytes + 1024 * 1024,
      // The web interface answers its own paths; everything else is the API's.
      fetch: (request) => webAnswer(request) ?? app.fetch(routeByPath(request)),
    });
  } catch (error) {
    closeContext(context);
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") throw invalid(`Port ${options.port} sudah dipakai program lain (mungkin skrining yang sudah berjalan); hentikan program itu atau pilih --port lain.`);
    if (code === "EACCES") throw invalid(`Port ${options.port} hanya boleh dibuka oleh administrator sistem; pilih --port di atas 1023.`);
    throw error;
  }
  const scheme = tls ? "https" : "http";
  logger.info(`skrining berjalan (data: ${config.dataDir}). Buka dari jaringan kampus:`);
  for (const url of lanUrls(options.host, server.port ?? options.port, scheme)) logger.info(`  ${url}`);

  await new Promise<void>((resolve) => {
    const stop = async (signal: string) => {
      logger.info(`${signal} diterima, menghentikan server...`);
      await server!.stop();
      closeContext(context);
      resolve();
    };
    process.once("SIGINT", () => void stop("SIGINT"));
    process.once("SIGTERM", () => void stop("SIGTERM"));
  });
}
