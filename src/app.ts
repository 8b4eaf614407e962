import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { passwordHashing } from "./accounts/passwords";
import type { AutomaticBackups } from "./backup/automatic";
import type { Config } from "./config";
import type { AppContext } from "./context";
import { withChangeRow } from "./audit/change-row";
import { databaseStamp } from "./db/read-cache";
import { bodyParser } from "./http/body";
import { bodyChecks, type BodylessContext } from "./http/body-gate";
import { corsPolicy } from "./http/cors";
import { auditRoutes } from "./http/audit";
import { adminApiPrefix, defaultConsoleAddress } from "./http/admin-web";
import { errorHandler, routeMethodIndex, type AllowedMethods } from "./http/handler";
import { openApiPage } from "./http/openapi/page";
import { requestLog } from "./http/request-log";
import { routeGuards } from "./http/guards";
import { adminConsole, type AdminDependencies, type ServingTls } from "./modules/admin";
import { AdminConfirmations } from "./modules/admin/confirmation";
import { authController } from "./modules/auth";
import { StatisticsExporter } from "./modules/dosen/export";
import { StatisticsService } from "./modules/dosen/statistics";
import { FollowUpFiguresReader } from "./modules/tindak-lanjut/figures";
import { ModelRegistry } from "./models/registry";
import { PhotoStore } from "./photos/storage";
import { PrivacyService } from "./privacy/service";
import { contentController } from "./modules/content";
import { dataSayaController } from "./modules/data-saya";
import { diaryController } from "./modules/diary";
import { dosenController } from "./modules/dosen";
import { DosenProfilService } from "./modules/dosen/profil";
import { TodayService } from "./modules/dosen/today";
import { CaseReader } from "./modules/tindak-lanjut/cases";
import { healthController, healthPath } from "./modules/health";
import { HealthService } from "./modules/health/service";
import { moodController } from "./modules/mood";
import { notesController } from "./modules/notes";
import { privasiController } from "./modules/privasi";
import { profilController } from "./modules/profil";
import { questionsController } from "./modules/questions";
import { keselamatanController } from "./modules/keselamatan";
import { skriningController } from "./modules/skrining";
import { tindakLanjutController } from "./modules/tindak-lanjut";
import { TindakLanjutService } from "./modules/tindak-lanjut/service";
import { mintaKontakController } from "./modules/minta-kontak";
import { MintaKontakService } from "./modules/minta-kontak/service";
import packageJson from "../package.json";
import { buildInfo } from "./build-info";

/**
 * Routes that read a multipart form, each with the largest body it takes; every other body
 * is read as a JSON object.
 */
function multipartRoutes(config: Config): Map<string, number> {
  const form = 64 * 1024;
  return new Map([
    ["/api/mahasiswa/profil/foto", config.photoLimitBytes + form],
    ["/api/admin/akun/impor/pratinjau", config.rosterLimitBytes + form],
    ["/api/admin/akun/impor", config.rosterLimitBytes + form],
    ["/api/admin/model/coba", config.rosterLimitBytes + form],
    ["/api/admin/model", config.modelLimitBytes + form],
  ]);
}

/** The largest request body the server reads at all: the largest multipart limit and a margin. */
export const largestBodyBytes = (config: Config) => Math.max(config.jsonBodyLimitBytes, ...multipartRoutes(config).values()) + 1024 * 1024;

/** What only a serving process has: its automatic backups (the admin console's "Cadangan") and the certificate it serves ("Sertifikat", /health). */
export interface AppOptions {
  backups?: AutomaticBackups | null;
  tls?: ServingTls | null;
  /** Where the console opens on the PC itself, named by its refusal to others (the default port without it). */
  consoleAddress?: () => string;
}

/**
 * Builds the whole HTTP application. `clientAddress` comes from the server (tests, which
 * call `app.handle()` directly, may pass their own).
 */
