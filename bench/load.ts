import { join } from "node:path";

export interface LoadSpec {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  timeoutSeconds: number;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  /** 2xx answers; only these count in the rate and the latencies. */
  ok: number;
  requestsPerSecond: number;
  latencyMs: { mean: number | null; p50: number | null; p99: number | null; max: number | null };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/** The Node that runs npm (and so `npm run bench`), else the first one on the PATH. */
const nodeExecutable = process.env.npm_node_execpath ?? "node";

/** Runs one autocannon measurement in a Node child process (bench/load.mjs). */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const child = Bun.spawn([nodeExecutable, join(import.meta.dir, "load.mjs"), JSON.stringify(spec)], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (exitCode !== 0) throw new Error(`autocannon failed (${exitCode}): ${stderr.trim()}`);
  return JSON.parse(stdout) as LoadResult;
}
