import { join } from "node:path";
import { median, stopChild } from "./processes";
import { startServer } from "./service";

export interface ColdStart {
  /** Medians, in milliseconds from spawn to the first HTTP answer. */
  firstStartMs: number;
  restartMs: number;
  firstStartRunsMs: number[];
  restartRunsMs: number[];
}

/**
 * First start in an empty folder (schema and secret; the first admin's hash is made after the
 * port opens, and a tokenless request does not wait for it) and restart of that folder, `runs` times each.
 */
export async function measureColdStart(workDir: string, env: Record<string, string | undefined>, runs: number): Promise<ColdStart> {
  const first: number[] = [];
  const restart: number[] = [];
  for (let run = 0; run < runs; run++) {
    const dataDir = join(workDir, `cold-${run}`);
    for (const times of [first, restart]) {
      const server = await startServer(dataDir, env, join(workDir, "cold.log"));
      times.push(server.startedInMs);
      await stopChild(server.child);
    }
  }
  return { firstStartMs: median(first), restartMs: median(restart), firstStartRunsMs: first, restartRunsMs: restart };
}
