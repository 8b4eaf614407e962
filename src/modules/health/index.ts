import { Elysia } from "elysia";
import { described } from "../../http/documentation";
import { HealthyResponse, UnhealthyResponse } from "./model";
import type { HealthService } from "./service";

/** Outside /api: it is the service's own state, not part of the interface. */
export const healthPath = "/health";

/** For monitoring: no token, no write, nothing a stranger could use. */
export const healthController = (health: HealthService) =>
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
