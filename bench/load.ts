import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One request of a rotation: its path (the URL's origin), its caller's token and its body, if any. */
export interface RotationEntry {
  path: string;
  token: string;
  body?: string;
}

/**
 * Requests made in turn instead of the URL's own, by wrk's script (bench/wrk-report.lua).
 * `rotate`: each thread goes through the whole list, starting at its own share of it, so
 * that the two threads do not ask the same thing together. `once`: each thread goes through
 * its own share only, so that every entry is asked once (a student's submission); a thread
 * that reaches the end of its share starts it again, and what the server then refuses is
 * counted as not 2xx, which makes the run fail.
 */
export interface Rotation {
  entries: readonly RotationEntry[];
  share: "rotate" | "once";
}

export interface LoadSpec {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /**
   * When given, the requests come from it and the URL gives only the origin. A single entry
   * given this way costs wrk the same as a list, which makes runs with and without a list
   * comparable.
   */
  rotation?: Rotation;
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

/** What thread `thread` of `threads` asks, in order (see Rotation). */
export function threadShare(rotation: Rotation, thread: number, threads: number): RotationEntry[] {
  const { entries } = rotation;
  const start = Math.floor((thread * entries.length) / threads);
  if (rotation.share === "once") return entries.slice(start, Math.floor(((thread + 1) * entries.length) / threads));
  return [...entries.slice(start), ...entries.slice(0, start)];
}

/**
 * The rotation as wrk's script reads it: a file per thread of `path<TAB>token<TAB>body
 * number` lines, and the distinct bodies, one a line (JSON has no raw line breaks), so that
 * a thread reads only its own requests before the run.
 */
function writeRotation(folder: string, rotation: Rotation, threads: number): void {
  const bodies = new Map<string, number>();
  const bodyNumber = (body: string | undefined) => {
    if (body === undefined) return 0;
    if (!bodies.has(body)) bodies.set(body, bodies.size + 1);
    return bodies.get(body)!;
  };
  for (let thread = 0; thread < threads; thread++) {
    const lines = threadShare(rotation, thread, threads).map((entry) => `${entry.path}\t${entry.token}\t${bodyNumber(entry.body)}\n`);
    if (lines.length === 0) throw new Error(`a rotation of ${rotation.entries.length} entries leaves thread ${thread + 1} of ${threads} nothing to ask`);
    writeFileSync(join(folder, `requests.${thread}`), lines.join(""));
  }
  writeFileSync(join(folder, "bodies"), [...bodies.keys()].map((body) => `${body}\n`).join(""));
}

/** One wrk run (Debian's `wrk`), with bench/wrk-report.lua making the request and the report. */
async function wrk(spec: LoadSpec, seconds: number): Promise<WrkTotals> {
  const threads = Math.min(2, spec.connections);
  const command = ["wrk", `-t${threads}`, `-c${spec.connections}`, `-d${seconds}s`, `--timeout`, `${spec.timeoutSeconds}s`, "-s", join(import.meta.dir, "wrk-report.lua"), spec.url];
  const headers = Object.entries({ ...spec.headers, ...(spec.body === undefined ? {} : { "content-type": "application/json" }) })
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
  const folder = spec.rotation && mkdtempSync(join(tmpdir(), "skrining-bench-requests-"));
  try {
    if (folder) writeRotation(folder, spec.rotation!, threads);
    const child = Bun.spawn(command, {
      env: { ...process.env, BENCH_METHOD: spec.method, BENCH_BODY: spec.body ?? "", BENCH_HEADERS: headers, BENCH_REQUESTS: folder ?? "" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    const report = stdout.split("\n").findLast((line) => line.startsWith("{"));
    if (exitCode !== 0 || !report) throw new Error(`wrk failed (${exitCode}): ${(stderr || stdout).trim()}`);
    return JSON.parse(report) as WrkTotals;
  } finally {
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Measures one request under load: a warm-up run that is thrown away, then the measured
 * run. wrk counts every answer; the ones that were not 2xx/3xx are reported apart and
 * left out of the rate. A `once` rotation would be spent by the warm-up: its caller warms
 * up with entries of its own (warmupSeconds 0 here).
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  if (spec.rotation?.share === "once" && spec.warmupSeconds > 0) throw new Error("a once-only rotation cannot be warmed up with its own entries");
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
