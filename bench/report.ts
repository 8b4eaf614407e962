import { readFileSync } from "node:fs";
import { availableParallelism, release, totalmem } from "node:os";
import type { CeilingSummary } from "./ceiling-samples";
import { ratioText } from "./chart";
import type { PageCost } from "./lecturer-pages";
import type { LoadResult } from "./load";

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  bun: string;
  /** The load generator's version line. */
  wrk: string;
}

/** Jiffies of the whole machine from /proc/stat: total and stolen by the hypervisor. */
export function cpuTimes(): { total: number; steal: number } {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already inside user).
  return { total: fields.slice(0, 8).reduce((sum, value) => sum + value, 0), steal: fields[7] ?? 0 };
}

/** How busy the machine was apart from the bench: load average before it started, steal during it. */
export interface Noise {
  loadAverageAtStart: number;
  stealPercent: number;
}

export function loadAverage(): number {
  return Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
}

export function machineInfo(wrkVersion: string): Machine {
  const cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? "unknown";
  const os = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(readFileSync("/etc/os-release", "utf8"))?.[1] ?? "Linux";
  return {
    cpu,
    cores: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os}, kernel ${release()}`,
    bun: Bun.version,
    wrk: wrkVersion,
  };
}

export interface EndpointResult {
  name: string;
  /** A short name for the chart's bar. */
  chartName: string;
  load: LoadResult;
  /** The least ratio to its anchor the endpoint must reach; none for a run shown beside the goals. */
  target?: number;
  /** What its goal is against: the ceiling (a read), or the minimal durable server (a submission; its ratio to the ceiling is shown too). */
  against: "ceiling" | "durable";
  /** The server's highest resident memory sampled during this run. */
  peakMiB: number;
  /** Seconds from the start of the bench to the middle of the measured run. */
  atSeconds: number;
}

/** The medians every ratio is against: the ceiling's samples, and the minimal durable server's. */
export interface AnchorSummaries {
  ceiling: CeilingSummary;
  durable: CeilingSummary;
}

/** An endpoint's ratio: to the median of the ceiling's samples. */
export const ratioToCeiling = (endpoint: EndpointResult, anchors: AnchorSummaries) => endpoint.load.requestsPerSecond / anchors.ceiling.medianRequestsPerSecond;

/** A submission's ratio: to the median of the minimal durable server's samples. */
export const ratioToDurable = (endpoint: EndpointResult, anchors: AnchorSummaries) => endpoint.load.requestsPerSecond / anchors.durable.medianRequestsPerSecond;

/** The ratio its goal is about. */
export const goalRatio = (endpoint: EndpointResult, anchors: AnchorSummaries) => (endpoint.against === "durable" ? ratioToDurable : ratioToCeiling)(endpoint, anchors);

export function endpointMet(endpoint: EndpointResult, anchors: AnchorSummaries): boolean | undefined {
  if (endpoint.target === undefined) return undefined;
  return goalRatio(endpoint, anchors) >= endpoint.target && problems(endpoint.load) === "";
}

export interface LargeResult {
  name: string;
  load: LoadResult;
  peakMiB: number;
}

/** The lecturer pages at one dataset size. */
export interface GrowthRun {
  students: number;
  screenings: number;
  /** The large lecturer's advisees at this size. */
  advisees: number;
  pages: PageCost[];
}

export interface Figure {
  name: string;
  value: string;
  target?: string;
  met?: boolean;
}

const fixed = (value: number | null, digits: number) => (value === null ? "–" : value.toFixed(digits));
const rate = (value: number) => Math.round(value).toLocaleString("en-US");
const yesNo = (met: boolean | undefined) => (met === undefined ? "" : met ? "yes" : "**no**");

/** Non-2xx answers, socket errors and timeouts, which would make a rate meaningless. */
export function problems(load: LoadResult): string {
  const parts = [
    load.non2xx > 0 ? `${load.non2xx} answers not 2xx/3xx` : "",
    load.errors > 0 ? `${load.errors} errors` : "",
    load.timeouts > 0 ? `${load.timeouts} timeouts` : "",
  ];
  return parts.filter(Boolean).join(", ");
}

export function markdown(report: {
  machine: Machine;
  noise: Noise;
  /** The goals of the performance issue (46), each with its value and whether it is met. */
  goals: Figure[];
  anchors: AnchorSummaries;
  endpoints: EndpointResult[];
  large: LargeResult[];
  largeCaption: string;
  /** From the smallest dataset to the largest. */
  growth: GrowthRun[];
  figures: Figure[];
  notes: string[];
}): string {
  const lines: string[] = [];
  const { machine } = report;
  lines.push(
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM; ${machine.os}; Bun ${machine.bun}; load generator ${machine.wrk} (same machine).`,
    "",
    `Load average before the run ${report.noise.loadAverageAtStart.toFixed(2)}; CPU time stolen by the hypervisor during it ${report.noise.stealPercent.toFixed(1)}%.`,
    "",
    "| goal (issue 46) | value | target | met? |",
    "|---|---:|---:|---|",
    ...report.goals.map((goal) => `| ${goal.name} | ${goal.value} | ${goal.target ?? ""} | ${yesNo(goal.met)} |`),
  );
  const { ceiling, durable } = report.anchors;
  lines.push(
    "",
    "| anchors, 32 connections | at s | bare `Bun.serve`, small JSON: req/s | p50 ms | p99 ms | minimal durable submission server: req/s | p50 ms | p99 ms | durable ÷ bare |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...ceiling.samples.map((sample, index) => {
      const other = durable.samples[index]!;
      return `| ${sample.label} | ${sample.atSeconds.toFixed(0)} | ${rate(sample.load.requestsPerSecond)} | ${fixed(sample.load.latencyMs.p50, 2)} | ${fixed(sample.load.latencyMs.p99, 2)} | ${rate(other.load.requestsPerSecond)} | ${fixed(other.load.latencyMs.p50, 2)} | ${fixed(other.load.latencyMs.p99, 2)} | ${(other.load.requestsPerSecond / sample.load.requestsPerSecond).toFixed(2)} |`;
    }),
    `| **median of the ${ceiling.samples.length} samples: every ratio below is to it** | | **${rate(ceiling.medianRequestsPerSecond)}** | | | **${rate(durable.medianRequestsPerSecond)}** | | | **${(durable.medianRequestsPerSecond / ceiling.medianRequestsPerSecond).toFixed(2)}** |`,
    "",
    `Spread of the samples: the ceiling's ${rate(ceiling.lowestRequestsPerSecond)}–${rate(ceiling.highestRequestsPerSecond)} req/s, ${ceiling.spreadPercent.toFixed(0)}% of its median; the durable server's ${rate(durable.lowestRequestsPerSecond)}–${rate(durable.highestRequestsPerSecond)} req/s, ${durable.spreadPercent.toFixed(0)}% of its median.`,
    "",
    "| endpoint (32 connections) | req/s | p50 ms | p99 ms | ratio to ceiling | ratio to durable anchor | target | met? |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
  );
  for (const endpoint of report.endpoints) {
    const { load } = endpoint;
    const target = endpoint.target === undefined ? "" : `≥ ${endpoint.target.toFixed(2)} of the ${endpoint.against === "durable" ? "durable anchor" : "ceiling"}`;
    const onCeiling = endpoint.against === "ceiling" ? endpoint.target : undefined;
    const durableRatio = endpoint.against === "durable" ? ratioText(ratioToDurable(endpoint, report.anchors), endpoint.target) : "";
    lines.push(
      `| ${endpoint.name} | ${rate(load.requestsPerSecond)} | ${fixed(load.latencyMs.p50, 2)} | ${fixed(load.latencyMs.p99, 2)} | ${ratioText(ratioToCeiling(endpoint, report.anchors), onCeiling)} | ${durableRatio} | ${target} | ${yesNo(endpointMet(endpoint, report.anchors))} |`,
    );
  }
  lines.push("", `| ${report.largeCaption} | connections | req/s | p50 ms | p99 ms |`, "|---|---:|---:|---:|---:|");
  for (const entry of report.large) {
    const { load } = entry;
    lines.push(`| ${entry.name} | ${load.connections} | ${fixed(load.requestsPerSecond, 1)} | ${fixed(load.latencyMs.p50, 1)} | ${fixed(load.latencyMs.p99, 1)} |`);
  }
  const count = (value: number) => value.toLocaleString("en-US");
  lines.push(
    "",
    `| large lecturer's pages, computed afresh after a write (median ms) | ${report.growth.map((run) => `${count(run.students)} students, ${count(run.screenings)} screenings (${count(run.advisees)} advisees)`).join(" | ")} |`,
    `|---|${report.growth.map(() => "---:").join("|")}|`,
  );
  for (const [index, page] of (report.growth[0]?.pages ?? []).entries()) {
    lines.push(`| ${page.name} | ${report.growth.map((run) => fixed(run.pages[index]?.medianMs ?? null, 1)).join(" | ")} |`);
  }
  lines.push("", "| figure | value | target | met? |", "|---|---:|---:|---|");
  for (const figure of report.figures) lines.push(`| ${figure.name} | ${figure.value} | ${figure.target ?? ""} | ${yesNo(figure.met)} |`);
  if (report.notes.length > 0) lines.push("", ...report.notes.map((note) => `- ${note}`));
  return lines.join("\n");
}
