import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import type { AutomaticBackups } from "./backup/automatic";
import type { Config } from "./config";
import type { AppContext } from "./context";
import { withChangeRow } from "./audit/change-row";
import { databaseStamp } from "./db/read-cache";
import { bodyParser } from "./http/body";
import { bodyChecks, type BodylessContext } from "./http/body-gate";
import { corsPolicy } from "./http/cors";
import { auditRoutes } from "./http/audit";
import { defaultConsoleAddress } from "./http/admin-web";
import { errorHandler, routeMethodIndex, type AllowedMethods } from "./http/handler";
import { openApiPage } from "./http/openapi/page";
import { requestLog } from "./http/request-log";
import { routeGuards } from "./http/guards";
import { adminModule, type ServingTls } from "./modules/admin";
import { authModule } from "./modules/auth";
import { kontenModule } from "./modules/konten";
import { dataSayaModule } from "./modules/data-saya";
import { diaryModule } from "./modules/diary";
import { dosenModule } from "./modules/dosen";
import { healthModule, healthPath } from "./modules/health";
import { keselamatanModule } from "./modules/keselamatan";
import { mintaKontakModule } from "./modules/minta-kontak";
import { moodModule } from "./modules/mood";
import { catatanModule } from "./modules/catatan";
import { privasiModule } from "./modules/privasi";
import { profilModule } from "./modules/profil";
import { questionsModule } from "./modules/questions";
import { skriningModule } from "./modules/skrining";
import { tindakLanjutModule } from "./modules/tindak-lanjut";
import packageJson from "../package.json";

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
  const guards = routeGuards(context, auditRoutes({ trail: context.audit, auth: context.auth, clientAddress }), clientAddress);
  // The read caches ask SQLite whether another process wrote once per turn of the event loop.
  databaseStamp(context.db.$client).askOncePerTurn();
  // The modules whose services another module (or the server) names; the rest are built in their .use().
  const skrining = skriningModule(context, guards);
  const keselamatan = keselamatanModule(context, guards);
  const content = kontenModule(context);
  const profil = profilModule(context, guards);
  const mood = moodModule(context, guards);
  const diary = diaryModule(context, guards);
  const notes = catatanModule(context, guards);
  const tindakLanjut = tindakLanjutModule(context, guards);
  const dosen = dosenModule(context, guards, notes.notes, tindakLanjut.cases);
  const dataSaya = dataSayaModule(context, guards, { profil: profil.profil, mood: mood.mood, diary: diary.diary, notes: notes.notes });
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
    .use(healthModule(context, { tls: () => options.tls?.served.health() ?? null, backups: () => options.backups?.health() ?? null }))
    .use(authModule(context, guards, clientAddress))
    .use(skrining.routes)
    .use(questionsModule(context, guards))
    .use(keselamatan.routes)
    .use(content.routes)
    .use(profil.routes)
    .use(mood.routes)
    .use(diary.routes)
    .use(notes.routes)
    .use(dosen.routes)
    .use(tindakLanjut.routes)
    .use(mintaKontakModule(context, guards))
    .use(dataSaya.routes)
    .use(privasiModule(context, guards, content.content.privacyNotice, clientAddress))
    .use(
      adminModule(
        context,
        guards,
        { content: content.content, safety: keselamatan.safety, documents: dataSaya.documents, photoStore: profil.photoStore, statistics: dosen.statistics, figures: tindakLanjut.figures },
        { clientAddress, consoleAddress: options.consoleAddress ?? (() => defaultConsoleAddress), backups: options.backups ?? null, tls: options.tls ?? null },
      ),
    );
  allowedMethods = routeMethodIndex(app.routes);
  checksBeforeBody = bodyChecks(app.routes);
  // Every request has the audit row of its change at hand (src/audit/change-row.ts);
  // `handle` is what the server and the tests call.
  const handle = app.handle;
  app.handle = (request) => withChangeRow(context.audit, handle, request);
  // What the server and the tests reach beyond the routes: the submissions, the photo folder's
  // tidy at start; the texts, the safety question and the data document as the commands change and read them.
  const features = { submission: skrining.submission, photos: profil.photos, content: content.content, safety: keselamatan.safety, documents: dataSaya.documents };
  return Object.assign(app, { features });
}

export type App = ReturnType<typeof createApp>;
