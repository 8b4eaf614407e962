import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import type { RouteGuards } from "../../http/guards";
import { adminApiPrefix } from "../../http/admin-web";
import type { AppContext } from "../../context";
import { ModelRegistry } from "../../models/registry";
import { PrivasiRequestService } from "../../privasi/service";
import { StatisticsExporter } from "../dosen/export";
import type { StatisticsService } from "../dosen/statistics";
import { AdminConfirmations } from "./confirmation";
import { akunController } from "./akun";
import { adminController, adminOnly, type AdminDependencies } from "./base";
import { cadanganController } from "./cadangan";
import { ConfirmationAnswer, ConsoleReachAnswer, UploadLimits } from "./model";
import { jejakController } from "./jejak";
import { modelController } from "./model-prediksi";
import { privasiController } from "./privasi";
import { sertifikatController } from "./sertifikat";
import { statistikController } from "./statistik";
import { teksController } from "./teks";

export type { AdminDependencies, ServingTls } from "./base";

/**
 * The admin console's routes (`/api/admin/...`, decisions: Admin console): for admins, and
 * only from where `serve --admin-web` lets them in. They belong to the built-in web
 * interface, not to the interface the phone app speaks, and are left out of the OpenAPI
 * document (tag `admin`).
 */
export function adminModule(
  core: AppContext,
  guards: RouteGuards,
  features: Pick<AdminDependencies, "content" | "safety" | "documents" | "photoStore" | "figures"> & { statistics: StatisticsService },
  serving: Pick<AdminDependencies, "clientAddress" | "consoleAddress" | "backups" | "tls">,
) {
  const { config, db, writes, auth } = core;
  const { statistics, figures, ...named } = features;
  return adminRoutes(guards, {
    context: core,
    ...named,
    ...serving,
    confirmations: new AdminConfirmations(auth, adminApiPrefix),
    registry: new ModelRegistry(db, writes, config.dataDir, config.modelsDir),
    privacy: new PrivasiRequestService(db.$client, writes, features.photoStore, config.timeZone),
    exporter: new StatisticsExporter(statistics, figures, config.timeZone),
    figures,
  });
}

const adminRoutes = (guards: RouteGuards, dependencies: AdminDependencies) =>
  new Elysia({ name: "admin-console", seed: dependencies.context.auth.instanceId })
    .use(
      adminController(guards, dependencies, "")
        // Answered only where --admin-web lets the client in: the web's question whether to show the console at all.
        .get("/konsol", () => ({ alamat: dependencies.consoleAddress() }), { access: adminOnly, response: { 200: ConsoleReachAnswer } })
        .get("/batas", () => ({ daftar: dependencies.context.config.rosterLimitBytes, model: dependencies.context.config.modelLimitBytes }), {
          access: adminOnly,
          response: { 200: UploadLimits },
        })
        .post(
        "/konfirmasi",
        ({ principal, claims, body, request, route }) =>
          dependencies.confirmations.confirm(principal, claims, body as JsonObject, { address: dependencies.clientAddress(request), target: `${request.method} ${route}` }),
        { access: adminOnly, response: { 200: ConfirmationAnswer } },
      ),
    )
    .use(akunController(guards, dependencies))
    .use(cadanganController(guards, dependencies))
    .use(sertifikatController(guards, dependencies))
    .use(jejakController(guards, dependencies))
    .use(privasiController(guards, dependencies))
    .use(modelController(guards, dependencies))
    .use(teksController(guards, dependencies))
    .use(statistikController(guards, dependencies));
