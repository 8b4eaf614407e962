// @ts-check
// Runs autocannon under Node, in its own process, so the load generator never shares a
// runtime with the server it measures. Input: one JSON argument (a LoadSpec of
// bench/load.ts); output: one JSON line (a LoadResult).
//
// Latencies are taken from autocannon's per-response event rather than its summary: the
// summary's histogram keeps whole milliseconds, too coarse for sub-millisecond answers.
import autocannon from "autocannon";

/** @param {import("./load").LoadSpec} spec @param {number} seconds */
function options(spec, seconds) {
  return {
    url: spec.url,
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    duration: seconds,
    timeout: spec.timeoutSeconds,
  };
}

/** @param {Float64Array} sorted @param {number} fraction */
function percentile(sorted, fraction) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? null;
}

/** @param {import("./load").LoadSpec} spec */
async function measure(spec) {
  if (spec.warmupSeconds > 0) await autocannon(options(spec, spec.warmupSeconds));

  let latencies = new Float64Array(1 << 18);
  let count = 0;
  const instance = autocannon(options(spec, spec.durationSeconds));
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    if (statusCode < 200 || statusCode > 299) return;
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = responseTime;
  });
  const result = await instance;

  const sorted = latencies.subarray(0, count).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stats]) => [code, stats.count]));
  return {
    connections: spec.connections,
    seconds: result.duration,
    ok: count,
    requestsPerSecond: count / result.duration,
    latencyMs: {
      mean: count === 0 ? null : sum / count,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: count === 0 ? null : (sorted[count - 1] ?? null),
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}

const spec = JSON.parse(process.argv[2] ?? "");
process.stdout.write(JSON.stringify(await measure(spec)) + "\n");
