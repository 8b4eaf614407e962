import { Elysia } from "elysia";
import { logTimestamp } from "../local-time";
import type { Logger } from "../logger";

/**
 * One line per request: the faculty's local time (decisions §11, issue 44), the client's
 * address, method, path, status and duration:
 * `2026-11-25T09:14:03.512+07:00 192.168.10.31 GET /api/auth/me 200 1.2ms`. Only the path is
 * logged — never the query string, headers or body — so no password or token can leak.
 * A path in `quietPaths` (the health check, polled by monitoring) is logged only when its
 * answer is not a 200, so that the polls do not bury the requests of people.
 */
export const requestLog = (
  logger: Logger | null,
  clock: { timeZone: string; clientAddress: (request: Request) => string },
  quietPaths: ReadonlySet<string> = new Set(),
) => {
  // Switched off (SKRINING_LOG=off), the hooks are not registered at all: they would run on every request.
  if (logger === null) return new Elysia({ name: "request-log" });
  // The address is taken as the request comes: once the answer is sent, the socket may be gone.
  const started = new WeakMap<Request, { at: number; address: string }>();
  return new Elysia({ name: "request-log" })
    .onRequest(({ request }) => {
      started.set(request, { at: performance.now(), address: clock.clientAddress(request) });
    })
    .onAfterResponse({ as: "global" }, ({ request, path, set }) => {
      const start = started.get(request);
      const milliseconds = start === undefined ? 0 : performance.now() - start.at;
      const status = typeof set.status === "number" ? set.status : 200;
      if (status === 200 && quietPaths.has(path)) return;
      logger.info(`${logTimestamp(Date.now(), clock.timeZone)} ${start?.address ?? clock.clientAddress(request)} ${request.method} ${path} ${status} ${milliseconds.toFixed(1)}ms`);
    });
};
