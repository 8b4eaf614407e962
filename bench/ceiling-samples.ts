// The anchors measured several times in one run: the ceiling (bench/ceiling.ts, a bare
// `Bun.serve`) for every route, and the minimal durable server (bench/durable-anchor.ts)
// for the submissions. The shared machine's speed moves by tens of percent within minutes;
// a single sample taken at a slow moment once inflated every ratio. Every ratio is
// therefore against the median of samples spread over the run, and every sample is reported.
import { join } from "node:path";
import { runLoad, type LoadResult, type LoadSpec } from "./load";
import { freePort, median, stopChild, waitForHttp, type Child } from "./processes";
import { questionnaireBody, type RunShape } from "./service";

export interface CeilingSample {
  /** Where in the run it was taken, e.g. "after the audit runs". */
  label: string;
  /** Seconds from the start of the bench to the middle of the measured run. */
  atSeconds: number;
  load: LoadResult;
}

export interface CeilingSummary {
  samples: CeilingSample[];
  /** What every ratio is against. */
  medianRequestsPerSecond: number;
  lowestRequestsPerSecond: number;
  highestRequestsPerSecond: number;
  /** (highest − lowest) ÷ median, in percent. */
  spreadPercent: number;
}

/** What an anchor is asked: the request, without the URL's origin. */
type AnchorRequest = Pick<LoadSpec, "method" | "headers" | "body">;

/** An anchor's process, kept running (idle between samples) from the first sample to the last. */
export class SampledServer {
  readonly samples: CeilingSample[] = [];

  private constructor(
    private readonly child: Child,
    private readonly base: string,
    private readonly request: AnchorRequest,
    private readonly shape: RunShape,
    private readonly benchStarted: number,
  ) {}

  /** `script` (in bench/) with its port as the first argument and `args` after it. */
  static async start(script: string, args: string[], request: AnchorRequest, shape: RunShape, benchStarted: number): Promise<SampledServer> {
    const port = await freePort();
    const child = Bun.spawn([process.execPath, join(import.meta.dir, script), String(port), ...args], { stdin: "ignore", stdout: "ignore", stderr: "inherit" });
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitForHttp(base, child, performance.now());
    } catch (error) {
      await stopChild(child);
      throw error;
    }
    return new SampledServer(child, base, request, shape, benchStarted);
  }

  /** One sample, measured exactly like an endpoint (warm-up, then the measured run). */
  async sample(label: string): Promise<CeilingSample> {
    const load = await runLoad({ url: `${this.base}/`, ...this.request, ...this.shape });
    const finished = performance.now();
    const measuredFrom = finished - load.seconds * 1000;
    const sample = { label, atSeconds: ((measuredFrom + finished) / 2 - this.benchStarted) / 1000, load };
    this.samples.push(sample);
    return sample;
  }

  async stop(): Promise<void> {
    await stopChild(this.child);
  }

  summary(): CeilingSummary {
    const rates = this.samples.map((sample) => sample.load.requestsPerSecond);
    if (rates.length === 0) throw new Error("the ceiling was never sampled");
    const middle = median(rates);
    const lowest = Math.min(...rates);
    const highest = Math.max(...rates);
    return { samples: this.samples, medianRequestsPerSecond: middle, lowestRequestsPerSecond: lowest, highestRequestsPerSecond: highest, spreadPercent: (100 * (highest - lowest)) / middle };
  }
}

/** The sample taken nearest in time to `atSeconds`: a second view of a ratio, in the JSON. */
export function nearestSample(summary: CeilingSummary, atSeconds: number): CeilingSample {
  return summary.samples.reduce((nearest, sample) => (Math.abs(sample.atSeconds - atSeconds) < Math.abs(nearest.atSeconds - atSeconds) ? sample : nearest));
}

/**
 * Both anchors, sampled together at the same points of the run: the ceiling (a bare
 * `Bun.serve`, small JSON) and the minimal durable submission server (issue 46), its rows
 * in a database of their own in `workDir`, sent the questionnaire the admin's run sends.
 */
export class Anchors {
  private constructor(
    readonly ceiling: SampledServer,
    readonly durable: SampledServer,
  ) {}

  static async start(options: { shape: RunShape; benchStarted: number; workDir: string; questionnaireNim: string }): Promise<Anchors> {
    const { shape, benchStarted } = options;
    const ceiling = await SampledServer.start("ceiling.ts", [], { method: "GET", headers: {} }, shape, benchStarted);
    try {
      const submission = { method: "POST" as const, headers: { "content-type": "application/json" }, body: questionnaireBody(options.questionnaireNim) };
      return new Anchors(ceiling, await SampledServer.start("durable-anchor.ts", [join(options.workDir, "durable-anchor.db")], submission, shape, benchStarted));
    } catch (error) {
      await ceiling.stop();
      throw error;
    }
  }

  async sample(label: string): Promise<void> {
    await this.ceiling.sample(label);
    await this.durable.sample(label);
  }

  async stop(): Promise<void> {
    await this.ceiling.stop();
    await this.durable.stop();
  }
}
