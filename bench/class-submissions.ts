import { generator } from "./dataset";
import { median } from "./processes";

export interface ClassSubmissions {
  students: number;
  windowSeconds: number;
  /** Answers that were not 201, by status (or `error` for a failed connection). */
  failures: Record<string, number>;
  latencyMs: { p50: number; p99: number; max: number };
}

/** Seeded arrival times: the same every run. */
function arrivals(count: number, windowMs: number, seed: number): number[] {
  const random = generator(seed);
  return Array.from({ length: count }, () => random.next() * windowMs).sort((a, b) => a - b);
}

const percentile = (sorted: readonly number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;

/**
 * A class filling in the questionnaire during a lecture: every student submits once, each
 * with their own token, at a moment drawn uniformly (and seeded) within the window. The
 * latency is from sending to the whole answer.
 */
export async function measureClassSubmissions(options: { base: string; tokens: readonly string[]; body: string; windowSeconds: number }): Promise<ClassSubmissions> {
  const windowMs = options.windowSeconds * 1000;
  const schedule = arrivals(options.tokens.length, windowMs, 200);
  const started = performance.now();
  const failures: Record<string, number> = {};
  const latencies = await Promise.all(
    options.tokens.map(async (token, index) => {
      const wait = started + schedule[index]! - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      const sent = performance.now();
      try {
        const response = await fetch(`${options.base}/api/mahasiswa/kuesioner`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: options.body,
        });
        await response.arrayBuffer();
        if (response.status !== 201) failures[response.status] = (failures[response.status] ?? 0) + 1;
      } catch {
        failures.error = (failures.error ?? 0) + 1;
      }
      return performance.now() - sent;
    }),
  );
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    students: options.tokens.length,
    windowSeconds: options.windowSeconds,
    failures,
    latencyMs: { p50: median(sorted), p99: percentile(sorted, 0.99), max: sorted.at(-1)! },
  };
}
