// `npm run bench`: builds the executable if needed, generates its own data in a temporary
// folder and measures the service on this machine; prints Markdown and writes
// bench/results/latest.json, latest.md and latest.svg. See docs/benchmark.md.
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bcryptCost, bcryptHashesPerSecond, bcryptImplementations, bcryptMillisecondsPerCheck, measureImport } from "./accounts";
import { measureAuditCost } from "./audit";
import { throughputChart } from "./chart";
import { benchPassword, generateDataset, scaledShape, type Dataset } from "./dataset";
import { runLoad, type LoadSpec } from "./load";
import { measureModel } from "./model";
import { measureModelKinds, modelKindFigures } from "./model-kinds";
import { measureClassSubmissions } from "./class-submissions";
import { measureLecturerPages } from "./lecturer-pages";
import { freePort, median, residentMiB, runTimed, stopChild, waitForHttp, withPeakResident, type Child } from "./processes";
import { cpuTimes, loadAverage, machineInfo, markdown, problems, type EndpointResult, type Figure, type GrowthRun, type LargeResult } from "./report";

const root = join(import.meta.dir, "..");
const executable = join(root, "dist", "skrining");
// The project's shared fixtures sit beside the repository (as in CI).
const modelFixtures = join(root, "..", "shared", "fixtures", "models");

/** A smaller dataset with the same proportions, for a quick check of the bench itself. */
const scale = Number(process.env.SKRINING_BENCH_SCALE ?? "1");
if (!(scale > 0 && scale <= 1)) throw new Error("SKRINING_BENCH_SCALE must be in (0, 1]");

const standard = { connections: 32, warmupSeconds: 2, durationSeconds: 8, timeoutSeconds: 30 };
const coldStartRuns = 5;
const importAccounts = 400;
const bcryptSeconds = 3;
/** Password checks timed one at a time, per implementation. */
const bcryptCheckRounds = 5;
const coldStartTargetMs = 100;
const classWindowSeconds = 60;
/** Students an admin reads in turn in the audit runs: more than a busy server answers in the 100 ms a row of reads waits. */
const auditStudents = 5000;
/** Timed requests (and commands) per lecturer page and dataset size. */
const growthRounds = 5;

const log = (message: string) => console.error(`[bench] ${message}`);

function newestMtime(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stats.mtimeMs);
}

/** `npm run build` when dist/skrining is missing or older than anything it is built from. */
async function ensureBuilt(): Promise<"rebuilt" | "up to date"> {
  const sources = Math.max(...["src", "cli", "package.json", "package-lock.json"].map((entry) => newestMtime(join(root, entry))));
  if (existsSync(executable) && statSync(executable).mtimeMs >= sources) return "up to date";
  log("building dist/skrining (npm run build)");
  const built = await runTimed(["npm", "run", "build"], { cwd: root });
  if (built.exitCode !== 0) throw new Error(`npm run build failed:\n${built.stdout}${built.stderr}`);
  return "rebuilt";
}

/** The children's environment: this one without any SKRINING_* setting, plus the bench's own. */
function childEnvironment(): Record<string, string | undefined> {
  const environment: Record<string, string | undefined> = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("SKRINING_")));
  // Every login of the bench comes from one address (the class's 200 among them), which
  // the login throttle would otherwise stop at 100 per 15 minutes.
  return { ...environment, SKRINING_LOG: "off", SKRINING_ADMIN_PASSWORD: benchPassword, SKRINING_THROTTLE_ADDRESS: "100000" };
}

interface Server {
  child: Child;
  base: string;
  /** Milliseconds from spawn to the first HTTP answer. */
  startedInMs: number;
}

async function startServer(dataDir: string, env: Record<string, string | undefined>, logPath: string): Promise<Server> {
  const port = await freePort();
  const since = performance.now();
  const output = openSync(logPath, "a");
  const child = Bun.spawn([executable, "--data", dataDir, "serve", "--host", "127.0.0.1", "--port", String(port)], {
    env,
    stdin: "ignore",
    stdout: output,
    stderr: output,
  });
  const base = `http://127.0.0.1:${port}`;
  const startedInMs = await waitForHttp(`${base}/api/auth/me`, child, since);
  return { child, base, startedInMs };
}

/** First start in an empty folder (schema, secret, admin hash) and restart of that folder, `runs` times each. */
async function measureColdStart(workDir: string, env: Record<string, string | undefined>, runs: number) {
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

async function login(base: string, username: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: benchPassword }),
  });
  const body = (await response.json()) as { access_token?: string; error?: string };
  if (!response.ok || !body.access_token) throw new Error(`login ${username}: ${response.status} ${body.error ?? ""}`);
  return body.access_token;
}

