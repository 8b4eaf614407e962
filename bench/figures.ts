// The report's goals table (issue 28's, in its order), its table of other figures, and the
// notes under them, from what the run measured.
import { bcryptCost, type ImportMeasurement } from "./accounts";
import type { AuditCost } from "./audit";
import { ratioText } from "./chart";
import type { ClassSubmissions } from "./class-submissions";
import type { ColdStart } from "./cold-start";
import type { Dataset, DatasetShape } from "./dataset";
import type { StudentSubmissions } from "./distinct-callers";
import type { ModelMeasurement } from "./model";
import { modelKindFigures, type KindMeasurement } from "./model-kinds";
import type { MixedLoad } from "./mixed-load";
import { endpointMet, goalRatio, problems, ratioToCeiling, ratioToDurable, type AnchorSummaries, type EndpointResult, type Figure, type GrowthRun, type LargeResult } from "./report";

export const coldStartTargetMs = 100;
/** The server's peak resident memory under the mixed load (issue 46), in MB (10^6 bytes). */
export const memoryTargetMB = 150;
/** The large lecturer's `statistik` and `sort=risk`, computed afresh after a write (issue 28). */
export const freshPageTargetMs = 10;
/** An admin's distinct reads ÷ the student's own read (issue 28). */
export const distinctReadsTarget = 0.8;
/** The advisor's read ÷ the student's own read (issue 17: the trail costs a read at most 10%). */
export const auditTarget = 0.9;

export interface RunFacts {
  scale: number;
  shape: DatasetShape;
  dataset: Dataset;
  anchors: AnchorSummaries;
  endpoints: EndpointResult[];
  large: LargeResult[];
  growth: GrowthRun[];
  growthRounds: number;
  coldStart: ColdStart;
  coldStartRuns: number;
  audit: AuditCost;
  auditRows: { rows: number; reads: number } | null;
  classRun: ClassSubmissions;
  students: StudentSubmissions;
  classified: { total: number; byModel: number };
  model: ModelMeasurement;
  modelKinds: KindMeasurement[];
  accounts: {
    cores: number;
    bcryptLimit: number;
    fallbackLimit: number;
    checkRounds: number;
    checkMilliseconds: { native: number; javascript: number };
    imported: ImportMeasurement;
  };
  memory: { idleMiB: number; peakMiB: number; peakDuring: string; mixed: MixedLoad };
}

const rate = (requestsPerSecond: number) => Math.round(requestsPerSecond).toLocaleString("en-US");
const count = (value: number) => value.toLocaleString("en-US");

const megabytes = (mebibytes: number) => mebibytes * 1.048576;

