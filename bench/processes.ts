import { readFileSync } from "node:fs";

export { freePort } from "../test/server-process";

export type Child = ReturnType<typeof Bun.spawn>;

/**
 * Polls `url` until any HTTP answer arrives; returns the milliseconds since `since`
 * (a `performance.now()` value). Throws if the process exits or the deadline passes.
 */
export async function waitForHttp(url: string, child: Child, since: number, timeoutMs = 30_000, intervalMs = 2): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}) before answering ${url}`);
    try {
      const response = await fetch(url);
      const answered = performance.now();
      await response.arrayBuffer();
      return answered - since;
    } catch {
      // not listening yet
    }
    if (performance.now() - since > timeoutMs) throw new Error(`no answer from ${url} within ${timeoutMs} ms`);
    await Bun.sleep(intervalMs);
  }
}

/** Stops a child with SIGTERM (the service's clean stop) and waits for it. */
export async function stopChild(child: Child): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  const timeout = Bun.sleep(15_000).then(() => "timeout" as const);
  if ((await Promise.race([child.exited, timeout])) === "timeout") {
    child.kill("SIGKILL");
    await child.exited;
  }
}

/** Resident memory of a process in MiB, from /proc/<pid>/status (VmRSS). */
export function residentMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("VmRSS:"));
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line.replace(/\D+/g, "")) / 1024;
}

/** Samples a process's resident memory while something runs; keeps the highest value. */
export async function withPeakResident<T>(pid: number, work: () => Promise<T>, intervalMs = 100): Promise<{ result: T; peakMiB: number }> {
  let peakMiB = residentMiB(pid);
  const timer = setInterval(() => {
    try {
      peakMiB = Math.max(peakMiB, residentMiB(pid));
    } catch {
      // The process has exited: the work itself fails and says why.
    }
  }, intervalMs);
  try {
    const result = await work();
    peakMiB = Math.max(peakMiB, residentMiB(pid));
    return { result, peakMiB };
  } finally {
    clearInterval(timer);
  }
}

export interface Finished {
  milliseconds: number;
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end and times it from spawn to exit. */
export async function runTimed(command: string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<Finished> {
  const started = performance.now();
  const child = Bun.spawn(command, { env: options.env, cwd: options.cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { milliseconds: performance.now() - started, exitCode, stdout, stderr };
}

/** The first line of a failed command's stderr, for a note in the report. */
export function reason(finished: Finished): string {
  return (finished.stderr.trim().split("\n")[0] ?? "") || `exit code ${finished.exitCode}`;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