export function createApp(context: AppContext, clientAddress: (request: Request) => string = () => "local", options: AppOptions = {}) {
  let allowedMethods: AllowedMethods = () => [];
  // Each route's checks that need no body, found on the routes once they are all there (src/http/body-gate.ts).
  let checksBeforeBody = new Map<string, (context: BodylessContext) => Promise<void>>();
  const guards = routeGuards(context.auth, context.db, auditRoutes({ trail: context.audit, auth: context.auth, clientAddress }), clientAddress);
  // The read caches ask SQLite whether another process wrote once per turn of the event loop.
  databaseStamp(context.db.$client).askOncePerTurn();
  const app = new Elysia()
    // decisions §9: no browser guesses a type, and no cache keeps a student's data. Routes
    // that answer with their own Response (the photo) set their own Cache-Control.
    .headers({ "x-content-type-options": "nosniff", "cache-control": "no-store" })
    .use(errorHandler(context.logger, context.health, (path) => allowedMethods(path)))
    .use(requestLog(context.config.logRequests ? context.logger : null, { timeZone: context.config.timeZone, clientAddress }, new Set([healthPath])))
    .use(corsPolicy(context.config.corsOrigins))
    .use(
      bodyParser({
        jsonLimitBytes: context.config.jsonBodyLimitBytes,
        multipartRoutes: multipartRoutes(context.config),
        checksBeforeBody: (request, route) => checksBeforeBody.get(`${request.method} ${route}`)?.({ request }),
      }),
    )
    .use(
      openapi({
        path: "/openapi",
        // The plugin serves only the document (/openapi/json); its UI loads script from a CDN.
        provider: null,
        // The admin console's routes serve the built-in web interface only (src/modules/admin/index.ts).
        exclude: { tags: ["admin"] },
        documentation: {
          info: { title: "skrining", version: packageJson.version, description: "Student stress and motivation screening service" },
          components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
        },
      }),
    )
    .use(openApiPage({ path: "/openapi", specPath: "/openapi/json" }))
    .use(healthController(new HealthService(context.db, context.health, context.logger, buildInfo(), passwordHashing, () => options.tls?.served.health() ?? null, () => options.backups?.health() ?? null)))
    .use(authController(guards, context.auth, clientAddress))
    .use(skriningController(guards, context.submission, context.skrining))
    .use(questionsController(guards, context.questions))
    .use(keselamatanController(guards, context.safety))
    .use(contentController(context.content))
    .use(profilController(guards, context.profil, context.photos))
    .use(moodController(guards, context.mood))
    .use(diaryController(guards, context.diary))
    .use(notesController(guards, context.notes))
    .use(
      dosenController(
        guards,
        context.dosen,
        new DosenProfilService(context.db, context.writes),
        new TodayService(context.db, new CaseReader(context.db, context.config.followUpContactDays), context.config.followUpStressMin),
      ),
    )
    .use(tindakLanjutController(guards, new TindakLanjutService(context.db, context.writes, context.config.followUpContactDays)))
    .use(mintaKontakController(guards, new MintaKontakService(context.db, context.writes)))
    .use(dataSayaController(guards, context.dataSaya))
    .use(privasiController(guards, context.auth, context.privasi, clientAddress))
    .use(adminConsole(guards, adminDependencies(context, clientAddress, options)));
  allowedMethods = routeMethodIndex(app.routes);
  checksBeforeBody = bodyChecks(app.routes);
  // Every request has the audit row of its change at hand (src/audit/change-row.ts);
  // `handle` is what the server and the tests call.
  const handle = app.handle;
  app.handle = (request) => withChangeRow(context.audit, handle, request);
  return app;
}

/** The console's own pieces beside the process's services. */
function adminDependencies(context: AppContext, clientAddress: (request: Request) => string, options: AppOptions): AdminDependencies {
  const { config, db, writes } = context;
  return {
    context,
    clientAddress,
    consoleAddress: options.consoleAddress ?? (() => defaultConsoleAddress),
    confirmations: new AdminConfirmations(context.auth, adminApiPrefix),
    backups: options.backups ?? null,
    tls: options.tls ?? null,
    registry: new ModelRegistry(db, writes, config.dataDir, config.modelsDir),
    privacy: new PrivacyService(db.$client, writes, new PhotoStore(config.dataDir, config.photosDir), config.timeZone),
    exporter: new StatisticsExporter(new StatisticsService(db, config.timeZone), new FollowUpFiguresReader(db.$client, config.followUpContactDays), config.timeZone),
  };
}

export type App = ReturnType<typeof createApp>;
