import { Elysia } from "elysia";
import { described } from "../../http/documentation";
import { HealthyResponse, UnhealthyResponse } from "./model";
import { passwordHashing } from "../../accounts/passwords";
import { buildInfo } from "../../build-info";
import type { AppContext } from "../../context";
import type { BackupHealth } from "../../backup/automatic";
import type { TlsHealth } from "../../tls/served";
import { HealthService } from "./service";

/** Outside /api: it is the service's own state, not part of the interface. */
export const healthPath = "/health";

/** For monitoring: no token, no write, nothing a stranger could use. */
export function healthModule(core: AppContext, serving: { tls: () => TlsHealth | null; backups: () => BackupHealth | null }) {
  return healthRoutes(new HealthService(core.db, core.health, core.logger, buildInfo(), passwordHashing, serving.tls, serving.backups));
}

const healthRoutes = (health: HealthService) =>
  new Elysia({ tags: ["health"] }).get(
    healthPath,
    async ({ set }) => {
      const state = await health.check();
      if (state.status !== "ok") set.status = 503;
      return state;
    },
    {
      response: {
        200: described(HealthyResponse, "the service answers, reads its database, and its last write succeeded"),
        503: described(UnhealthyResponse, "students cannot save (degraded) or the database cannot be read (error)"),
      },
      detail: { summary: "The service's state for monitoring (no token needed; answers HEAD too)" },
    },
  );
