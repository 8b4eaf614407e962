import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface LoadSpec {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /**
   * Paths requested in turn instead of the URL's (the same origin), written to a file for
   * wrk's script. A single path given this way costs wrk the same as a list, which makes
   * runs with and without a list comparable.
   */
  paths?: readonly string[];
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  timeoutSeconds: number;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  /** 2xx and 3xx answers; only these count in the rate (the latencies are of every answer). */
  ok: number;
  requestsPerSecond: number;
  latencyMs: { mean: number | null; p50: number | null; p99: number | null; max: number | null };
  non2xx: number;
  errors: number;
  timeouts: number;
}

interface WrkTotals {
  requests: number;
  duration_us: number;
  connect: number;
  read: number;
  write: number;
  /** Answers that were not 2xx or 3xx. */
  status: number;
  timeout: number;
  mean_us: number;
  p50_us: number;
  p99_us: number;
  max_us: number;
}

/** One wrk run (Debian's `wrk`), with bench/wrk-report.lua making the request and the report. */
async function wrk(spec: LoadSpec, seconds: number): Promise<WrkTotals> {
  const threads = Math.min(2, spec.connections);
  const command = ["wrk", `-t${threads}`, `-c${spec.connections}`, `-d${seconds}s`, `--timeout`, `${spec.timeoutSeconds}s`, "-s", join(import.meta.dir, "wrk-report.lua"), spec.url];
  const headers = Object.entries({ ...spec.headers, ...(spec.body === undefined ? {} : { "content-type": "application/json" }) })
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
  const pathsFile = spec.paths && join(mkdtempSync(join(tmpdir(), "skrining-bench-paths-")), "paths.txt");
  if (pathsFile) writeFileSync(pathsFile, `${spec.paths!.join("\n")}\n`);
  const child = Bun.spawn(command, {
    env: { ...process.env, BENCH_METHOD: spec.method, BENCH_BODY: spec.body ?? "", BENCH_HEADERS: headers, BENCH_PATHS_FILE: pathsFile ?? "", BENCH_THREADS: String(threads) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (pathsFile) rmSync(dirname(pathsFile), { recursive: true, force: true });
  const report = stdout.split("\n").findLast((line) => line.startsWith("{"));
  if (exitCode !== 0 || !report) throw new Error(`wrk failed (${exitCode}): ${(stderr || stdout).trim()}`);
  return JSON.parse(report) as WrkTotals;
}

/**
 * Measures one request under load: a warm-up run that is thrown away, then the measured
 * run. wrk counts every answer; the ones that were not 2xx/3xx are reported apart and
 * left out of the rate.
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  if (spec.warmupSeconds > 0) await wrk(spec, spec.warmupSeconds);
  const totals = await wrk(spec, spec.durationSeconds);
  const seconds = totals.duration_us / 1e6;
  const ok = totals.requests - totals.status;
  const milliseconds = (microseconds: number) => microseconds / 1000;
  return {
    connections: spec.connections,
    seconds,
    ok,
    requestsPerSecond: ok / seconds,
    latencyMs: { mean: milliseconds(totals.mean_us), p50: milliseconds(totals.p50_us), p99: milliseconds(totals.p99_us), max: milliseconds(totals.max_us) },
    non2xx: totals.status,
    errors: totals.connect + totals.read + totals.write,
    timeouts: totals.timeout,
  };
}
