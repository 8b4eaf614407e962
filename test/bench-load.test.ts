import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runLoad } from "../bench/load";

// The bench's wrk script with a list of paths (bench/wrk-report.lua, BENCH_PATHS_FILE),
// against a server that counts what it is asked. wrk is a Debian package the bench needs
// and `npm test` does not: without it these tests are skipped, saying so.
const wrk = Bun.which("wrk");

describe.skipIf(!wrk)("wrk with a list of paths", () => {
  const asked = new Map<string, number>();
  const seenHeaders = new Set<string>();
  let server: ReturnType<typeof Bun.serve>;

  beforeAll(() => {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        const path = new URL(request.url).pathname;
        asked.set(path, (asked.get(path) ?? 0) + 1);
        seenHeaders.add(request.headers.get("authorization") ?? "none");
        return new Response(path === "/missing" ? "no" : "ok", { status: path === "/missing" ? 404 : 200 });
      },
    });
  });
  afterAll(() => server.stop(true));

  const run = (paths: string[], connections: number) =>
    runLoad({ url: `http://127.0.0.1:${server.port}/not-asked`, method: "GET", headers: { authorization: "Bearer t" }, paths, connections, warmupSeconds: 0, durationSeconds: 1, timeoutSeconds: 5 });

  test("every path of the list is requested in turn, never the URL's own, with the headers", async () => {
    asked.clear();
    const paths = Array.from({ length: 50 }, (_, index) => `/p/${index}`);
    const result = await run(paths, 2);
    expect(result.ok).toBeGreaterThan(100);
    expect(result.non2xx).toBe(0);
    expect([...asked.keys()].sort()).toEqual([...paths].sort());
    expect(asked.has("/not-asked")).toBe(false);
    // In turn: no path is asked much more often than another.
    const counts = [...asked.values()];
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(2);
    expect([...seenHeaders]).toEqual(["Bearer t"]);
  });

  test("the two threads start at their own halves of the list, so that no path is read twice before the list runs out", async () => {
    asked.clear();
    const paths = Array.from({ length: 200_000 }, (_, index) => `/q/${index}`);
    const result = await run(paths, 2);
    expect(result.ok).toBeLessThan(paths.length);
    // The second thread's first path (wrk asks the first thread's script once to check it).
    expect(asked.has("/q/100000")).toBe(true);
    expect(asked.has("/q/1")).toBe(true);
    expect([...asked.values()].every((count) => count === 1)).toBe(true);
  });

  test("an answer that is not 2xx is counted apart, not in the rate", async () => {
    const result = await run(["/missing"], 1);
    expect(result.ok).toBe(0);
    expect(result.requestsPerSecond).toBe(0);
    expect(result.non2xx).toBeGreaterThan(0);
  });
});
