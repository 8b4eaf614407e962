// `npm run bench`: builds the executable if needed, generates its own data in a temporary
// folder and measures the service on this machine; prints Markdown and writes
// bench/results/latest.json, latest.md and latest.svg. See docs/benchmark.md.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bcryptCost, bcryptHashesPerSecond, bcryptImplementations, bcryptMillisecondsPerCheck, measureImport } from "./accounts";
import { Anchors, nearestSample } from "./ceiling-samples";
import { throughputChart } from "./chart";
import { measureColdStart } from "./cold-start";
import { classifiedSubmissions, viewRowsOf } from "./database-facts";
import { generateDataset, scaledShape, type Dataset } from "./dataset";
import { auditTarget, coldStartTargetMs, distinctReadsTarget, freshPageTargetMs, goalsTable, otherFigures, runNotes, type RunFacts } from "./figures";
import { measureLecturerPages } from "./lecturer-pages";
import { measureMixedLoad } from "./mixed-load";
import { measureModel } from "./model";
import { measureModelKinds } from "./model-kinds";
import { runTimed, stopChild, type Child } from "./processes";
import { cpuTimes, endpointMet, loadAverage, machineInfo, markdown, problems, ratioToCeiling, ratioToDurable, type AnchorSummaries, type GrowthRun } from "./report";
import { childEnvironment, ensureBuilt, executable, login, root, startServer } from "./service";
import { measureServiceUnderLoad, pagesOptions } from "./service-load";

// The project's shared fixtures sit beside the repository (as in CI).
const modelFixtures = join(root, "..", "shared", "fixtures", "models");

/** A smaller dataset with the same proportions, for a quick check of the bench itself. */
const scale = Number(process.env.SKRINING_BENCH_SCALE ?? "1");
if (!(scale > 0 && scale <= 1)) throw new Error("SKRINING_BENCH_SCALE must be in (0, 1]");

/** Every load run of the endpoint table and every ceiling sample: the issue's own `wrk -t2 -c32`, with a warm-up. */
const standard = { connections: 32, warmupSeconds: 2, durationSeconds: 8, timeoutSeconds: 30 };
const coldStartRuns = 5;
const importAccounts = 400;
const bcryptSeconds = 3;
/** Password checks timed one at a time, per implementation. */
const bcryptCheckRounds = 5;
const classWindowSeconds = 60;
/** Students an admin reads in turn in the audit runs: more than a busy server answers in the 100 ms a row of reads waits. */
const auditStudents = 5000;
/** Timed requests (and commands) per lecturer page and dataset size. */
const growthRounds = 5;

const log = (message: string) => console.error(`[bench] ${message}`);