/** A request of the bench: checked once for a 2xx answer before it is put under load. */
interface Probe {
  name: string;
  path: string;
  token: string;
  method?: "GET" | "POST";
  body?: string;
}

async function checkProbe(base: string, probe: Probe): Promise<void> {
  const response = await fetch(`${base}${probe.path}`, {
    method: probe.method ?? "GET",
    headers: { authorization: `Bearer ${probe.token}`, "content-type": "application/json" },
    body: probe.body,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${probe.name}: ${response.status} ${text.slice(0, 300)}`);
}

function loadSpec(base: string, probe: Probe, shape: Omit<LoadSpec, "url" | "method" | "headers" | "body">): LoadSpec {
  const headers: Record<string, string> = { authorization: `Bearer ${probe.token}` };
  if (probe.body !== undefined) headers["content-type"] = "application/json";
  return { url: `${base}${probe.path}`, method: probe.method ?? "GET", headers, body: probe.body, ...shape };
}

/** One full questionnaire, the same answers every time: the forest's cost does not depend on them. A student's own carries no NIM. */
function questionnaireBody(nim?: string): string {
  const jawaban: Record<string, number> = {};
  for (let item = 1; item <= 40; item++) jawaban[`S${item}`] = 1 + ((item * 7) % 5);
  for (let item = 1; item <= 28; item++) jawaban[`M${item}`] = 1 + ((item * 5) % 7);
  return JSON.stringify(nim === undefined ? { jawaban } : { NIM: nim, jawaban });
}

/** How many of the run's submissions a model classified (both levels), read after the server stopped. */
function classifiedSubmissions(databasePath: string, nim: string, from: string): { total: number; byModel: number } {
  const sqlite = new Database(databasePath, { readonly: true });
  try {
    return sqlite
      .query<{ total: number; byModel: number }, [string, string]>(
        "SELECT count(*) AS total, count(*) FILTER (WHERE stress_model_id IS NOT NULL AND motivasi_model_id IS NOT NULL) AS byModel FROM riwayat_skrining WHERE NIM = ? AND tanggal_skrining >= ?",
      )
      .get(nim, from)!;
  } finally {
    sqlite.close();
  }
}

/** The audit trail's view rows of a route and the reads they count, read after the server stopped: the runs of the audit figure. */
function viewRowsOf(databasePath: string, target: string): { rows: number; reads: number } {
  const sqlite = new Database(databasePath, { readonly: true });
  try {
    return sqlite.query<{ rows: number; reads: number }, [string]>("SELECT count(*) AS rows, coalesce(sum(reads), 0) AS reads FROM audit_log WHERE action = 'view' AND target = ?").get(target)!;
  } finally {
    sqlite.close();
  }
}

/** Students with a screening (their result answers 200): the advisees of `nip`, or the first `limit` of all. */
function studentsWithScreenings(databasePath: string, choice: { nip: string } | { limit: number }): string[] {
  const sqlite = new Database(databasePath, { readonly: true });
  try {
    const screened = "EXISTS (SELECT 1 FROM riwayat_skrining WHERE riwayat_skrining.NIM = mahasiswa.NIM)";
    const rows =
      "nip" in choice
        ? sqlite.query<{ nim: string }, [string]>(`SELECT NIM AS nim FROM mahasiswa WHERE NIP_doswal = ? AND ${screened} ORDER BY NIM`).all(choice.nip)
        : sqlite.query<{ nim: string }, [number]>(`SELECT NIM AS nim FROM mahasiswa WHERE ${screened} ORDER BY NIM LIMIT ?`).all(choice.limit);
    return rows.map((row) => row.nim);
  } finally {
    sqlite.close();
  }
}

/** What the lecturer pages need of a dataset besides the server and its tokens. */
function pagesOptions(data: Dataset, dataDir: string, workDir: string) {
  return {
    adviseeNim: data.largeLecturer.adviseeNim,
    writerNim: data.student.nim,
    nip: data.largeLecturer.nip,
    cli: [executable],
    dataDir,
    workDir,
    env: childEnvironment(),
    rounds: growthRounds,
  };
}

async function main() {
  const benchStarted = performance.now();
  const loadAverageAtStart = loadAverage();
  const cpuAtStart = cpuTimes();
  const workDir = mkdtempSync(join(tmpdir(), "skrining-bench-"));
  const env = childEnvironment();
  const children: Child[] = [];
  try {
    const build = await ensureBuilt();
    // wrk prints its version to stdout and exits 1 when given no URL.
    const wrkVersion = (await runTimed(["wrk", "--version"])).stdout.split("\n")[0]!.replace(/ Copyright.*/, "").trim();
    const machine = machineInfo(wrkVersion);
    const cli = [executable];

    const dataDir = join(workDir, "data");
    mkdirSync(dataDir);
    const shape = scaledShape(scale);
    log(`generating ${shape.students} students, ${shape.screenings} screenings`);
    const dataset: Dataset = await generateDataset(join(dataDir, "skrining.db"), shape);

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

    log("ceiling");
    const ceilingPort = await freePort();
    const ceilingChild = Bun.spawn([process.execPath, join(import.meta.dir, "ceiling.ts"), String(ceilingPort)], { stdin: "ignore", stdout: "ignore", stderr: "inherit" });
    children.push(ceilingChild);
    const ceilingBase = `http://127.0.0.1:${ceilingPort}`;
    await waitForHttp(ceilingBase, ceilingChild, performance.now());
    const ceiling = await runLoad({ url: `${ceilingBase}/`, method: "GET", headers: {}, ...standard });
    await stopChild(ceilingChild);

    log("service under load");
    const server = await startServer(dataDir, env, join(workDir, "server.log"));
    children.push(server.child);
    const pid = server.child.pid;
    const [studentToken, lecturerToken, largeLecturerToken, adminToken] = await Promise.all([
      login(server.base, dataset.student.username),
      login(server.base, dataset.typicalLecturer.username),
      login(server.base, dataset.largeLecturer.username),
      login(server.base, dataset.admin.username),
    ]);

    const endpointProbes: (Probe & { target: number })[] = [
      { name: "`GET /api/auth/me`", path: "/api/auth/me", token: studentToken, target: 0.5 },
      { name: "`GET /api/mahasiswa/hasil/<nim>`", path: `/api/mahasiswa/hasil/${dataset.student.nim}`, token: studentToken, target: 0.5 },
      { name: `\`GET /api/dosen/mahasiswa\` (${dataset.typicalLecturer.advisees} advisees)`, path: "/api/dosen/mahasiswa", token: lecturerToken, target: 0.4 },
      { name: `\`GET /api/dosen/statistik\` (${dataset.typicalLecturer.advisees} advisees)`, path: "/api/dosen/statistik", token: lecturerToken, target: 0.4 },
      {
        name: "`POST /api/mahasiswa/kuesioner` (admin)",
        path: "/api/mahasiswa/kuesioner",
        token: adminToken,
        method: "POST",
        body: questionnaireBody(dataset.questionnaireNim),
        target: 0.25,
      },
    ];
    const largeProbes: Probe[] = [
      { name: "`GET /api/dosen/statistik`", path: "/api/dosen/statistik", token: largeLecturerToken },
      { name: "`GET /api/dosen/mahasiswa` (page 1 of 20 by NIM)", path: "/api/dosen/mahasiswa", token: largeLecturerToken },
      { name: "`GET /api/dosen/mahasiswa?sort=risk` (page 1)", path: "/api/dosen/mahasiswa?sort=risk", token: largeLecturerToken },
    ];
    const submissionsFrom = new Date().toISOString();
    for (const probe of [...endpointProbes, ...largeProbes]) await checkProbe(server.base, probe);
    await Bun.sleep(1000);
    const idleMiB = residentMiB(pid);

    const endpoints: EndpointResult[] = [];
    const large: LargeResult[] = [];
    // Before the submissions run: its writes leave a WAL that the next commits checkpoint into
    // the large database, and only the advisor's runs commit (their rows), so after it they
    // would pay for the submissions as well as for the trail.
    log("audit cost: the student's own read against the advisor's, the advisor's going through the advisees, an admin's going through many students");
    const resultPath = (nim: string) => `/api/mahasiswa/hasil/${nim}`;
    const auditCost = await measureAuditCost({
      base: server.base,
      path: resultPath(dataset.student.nim),
      adviseePaths: studentsWithScreenings(join(dataDir, "skrining.db"), { nip: dataset.typicalLecturer.nip }).map(resultPath),
      studentPaths: studentsWithScreenings(join(dataDir, "skrining.db"), { limit: auditStudents }).map(resultPath),
      ownToken: studentToken,
      advisorToken: lecturerToken,
      adminToken,
      rounds: 3,
      shape: { ...standard, durationSeconds: 5 },
    });
    for (const probe of endpointProbes) {
      log(`load: ${probe.name}`);
      const { result: load, peakMiB } = await withPeakResident(pid, () => runLoad(loadSpec(server.base, probe, standard)));
      endpoints.push({ name: probe.name, load, ratio: load.requestsPerSecond / ceiling.requestsPerSecond, target: probe.target, peakMiB });
    }
    log(`a class of ${dataset.classNims.length} submitting within ${classWindowSeconds} s`);
    const classTokens: string[] = [];
    // bcrypt bounds the logins; a few at a time keeps the server's thread pool busy without a queue.
    for (let first = 0; first < dataset.classNims.length; first += 8) {
      classTokens.push(...(await Promise.all(dataset.classNims.slice(first, first + 8).map((nim) => login(server.base, nim)))));
    }
    const classRun = await measureClassSubmissions({ base: server.base, tokens: classTokens, body: questionnaireBody(), windowSeconds: classWindowSeconds });
    for (const probe of largeProbes) {
      for (const connections of [1, 32]) {
        log(`load (large dataset): ${probe.name}, ${connections} connection(s)`);
        // The single-connection run warms the query up for the 32-connection one.
        const run = { connections, warmupSeconds: connections === 1 ? 1 : 0, durationSeconds: connections === 1 ? 5 : 8, timeoutSeconds: 60 };
        const { result: load, peakMiB } = await withPeakResident(pid, () => runLoad(loadSpec(server.base, probe, run)));
        large.push({ name: probe.name, load, peakMiB });
      }
    }
    // The runs above answer from the lecturer routes' read cache after the first request;
    // the growth table is of answers computed afresh, at this size and two smaller ones.
    log("lecturer pages computed afresh");
    const growth: GrowthRun[] = [
      {
        students: shape.students,
        screenings: shape.screenings,
        advisees: dataset.largeLecturer.advisees,
        pages: await measureLecturerPages({ ...pagesOptions(dataset, dataDir, workDir), base: server.base, lecturerToken: largeLecturerToken, adminToken }),
      },
    ];
    const peakRun = [...endpoints, ...large].reduce((highest, entry) => (entry.peakMiB > highest.peakMiB ? entry : highest));
    const peakMiB = peakRun.peakMiB;
    await stopChild(server.child);
    const classified = classifiedSubmissions(join(dataDir, "skrining.db"), dataset.questionnaireNim, submissionsFrom);
    const auditRows = viewRowsOf(join(dataDir, "skrining.db"), "GET /api/mahasiswa/hasil/:nim");

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
      const pages = await measureLecturerPages({ ...pagesOptions(growthData, growthDir, workDir), base: growthServer.base, lecturerToken: growthLecturer, adminToken: growthAdmin });
      await stopChild(growthServer.child);
      growth.unshift({ students: growthShape.students, screenings: growthShape.screenings, advisees: growthData.largeLecturer.advisees, pages });
    }

    const importRatio = imported.accountsPerSecond / bcryptLimit;
    const rate = (requestsPerSecond: number) => Math.round(requestsPerSecond).toLocaleString("en-US");
    const figures: Figure[] = [
      { name: `bcrypt limit (cost ${bcryptCost}, ${cores} hashes in flight)`, value: `${bcryptLimit.toFixed(1)} hashes/s` },
      {
        name: `bcrypt limit of the fallback, bcryptjs (cost ${bcryptCost}, ${cores} hashes in flight)`,
        value: `${fallbackLimit.toFixed(1)} hashes/s = ${(fallbackLimit / bcryptLimit).toFixed(2)} × native`,
      },
      {
        name: `one sign-in's password check, one at a time (cost ${bcryptCost}, median of ${bcryptCheckRounds})`,
        value: `native ${Math.round(checkMilliseconds.native)} ms, bcryptjs ${Math.round(checkMilliseconds.javascript)} ms`,
      },
      {
        name: `\`accounts import\` of ${imported.accounts} new accounts (whole CLI process)`,
        value: `${imported.accountsPerSecond.toFixed(1)} accounts/s (${(imported.milliseconds / 1000).toFixed(2)} s) = ${importRatio.toFixed(2)} × bcrypt limit`,
      },
      {
        name: "`model add` of model_chain_final.joblib (700 KB, whole CLI process)",
        value: model.modelAddMilliseconds === null ? "–" : `${Math.round(model.modelAddMilliseconds)} ms`,
      },
      {
        name: "one prediction as a submission makes it (100-tree ClassifierChain, both outputs; profile features to row, then the trees; in process, median of 5 rounds of 2,000 rows)",
        value: model.predictionMicroseconds === null ? "–" : `${model.predictionMicroseconds.toFixed(1)} µs`,
        target: "< 50 µs",
        met: model.predictionMicroseconds !== null && model.predictionMicroseconds < 50,
      },
      ...modelKindFigures(modelKinds),
      {
        name: "`model predict`, one row of a 2,000-row CSV (parsing and writing the CSV included; process start and model load cancelled)",
        value: model.batchRowMicroseconds === null ? "–" : `${model.batchRowMicroseconds.toFixed(1)} µs`,
      },
      {
        name: `cold start, empty data folder → first answer (median of ${coldStartRuns})`,
        value: `${coldStart.firstStartMs.toFixed(0)} ms`,
        target: `< ${coldStartTargetMs} ms`,
        met: coldStart.firstStartMs < coldStartTargetMs,
      },
      { name: `cold start, existing data folder → first answer (median of ${coldStartRuns})`, value: `${coldStart.restartMs.toFixed(0)} ms`, target: `< ${coldStartTargetMs} ms`, met: coldStart.restartMs < coldStartTargetMs },
      { name: "questionnaire submissions of the run classified by the active models", value: `${classified.byModel.toLocaleString("en-US")} of ${classified.total.toLocaleString("en-US")}` },
      { name: "resident memory, idle (large dataset loaded, a few requests served)", value: `${idleMiB.toFixed(1)} MiB` },
      {
        name: `resident memory, peak under the load runs above (during ${peakRun.name}, ${peakRun.load.connections} connection(s))`,
        value: `${peakMiB.toFixed(1)} MiB = ${(peakMiB * 1.048576).toFixed(1)} MB`,
        target: "< 150 MB",
        met: peakMiB * 1.048576 < 150,
      },
      ...growth.at(-1)!.pages.slice(0, 3).map(
        (page): Figure => ({
          name: `${page.name}, ${dataset.largeLecturer.advisees.toLocaleString("en-US")} advisees, computed afresh after a write (median of ${growthRounds}; fastest ${page.fastestMs.toFixed(1)} ms, slowest ${page.slowestMs.toFixed(1)} ms)`,
          value: `${page.medianMs.toFixed(1)} ms`,
          target: "< 50 ms",
          met: page.medianMs < 50,
        }),
      ),
      {
        name: `a class of ${classRun.students} students submitting once each within ${classRun.windowSeconds} s (own tokens, seeded arrival times): latency p50 / p99 / max`,
        value: `${classRun.latencyMs.p50.toFixed(1)} / ${classRun.latencyMs.p99.toFixed(1)} / ${classRun.latencyMs.max.toFixed(1)} ms`,
      },
      {
        name: `audit: \`GET /api/mahasiswa/hasil/<nim>\` read by the advisor (a \`view\` row; repeats while it waits counted in it) ÷ by the student (no row), the median of ${auditCost.runs.own.length} alternating rounds`,
        value: `${auditCost.ratio.toFixed(2)} (${rate(auditCost.advisor)} ÷ ${rate(auditCost.own)} req/s)`,
        target: "≥ 0.90",
        met: auditCost.ratio >= 0.9 && auditCost.problems.length === 0,
      },
      {
        name: `audit: the same route, the advisor reading each of ${auditCost.adviseePaths} advisees in turn ÷ the student's own read`,
        value: `${auditCost.adviseesRatio.toFixed(2)} (${rate(auditCost.advisees)} req/s)`,
      },
      {
        name: `audit: the same route, an admin reading ${auditCost.studentPaths.toLocaleString("en-US")} students in turn (every read a row of its own, its answer rarely cached) ÷ the student's own read`,
        value: `${auditCost.everyStudentRatio.toFixed(2)} (${rate(auditCost.everyStudent)} req/s)`,
      },
      {
        name: "audit: reads of the route by others in the audit runs, and the rows that hold them",
        value: `${auditRows.reads.toLocaleString("en-US")} reads in ${auditRows.rows.toLocaleString("en-US")} rows`,
      },
      { name: `dataset generation (${shape.students.toLocaleString("en-US")} students, ${shape.screenings.toLocaleString("en-US")} screenings)`, value: `${dataset.seconds.toFixed(1)} s` },
    ];
    const notes: string[] = [];
    if (model.note) notes.push(`model: ${model.note}`);
    if (classified.byModel < classified.total) {
      notes.push(`${classified.total - classified.byModel} questionnaire submissions were classified by the threshold fallback, not by a model`);
    }
    for (const entry of [...endpoints, ...large]) {
      const problem = problems(entry.load);
      if (problem) notes.push(`${entry.name}, ${entry.load.connections} connection(s): ${problem}`);
    }
    for (const problem of auditCost.problems) notes.push(`audit cost: ${problem}`);
    for (const [status, count] of Object.entries(classRun.failures)) notes.push(`class submissions: ${count} answered ${status}, not 201`);
    if (scale !== 1) notes.push(`SKRINING_BENCH_SCALE=${scale}: a reduced dataset, not the figures of the issue`);

    const largeCaption = `lecturer with ${dataset.largeLecturer.advisees.toLocaleString("en-US")} advisees (of ${shape.students.toLocaleString("en-US")} students, ${shape.screenings.toLocaleString("en-US")} screenings)`;
    const cpuAtEnd = cpuTimes();
    const noise = { loadAverageAtStart, stealPercent: (100 * (cpuAtEnd.steal - cpuAtStart.steal)) / Math.max(1, cpuAtEnd.total - cpuAtStart.total) };
    const table = markdown({ machine, noise, ceiling, endpoints, large, largeCaption, growth, figures, notes });
    const totalSeconds = (performance.now() - benchStarted) / 1000;

    const results = {
      generatedAt: new Date().toISOString(),
      totalSeconds,
      build,
      machine,
      noise,
      dataset: { ...dataset.shape, generationSeconds: dataset.seconds, scale },
      ceiling,
      endpoints: endpoints.map(({ name, load, ratio, target, peakMiB }) => ({
        name,
        ...load,
        ratioToCeiling: ratio,
        target,
        met: ratio >= target && problems(load) === "",
        peakResidentMiB: peakMiB,
      })),
      largeDataset: { lecturerAdvisees: dataset.largeLecturer.advisees, runs: large.map(({ name, load, peakMiB }) => ({ name, ...load, peakResidentMiB: peakMiB })) },
      accounts: {
        bcryptCost,
        bcryptHashesPerSecond: bcryptLimit,
        cores,
        import: imported,
        ratioToBcryptLimit: importRatio,
        fallback: { implementation: "bcryptjs", hashesPerSecond: fallbackLimit, ratioToNative: fallbackLimit / bcryptLimit },
        checkMilliseconds,
      },
      model: { ...model, kinds: modelKinds, submissionsClassifiedByModel: classified.byModel, submissions: classified.total },
      coldStart: { ...coldStart, targetMs: coldStartTargetMs },
      classSubmissions: classRun,
      growth,
      audit: { ...auditCost, viewRows: auditRows, targetRatio: 0.9 },
      memory: { idleMiB, peakUnderLoadMiB: peakMiB, peakDuring: `${peakRun.name}, ${peakRun.load.connections} connection(s)`, targetMB: 150 },
      notes,
    };
    const resultsDir = join(import.meta.dir, "results");
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(join(resultsDir, "latest.json"), JSON.stringify(results, null, 2) + "\n");
    const runDate = `${results.generatedAt.slice(0, 16).replace("T", " ")} UTC`;
    writeFileSync(join(resultsDir, "latest.md"), `# skrining benchmark, run of ${runDate}\n\n${table}\n`);
    writeFileSync(
      join(resultsDir, "latest.svg"),
      throughputChart({
        ceilingRequestsPerSecond: ceiling.requestsPerSecond,
        routes: endpoints.map(({ name, load, target }) => ({ name, requestsPerSecond: load.requestsPerSecond, target, problems: problems(load) })),
        subtitle: `Run of ${runDate}, ${standard.connections} connections per route, ${machine.cores} cores (machine details in latest.md)`,
      }),
    );
    console.log(table);
    log(`done in ${totalSeconds.toFixed(0)} s; wrote bench/results/latest.json, latest.md and latest.svg`);
  } catch (error) {
    const serverLog = join(workDir, "server.log");
    if (existsSync(serverLog)) console.error(`server log:\n${readFileSync(serverLog, "utf8").slice(-4000)}`);
    throw error;
  } finally {
    for (const child of children) await stopChild(child);
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
