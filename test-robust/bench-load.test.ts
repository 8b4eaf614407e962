import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runLoad, threadShare, type Rotation, type RotationEntry } from "../bench/load";

// The bench's wrk script with a rotation of requests (bench/wrk-report.lua, BENCH_REQUESTS),
// against a server that counts what it is asked. wrk is a Debian package the bench needs
// and `npm test` does not: without it these tests are skipped, saying so.
const wrk = Bun.which("wrk");

describe("the threads' shares of a rotation", () => {
  const entries: RotationEntry[] = Array.from({ length: 5 }, (_, index) => ({ path: `/${index}`, token: `t${index}` }));
  const paths = (rotation: Rotation, thread: number) => threadShare(rotation, thread, 2).map((entry) => entry.path);

  test("rotate: each thread has the whole list, starting at its own half", () => {
    expect(paths({ entries, share: "rotate" }, 0)).toEqual(["/0", "/1", "/2", "/3", "/4"]);
    expect(paths({ entries, share: "rotate" }, 1)).toEqual(["/2", "/3", "/4", "/0", "/1"]);
  });

  test("once: each entry belongs to one thread", () => {
    expect(paths({ entries, share: "once" }, 0)).toEqual(["/0", "/1"]);
    expect(paths({ entries, share: "once" }, 1)).toEqual(["/2", "/3", "/4"]);
  });
});

describe.skipIf(!wrk)("wrk with a rotation of requests", () => {
  const asked = new Map<string, number>();
  const seen = new Map<string, { authorization: string; body: string; type: string }>();
  let server: ReturnType<typeof Bun.serve>;

  beforeAll(() => {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        const path = new URL(request.url).pathname;
        asked.set(path, (asked.get(path) ?? 0) + 1);
        seen.set(path, { authorization: request.headers.get("authorization") ?? "none", body: await request.text(), type: request.headers.get("content-type") ?? "none" });
        // A short pause before each answer: wrk's connections wait instead of keeping both
        // cores busy for every second of a run (a few hundred requests still come).
        await Bun.sleep(2);
        return new Response(path === "/missing" ? "no" : "ok", { status: path === "/missing" ? 404 : 200 });
      },
    });
  });
  afterAll(() => server.stop(true));

  const run = (rotation: Rotation, connections: number, method: "GET" | "POST" = "GET") =>
    runLoad({ url: `http://127.0.0.1:${server.port}/not-asked`, method, headers: { "x-bench": "yes" }, rotation, connections, warmupSeconds: 0, durationSeconds: 1, timeoutSeconds: 5 });

  test("every entry of the list is asked in turn, never the URL's own, each with its own token", async () => {
    asked.clear();
    const entries = Array.from({ length: 50 }, (_, index) => ({ path: `/p/${index}`, token: `token-${index}` }));
    const result = await run({ entries, share: "rotate" }, 2);
    expect(result.ok).toBeGreaterThan(100);
    expect(result.non2xx).toBe(0);
    expect([...asked.keys()].sort()).toEqual(entries.map((entry) => entry.path).sort());
    expect(asked.has("/not-asked")).toBe(false);
    // In turn: no entry is asked much more often than another.
    const counts = [...asked.values()];
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(2);
    for (const entry of entries) expect(seen.get(entry.path)!.authorization).toBe(`Bearer ${entry.token}`);
  });

  test("the two threads start at their own halves of the list, so that no entry is asked twice before the list runs out", async () => {
    asked.clear();
    const entries = Array.from({ length: 200_000 }, (_, index) => ({ path: `/q/${index}`, token: "t" }));
    const result = await run({ entries, share: "rotate" }, 2);
    expect(result.ok).toBeLessThan(entries.length);
    // The second thread's first entry, and the first thread's second (wrk asks the first thread's script once to check it).
    expect(asked.has("/q/100000")).toBe(true);
    expect(asked.has("/q/1")).toBe(true);
    expect([...asked.values()].every((count) => count === 1)).toBe(true);
  });

  test("once: each thread asks its own share with each entry's body; at its end it starts the share again", async () => {
    asked.clear();
    const entries = Array.from({ length: 10 }, (_, index) => ({ path: `/s/${index}`, token: `student-${index}`, body: JSON.stringify({ n: index }) }));
    await run({ entries, share: "once" }, 2, "POST");
    expect([...asked.keys()].sort()).toEqual(entries.map((entry) => entry.path).sort());
    // Starting again: every entry was asked several times in the second.
    expect([...asked.values()].every((count) => count > 1)).toBe(true);
    for (const [index, entry] of entries.entries()) {
      expect(seen.get(entry.path)).toEqual({ authorization: `Bearer student-${index}`, body: `{"n":${index}}`, type: "application/json" });
    }
  });

  test("an answer that is not 2xx is counted apart, not in the rate", async () => {
    const result = await run({ entries: [{ path: "/missing", token: "t" }], share: "rotate" }, 1);
    expect(result.ok).toBe(0);
    expect(result.requestsPerSecond).toBe(0);
    expect(result.non2xx).toBeGreaterThan(0);
  });

  test("a once-only rotation is not warmed up with its own entries", async () => {
    const spec = { url: `http://127.0.0.1:${server.port}/`, method: "GET" as const, headers: {}, connections: 1, warmupSeconds: 1, durationSeconds: 1, timeoutSeconds: 5 };
    await expect(runLoad({ ...spec, rotation: { entries: [{ path: "/a", token: "t" }], share: "once" } })).rejects.toThrow("cannot be warmed up");
  });
});
