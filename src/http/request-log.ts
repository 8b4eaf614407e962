import { Elysia } from "elysia";
import type { Logger } from "../logger";

/**
 * One line per request: time, method, path, status and duration. Only the path is
 * logged — never the query string, headers or body — so no password or token can leak.
 * A path in `quietPaths` (the health check, polled by monitoring) is logged only when its
 * answer is not a 200, so that the polls do not bury the requests of people.
 */
export const requestLog = (logger: Logger | null, quietPaths: ReadonlySet<string> = new Set()) => {
  // Switched off (SKRINING_LOG=off), the hooks are not registered at all: they would run on every request.
  if (logger === null) return new Elysia({ name: "request-log" });
  const started = new WeakMap<Request, number>();
  return new Elysia({ name: "request-log" })
    .onRequest(({ request }) => {
      started.set(request, performance.now());
    })
    .onAfterResponse({ as: "global" }, ({ request, path, set }) => {
      const start = started.get(request);
      const milliseconds = start === undefined ? 0 : performance.now() - start;
      const status = typeof set.status === "number" ? set.status : 200;
      if (status === 200 && quietPaths.has(path)) return;
      logger.info(`${new Date().toISOString()} ${request.method} ${path} ${status} ${milliseconds.toFixed(1)}ms`);
    });
};