async function main() {
  const benchStarted = performance.now();
  const loadAverageAtStart = loadAverage();
  const cpuAtStart = cpuTimes();
  const workDir = mkdtempSync(join(tmpdir(), "skrining-bench-"));
  const env = childEnvironment();
  const children: Child[] = [];
  let anchors: Anchors | undefined;
  try {
    const build = await ensureBuilt();
    // wrk prints its version to stdout and exits 1 when given no URL.
    const wrkVersion = (await runTimed(["wrk", "--version"])).stdout.split("\n")[0]!.replace(/ Copyright.*/, "").trim();
    const machine = machineInfo(wrkVersion);
    const cli = [executable];

    const dataDir = join(workDir, "data");
    const databasePath = join(dataDir, "skrining.db");
    mkdirSync(dataDir);
    const shape = scaledShape(scale);
    log(`generating ${shape.students} students, ${shape.screenings} screenings`);
    const dataset: Dataset = await generateDataset(databasePath, shape);

    log("model add / predict");
    const model = await measureModel({
      cli,
      dataDir,
      workDir,
      env,
      bundlePath: join(modelFixtures, "original", "model_chain_final.joblib"),
      rowsPath: join(modelFixtures, "sklearn-1.2", "rows.csv"),
    });

    log("one prediction of each model kind");
    const modelKinds = measureModelKinds();

    log("cold start");
    const coldStart = await measureColdStart(workDir, env, coldStartRuns);

    log("bcrypt limit (native and the bcryptjs fallback) and account import");
    const cores = machine.cores;
    const bcrypts = await bcryptImplementations();
    const bcryptLimit = await bcryptHashesPerSecond(bcrypts.native, cores, bcryptSeconds);
    const fallbackLimit = await bcryptHashesPerSecond(bcrypts.javascript, cores, bcryptSeconds);
    const checkMilliseconds = { native: await bcryptMillisecondsPerCheck(bcrypts.native, bcryptCheckRounds), javascript: await bcryptMillisecondsPerCheck(bcrypts.javascript, bcryptCheckRounds) };
    const imported = await measureImport(cli, workDir, env, importAccounts);

    log("anchors (the ceiling and the minimal durable server), before the service's runs");
    anchors = await Anchors.start({ shape: standard, benchStarted, workDir, questionnaireNim: dataset.questionnaireNim });
    await anchors.sample("before the service's runs");

    log("service under load");
    const server = await startServer(dataDir, env, join(workDir, "server.log"));
    children.push(server.child);
    const service = await measureServiceUnderLoad({ server, dataset, dataDir, workDir, env, anchors, standard, benchStarted, auditStudents, classWindowSeconds, growthRounds });
    const peakRun = [...service.endpoints, ...service.large].reduce((highest, entry) => (entry.peakMiB > highest.peakMiB ? entry : highest));
    await stopChild(server.child);
    log("mixed load (students' reads, many lecturers' pages, submissions) on a server started afresh");
    const mixed = await measureMixedLoad({ dataDir, env, logPath: join(workDir, "server.log"), shape: standard, mixed: service.mixed });
    log("anchors, after the service's runs");
    await anchors.sample("after the service's runs");
    await anchors.stop();
    const ceilingSummary = anchors.ceiling.summary();
    const anchorSummaries: AnchorSummaries = { ceiling: ceilingSummary, durable: anchors.durable.summary() };
    const classified = classifiedSubmissions(databasePath, service.submissionsFrom);
    const auditRows = viewRowsOf(databasePath, "GET /api/mahasiswa/hasil/:nim");

    const growth: GrowthRun[] = [{ students: shape.students, screenings: shape.screenings, advisees: dataset.largeLecturer.advisees, pages: service.pages }];
    // A hundredth and a tenth of the size (a reduced run's smallest sizes may coincide).
    const smallerShapes = [scale / 100, scale / 10].map(scaledShape).filter((candidate, index, all) => candidate.students < shape.students && all.findIndex((other) => other.students === candidate.students) === index);
    for (const growthShape of smallerShapes.reverse()) {
      log(`lecturer pages computed afresh: ${growthShape.students} students, ${growthShape.screenings} screenings`);
      const growthDir = join(workDir, `growth-${growthShape.students}`);
      mkdirSync(growthDir);
      const growthData = await generateDataset(join(growthDir, "skrining.db"), growthShape);
      const growthServer = await startServer(growthDir, env, join(workDir, "server.log"));
      children.push(growthServer.child);
      const [growthLecturer, growthAdmin] = await Promise.all([login(growthServer.base, growthData.largeLecturer.username), login(growthServer.base, growthData.admin.username)]);
      const pages = await measureLecturerPages({ ...pagesOptions(growthData, growthDir, workDir, env, growthRounds), base: growthServer.base, lecturerToken: growthLecturer, adminToken: growthAdmin });
      await stopChild(growthServer.child);
      growth.unshift({ students: growthShape.students, screenings: growthShape.screenings, advisees: growthData.largeLecturer.advisees, pages });
    }

    const facts: RunFacts = {
      scale,
      shape,
      dataset,
      anchors: anchorSummaries,
      endpoints: service.endpoints,
      large: service.large,
      growth,
      growthRounds,
      coldStart,
      coldStartRuns,
      audit: service.audit,
      auditRows,
      classRun: service.classRun,
      students: service.students,
      classified,
      model,
      modelKinds,
      accounts: { cores, bcryptLimit, fallbackLimit, checkRounds: bcryptCheckRounds, checkMilliseconds, imported },
      memory: { idleMiB: service.idleMiB, peakMiB: peakRun.peakMiB, peakDuring: `${peakRun.name}, ${peakRun.load.connections} connection(s)`, mixed },
    };
    const goals = goalsTable(facts);
    const notes = runNotes(facts);
    const largeCaption = `lecturer with ${dataset.largeLecturer.advisees.toLocaleString("en-US")} advisees (of ${shape.students.toLocaleString("en-US")} students, ${shape.screenings.toLocaleString("en-US")} screenings)`;
    const cpuAtEnd = cpuTimes();
    const noise = { loadAverageAtStart, stealPercent: (100 * (cpuAtEnd.steal - cpuAtStart.steal)) / Math.max(1, cpuAtEnd.total - cpuAtStart.total) };
    const table = markdown({ machine, noise, goals, anchors: anchorSummaries, endpoints: service.endpoints, large: service.large, largeCaption, growth, figures: otherFigures(facts), notes });
    const totalSeconds = (performance.now() - benchStarted) / 1000;

    const results = {
      generatedAt: new Date().toISOString(),
      totalSeconds,
      build,
      machine,
      noise,
      dataset: { ...dataset.shape, generationSeconds: dataset.seconds, scale },
      goals,
      ceiling: { ...ceilingSummary, ratiosAgainst: "median of the samples" },
      durableAnchor: { ...anchorSummaries.durable, ratiosAgainst: "median of the samples", ratioToCeiling: anchorSummaries.durable.medianRequestsPerSecond / ceilingSummary.medianRequestsPerSecond },
      endpoints: service.endpoints.map((endpoint) => {
        const nearest = nearestSample(ceilingSummary, endpoint.atSeconds);
        return {
          name: endpoint.name,
          ...endpoint.load,
          atSeconds: endpoint.atSeconds,
          ratioToCeiling: ratioToCeiling(endpoint, anchorSummaries),
          ...(endpoint.against === "durable" && { ratioToDurableAnchor: ratioToDurable(endpoint, anchorSummaries) }),
          ratioToNearestCeilingSample: { sample: nearest.label, ratio: endpoint.load.requestsPerSecond / nearest.load.requestsPerSecond },
          target: endpoint.target ?? null,
          targetAgainst: endpoint.against,
          met: endpointMet(endpoint, anchorSummaries) ?? null,
          peakResidentMiB: endpoint.peakMiB,
        };
      }),
      largeDataset: { lecturerAdvisees: dataset.largeLecturer.advisees, runs: service.large.map(({ name, load, peakMiB }) => ({ name, ...load, peakResidentMiB: peakMiB })) },
      distinctCallers: { lecturers: service.lecturers, students: service.students },
      accounts: {
        bcryptCost,
        bcryptHashesPerSecond: bcryptLimit,
        cores,
        import: imported,
        ratioToBcryptLimit: imported.accountsPerSecond / bcryptLimit,
        fallback: { implementation: "bcryptjs", hashesPerSecond: fallbackLimit, ratioToNative: fallbackLimit / bcryptLimit },
        checkMilliseconds,
      },
      model: { ...model, kinds: modelKinds, submissionsClassifiedByModel: classified.byModel, submissions: classified.total },
      coldStart: { ...coldStart, targetMs: coldStartTargetMs },
      classSubmissions: service.classRun,
      growth,
      freshPageTargetMs,
      audit: { ...service.audit, viewRows: auditRows, targetRatio: auditTarget, distinctReadsTargetRatio: distinctReadsTarget },
      memory: { ...facts.memory, targetMB: 150 },
      notes,
    };
    const resultsDir = join(import.meta.dir, "results");
    mkdirSync(resultsDir, { recursive: true });
    // A reduced dataset's figures are not the issue's: they never replace the recorded run.
    const name = scale === 1 ? "latest" : "reduced";
    writeFileSync(join(resultsDir, `${name}.json`), JSON.stringify(results, null, 2) + "\n");
    const runDate = `${results.generatedAt.slice(0, 16).replace("T", " ")} UTC`;
    writeFileSync(join(resultsDir, `${name}.md`), `# skrining benchmark, run of ${runDate}\n\n${table}\n`);
    writeFileSync(
      join(resultsDir, `${name}.svg`),
      throughputChart({
        ceilingRequestsPerSecond: ceilingSummary.medianRequestsPerSecond,
        ceilingSamples: ceilingSummary.samples.map((sample) => sample.load.requestsPerSecond),
        // A submission's goal is against the durable anchor, drawn as a bar of its own: on this axis the submissions are shown beside it, without a goal mark.
        routes: [
          ...service.endpoints.map(({ chartName, load, target, against }) => ({ name: chartName, requestsPerSecond: load.requestsPerSecond, target: against === "ceiling" ? target : undefined, problems: problems(load) })),
          { name: "anchor: minimal durable submission server (median)", requestsPerSecond: anchorSummaries.durable.medianRequestsPerSecond },
        ],
        subtitle: `Run of ${runDate}, ${standard.connections} connections per route, ${machine.cores} cores; submissions' goal: 0.50 of the durable anchor (in ${name}.md)`,
      }),
    );
    console.log(table);
    log(`done in ${totalSeconds.toFixed(0)} s; wrote bench/results/${name}.json, ${name}.md and ${name}.svg`);
  } catch (error) {
    const serverLog = join(workDir, "server.log");
    if (existsSync(serverLog)) console.error(`server log:\n${readFileSync(serverLog, "utf8").slice(-4000)}`);
    throw error;
  } finally {
    for (const child of children) await stopChild(child);
    await anchors?.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