/** Issue 46's goals table, row for row (and issue 28's fresh lecturer pages). */
export function goalsTable(facts: RunFacts): Figure[] {
  const { anchors, coldStart, audit } = facts;
  const { mixed } = facts.memory;
  const endpointGoals = facts.endpoints.filter((endpoint) => endpoint.target !== undefined);
  const pages = facts.growth.at(-1)!.pages;
  const [statistik, , sortRisk] = pages as [(typeof pages)[0], (typeof pages)[0], (typeof pages)[0]];
  return [
    ...endpointGoals.map((endpoint) => ({
      name: endpoint.name,
      value:
        endpoint.against === "durable"
          ? `${rate(endpoint.load.requestsPerSecond)} req/s = ${ratioText(ratioToDurable(endpoint, anchors), endpoint.target)} of ${rate(anchors.durable.medianRequestsPerSecond)} (${ratioText(ratioToCeiling(endpoint, anchors))} of the ceiling)`
          : `${rate(endpoint.load.requestsPerSecond)} req/s = ${ratioText(goalRatio(endpoint, anchors), endpoint.target)}`,
      target: `≥ ${endpoint.target!.toFixed(2)} of the ${endpoint.against === "durable" ? "minimal durable server" : "ceiling"}`,
      met: endpointMet(endpoint, anchors),
    })),
    {
      name: `cold start to first answer, new / existing data folder (medians of ${facts.coldStartRuns})`,
      value: `${coldStart.firstStartMs.toFixed(0)} / ${coldStart.restartMs.toFixed(0)} ms`,
      target: `< ${coldStartTargetMs} ms each`,
      met: coldStart.firstStartMs < coldStartTargetMs && coldStart.restartMs < coldStartTargetMs,
    },
    {
      name: `resident memory, peak under the mixed load (a server started afresh; ${mixedShares(mixed)}; ${facts.memory.mixed.load.connections} connections, ${mixed.load.seconds.toFixed(0)} s measured)`,
      value: `${mixed.peakMiB.toFixed(1)} MiB = ${megabytes(mixed.peakMiB).toFixed(1)} MB`,
      target: `< ${memoryTargetMB} MB`,
      met: megabytes(mixed.peakMiB) < memoryTargetMB && problems(mixed.load) === "",
    },
    {
      name: `\`statistik\`, lecturer with ${count(facts.dataset.largeLecturer.advisees)} advisees, ${count(facts.shape.screenings)} screenings, fresh after a write (and \`sort=risk\`; medians of ${facts.growthRounds})`,
      value: `${statistik.medianMs.toFixed(1)} ms (\`sort=risk\` ${sortRisk.medianMs.toFixed(1)} ms)`,
      target: `< ${freshPageTargetMs} ms each`,
      met: statistik.medianMs < freshPageTargetMs && sortRisk.medianMs < freshPageTargetMs,
    },
    {
      name: `an admin reading ${count(audit.studentPaths)} different students in turn ÷ the student's own read (\`GET /api/mahasiswa/hasil/<nim>\`, median of ${audit.runs.own.length} rounds)`,
      value: `${ratioText(audit.everyStudentRatio, distinctReadsTarget)} (${rate(audit.everyStudent)} ÷ ${rate(audit.own)} req/s)`,
      target: `≥ ${distinctReadsTarget.toFixed(2)}`,
      met: audit.everyStudentRatio >= distinctReadsTarget && audit.problems.length === 0,
    },
  ];
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

function mixedShares(mixed: MixedLoad): string {
  return `${percent(mixed.share.studentReads)} students' \`me\` and \`hasil\` (${count(mixed.students)} students), ${percent(mixed.share.lecturerPages)} lecturers' lists and \`statistik\` (${count(mixed.lecturers)} lecturers), ${percent(mixed.share.submissions)} submissions (admin)`;
}

export function otherFigures(facts: RunFacts): Figure[] {
  const { accounts, model, coldStart, audit, classRun, students, memory, dataset, shape } = facts;
  const importRatio = accounts.imported.accountsPerSecond / accounts.bcryptLimit;
  const pageTargets: (number | undefined)[] = [freshPageTargetMs, 50, freshPageTargetMs];
  return [
    { name: `bcrypt limit (cost ${bcryptCost}, ${accounts.cores} hashes in flight)`, value: `${accounts.bcryptLimit.toFixed(1)} hashes/s` },
    {
      name: `bcrypt limit of the fallback, bcryptjs (cost ${bcryptCost}, ${accounts.cores} hashes in flight)`,
      value: `${accounts.fallbackLimit.toFixed(1)} hashes/s = ${(accounts.fallbackLimit / accounts.bcryptLimit).toFixed(2)} × native`,
    },
    {
      name: `one sign-in's password check, one at a time (cost ${bcryptCost}, median of ${accounts.checkRounds})`,
      value: `native ${Math.round(accounts.checkMilliseconds.native)} ms, bcryptjs ${Math.round(accounts.checkMilliseconds.javascript)} ms`,
    },
    {
      name: `\`accounts import\` of ${accounts.imported.accounts} new accounts (whole CLI process)`,
      value: `${accounts.imported.accountsPerSecond.toFixed(1)} accounts/s (${(accounts.imported.milliseconds / 1000).toFixed(2)} s) = ${importRatio.toFixed(2)} × bcrypt limit`,
    },
    { name: "`model add` of model_chain_final.joblib (700 KB, whole CLI process)", value: model.modelAddMilliseconds === null ? "–" : `${Math.round(model.modelAddMilliseconds)} ms` },
    {
      name: "one prediction as a submission makes it (100-tree ClassifierChain, both outputs; profile features to row, then the trees; in process, median of 5 rounds of 2,000 rows)",
      value: model.predictionMicroseconds === null ? "–" : `${model.predictionMicroseconds.toFixed(1)} µs`,
      target: "< 50 µs",
      met: model.predictionMicroseconds !== null && model.predictionMicroseconds < 50,
    },
    ...modelKindFigures(facts.modelKinds),
    {
      name: "`model predict`, one row of a 2,000-row CSV (parsing and writing the CSV included; process start and model load cancelled)",
      value: model.batchRowMicroseconds === null ? "–" : `${model.batchRowMicroseconds.toFixed(1)} µs`,
    },
    {
      name: `cold start, empty data folder → first answer (each of ${facts.coldStartRuns})`,
      value: coldStart.firstStartRunsMs.map((ms) => ms.toFixed(0)).join(", ") + " ms",
    },
    { name: `cold start, existing data folder → first answer (each of ${facts.coldStartRuns})`, value: coldStart.restartRunsMs.map((ms) => ms.toFixed(0)).join(", ") + " ms" },
    { name: "questionnaire submissions of the run classified by the active models", value: `${count(facts.classified.byModel)} of ${count(facts.classified.total)}` },
    { name: "resident memory, idle (large dataset loaded, a few requests served)", value: `${memory.idleMiB.toFixed(1)} MiB` },
    {
      name: `resident memory, peak under the load runs of the endpoint tables (during ${memory.peakDuring})`,
      value: `${memory.peakMiB.toFixed(1)} MiB = ${megabytes(memory.peakMiB).toFixed(1)} MB`,
    },
    {
      name: "the mixed load: its rate; the server's resident memory after its first answer",
      value: `${rate(memory.mixed.load.requestsPerSecond)} req/s; ${memory.mixed.startMiB.toFixed(1)} MiB`,
    },
    ...facts.growth.at(-1)!.pages.slice(0, 3).map((page, index): Figure => {
      const target = pageTargets[index];
      return {
        name: `${page.name}, ${count(dataset.largeLecturer.advisees)} advisees, computed afresh after a write (median of ${facts.growthRounds}; fastest ${page.fastestMs.toFixed(1)} ms, slowest ${page.slowestMs.toFixed(1)} ms)`,
        value: `${page.medianMs.toFixed(1)} ms`,
        ...(target === undefined ? {} : { target: `< ${target} ms`, met: page.medianMs < target }),
      };
    }),
    {
      name: `a class of ${classRun.students} students submitting once each within ${classRun.windowSeconds} s (own tokens, seeded arrival times): latency p50 / p99 / max`,
      value: `${classRun.latencyMs.p50.toFixed(1)} / ${classRun.latencyMs.p99.toFixed(1)} / ${classRun.latencyMs.max.toFixed(1)} ms`,
    },
    {
      name: "students' submissions: students logged in and asked (each once) of those free to submit; the run's seconds (warm-up + measured); the rates their number was sized for (warm-up: the admin's × 1.5, measured: the warm-up's × 2); the warm-up's rate",
      value: `${count(students.students)} of ${count(students.freeToSubmit)}; ${students.warmupSeconds} + ${students.durationSeconds} s; ${rate(students.sizedForRequestsPerSecond.warmup)} / ${rate(students.sizedForRequestsPerSecond.measured)}/s; ${students.warmupRequestsPerSecond === null ? "–" : `${rate(students.warmupRequestsPerSecond)}/s`}`,
    },
    {
      name: `audit: \`GET /api/mahasiswa/hasil/<nim>\` read by the advisor (a \`view\` row; repeats while it waits counted in it) ÷ by the student (no row), the median of ${audit.runs.own.length} alternating rounds`,
      value: `${ratioText(audit.ratio, auditTarget)} (${rate(audit.advisor)} ÷ ${rate(audit.own)} req/s)`,
      target: `≥ ${auditTarget.toFixed(2)}`,
      met: audit.ratio >= auditTarget && audit.problems.length === 0,
    },
    {
      name: `audit: the same route, the advisor reading each of ${audit.adviseePaths} advisees in turn ÷ the student's own read`,
      value: `${audit.adviseesRatio.toFixed(2)} (${rate(audit.advisees)} req/s)`,
    },
    {
      name: "audit: reads of the route by others in the audit runs, and the rows that hold them",
      value: facts.auditRows === null ? "–" : `${count(facts.auditRows.reads)} reads in ${count(facts.auditRows.rows)} rows`,
    },
    { name: `dataset generation (${count(shape.students)} students, ${count(shape.screenings)} screenings)`, value: `${dataset.seconds.toFixed(1)} s` },
  ];
}

export function runNotes(facts: RunFacts): string[] {
  const notes: string[] = [];
  if (facts.model.note) notes.push(`model: ${facts.model.note}`);
  if (facts.classified.byModel < facts.classified.total) {
    notes.push(`${facts.classified.total - facts.classified.byModel} questionnaire submissions were classified by the threshold fallback, not by a model`);
  }
  for (const entry of [...facts.endpoints, ...facts.large]) {
    const problem = problems(entry.load);
    if (problem) notes.push(`${entry.name}, ${entry.load.connections} connection(s): ${problem}`);
  }
  const mixedProblem = problems(facts.memory.mixed.load);
  if (mixedProblem) notes.push(`mixed load: ${mixedProblem}`);
  for (const problem of facts.audit.problems) notes.push(`audit cost: ${problem}`);
  if (facts.auditRows === null) notes.push("audit: the trail's view rows could not be counted (`audit_log` with `action`, `target` and `reads` not found)");
  for (const [status, times] of Object.entries(facts.classRun.failures)) notes.push(`class submissions: ${times} answered ${status}, not 201`);
  if (facts.students.shortened) {
    notes.push(
      `students' submissions: ${count(facts.students.freeToSubmit)} students free to submit allow ${facts.students.warmupSeconds} + ${facts.students.durationSeconds} s at the rate sized for, not the standard run`,
    );
  }
  const ranOut = facts.students.ranOut;
  if (ranOut) {
    notes.push(
      `students' submissions: the first measured run ran out of students (${count(ranOut.ok)} answered, then ${count(ranOut.non2xx)} refused as second questionnaires) and was made again with students not asked yet`,
    );
  }
  if (facts.scale !== 1) notes.push(`SKRINING_BENCH_SCALE=${facts.scale}: a reduced dataset, not the figures of the issue`);
  return notes;
}
