// The service under load on the large data folder: the endpoints, the audit cost, what many
// distinct callers meet, a class submitting, the large lecturer, and its pages computed
// afresh, in that order, with the ceiling sampled between the groups.
import { join } from "node:path";
import { measureAuditCost, type AuditCost } from "./audit";
import type { Anchors } from "./ceiling-samples";
import { measureClassSubmissions, type ClassSubmissions } from "./class-submissions";
import { studentsWithScreenings } from "./database-facts";
import type { Dataset } from "./dataset";
import { lecturerRotations, measureStudentSubmissions, type StudentSubmissions } from "./distinct-callers";
import { measureLecturerPages, type PageCost } from "./lecturer-pages";
import { runLoad, type LoadSpec, type RotationEntry } from "./load";
import { mixedRotation } from "./mixed-load";
import { residentMiB, withPeakResident } from "./processes";
import type { EndpointResult, LargeResult } from "./report";
import { checkProbe, executable, login, loginAll, loadSpec, questionnaireBody, type Probe, type RunShape, type Server } from "./service";

const log = (message: string) => console.error(`[bench] ${message}`);

/** Students reading their own pages in the mixed load, each with their own token. */
const mixedStudents = 400;

/** A request of the endpoint table held to a goal: the least ratio to its anchor. */
type GoalProbe = Probe & { target: number; against: EndpointResult["against"]; chartName: string };

export interface ServiceLoad {
  idleMiB: number;
  /** The endpoint table's rows, in its order. */
  endpoints: EndpointResult[];
  large: LargeResult[];
  audit: AuditCost;
  classRun: ClassSubmissions;
  students: StudentSubmissions;
  /** The large lecturer's pages computed afresh, at this size. */
  pages: PageCost[];
  /** Lecturers asking for their own pages in the distinct runs, and the pages each has. */
  lecturers: { count: number; pages: number };
  /** When the first submission of the run was written (ISO): the run's screenings are the ones from here. */
  submissionsFrom: string;
  /** The mixed load's requests (bench/mixed-load.ts), with the tokens of this server's logins, for a server started afresh. */
  mixed: { rotation: RotationEntry[]; students: number; lecturers: number };
}

export async function measureServiceUnderLoad(options: {
  server: Server;
  dataset: Dataset;
  dataDir: string;
  workDir: string;
  env: Record<string, string | undefined>;
  anchors: Anchors;
  standard: RunShape;
  benchStarted: number;
  auditStudents: number;
  classWindowSeconds: number;
  growthRounds: number;
}): Promise<ServiceLoad> {
  const { server, dataset, standard } = options;
  const databasePath = join(options.dataDir, "skrining.db");
  const pid = server.child.pid;
  const [studentToken, lecturerToken, largeLecturerToken, adminToken] = await Promise.all([
    login(server.base, dataset.student.username),
    login(server.base, dataset.typicalLecturer.username),
    login(server.base, dataset.largeLecturer.username),
    login(server.base, dataset.admin.username),
  ]);
  const groupLecturers = dataset.groupLecturers.map((lecturer) => lecturer.username);
  log(`logging in ${groupLecturers.length} lecturers`);
  const lecturerTokens = await loginAll(server.base, groupLecturers, 64);
  const pages = Math.ceil(dataset.shape.adviseesPerLecturer / 20);
  const rotations = lecturerRotations(lecturerTokens, pages);
  const mixedNims = studentsWithScreenings(databasePath, { limit: mixedStudents });
  log(`logging in ${mixedNims.length} students for the mixed load`);
  const mixedTokens = await loginAll(server.base, mixedNims, 16);
  const mixed = {
    rotation: mixedRotation({ lecturerTokens, pages, students: mixedNims.map((nim, index) => ({ nim, token: mixedTokens[index]! })), adminToken, questionnaireNim: dataset.questionnaireNim }),
    students: mixedNims.length,
    lecturers: lecturerTokens.length,
  };

  const advisees = dataset.typicalLecturer.advisees;
  const probes: [GoalProbe, GoalProbe, GoalProbe, GoalProbe, GoalProbe] = [
    { name: "`GET /api/auth/me` (student)", chartName: "GET /api/auth/me (student)", path: "/api/auth/me", token: studentToken, target: 0.5, against: "ceiling" },
    {
      name: "`GET /api/mahasiswa/hasil/<nim>` (student)",
      chartName: "GET /api/mahasiswa/hasil/<nim> (student)",
      path: `/api/mahasiswa/hasil/${dataset.student.nim}`,
      token: studentToken,
      target: 0.5,
      against: "ceiling",
    },
    {
      name: `\`GET /api/dosen/mahasiswa\` page of 20, ${advisees} advisees (one lecturer, the same page)`,
      chartName: "GET /api/dosen/mahasiswa, one lecturer",
      path: "/api/dosen/mahasiswa",
      token: lecturerToken,
      target: 0.4,
      against: "ceiling",
    },
    { name: `\`GET /api/dosen/statistik\`, ${advisees} advisees (one lecturer)`, chartName: "GET /api/dosen/statistik, one lecturer", path: "/api/dosen/statistik", token: lecturerToken, target: 0.4, against: "ceiling" },
    {
      name: "`POST /api/mahasiswa/kuesioner` (admin, 100-tree model, durable)",
      chartName: "POST /api/mahasiswa/kuesioner, admin",
      path: "/api/mahasiswa/kuesioner",
      token: adminToken,
      method: "POST",
      body: questionnaireBody(dataset.questionnaireNim),
      // Issue 46: what skrining adds to a submission costs no more than the plainest durable server itself.
      target: 0.5,
      against: "durable",
    },
  ];
  const largeProbes: Probe[] = [
    { name: "`GET /api/dosen/statistik`", path: "/api/dosen/statistik", token: largeLecturerToken },
    { name: "`GET /api/dosen/mahasiswa` (page 1 of 20 by NIM)", path: "/api/dosen/mahasiswa", token: largeLecturerToken },
    { name: "`GET /api/dosen/mahasiswa?sort=risk` (page 1)", path: "/api/dosen/mahasiswa?sort=risk", token: largeLecturerToken },
  ];
  const submissionsFrom = new Date().toISOString();
  for (const probe of [...probes, ...largeProbes]) await checkProbe(server.base, probe);
  for (const rotation of [rotations.lists, rotations.statistics]) {
    const first = rotation.entries[0]!;
    await checkProbe(server.base, { name: first.path, path: first.path, token: first.token });
  }
  await Bun.sleep(1000);
  const idleMiB = residentMiB(pid);

  /** One measured run of the endpoint table, with the server's peak memory and when it ran. */
  const measured = async (names: { name: string; chartName: string }, spec: LoadSpec, goal?: { target: number; against: EndpointResult["against"] }): Promise<EndpointResult> => {
    const { result: load, peakMiB } = await withPeakResident(pid, () => runLoad(spec));
    const atSeconds = (performance.now() - options.benchStarted) / 1000 - load.seconds / 2;
    return { ...names, load, target: goal?.target, against: goal?.against ?? "ceiling", peakMiB, atSeconds };
  };

  // Before the submissions runs: their writes leave a WAL that the next commits checkpoint
  // into the large database, and only the advisor's runs commit (their rows), so after them
  // the advisor's runs would pay for the submissions as well as for the trail.
  log("audit cost: the student's own read against the advisor's, the advisor's going through the advisees, an admin's going through many students");
  const resultPath = (nim: string) => `/api/mahasiswa/hasil/${nim}`;
  const audit = await measureAuditCost({
    base: server.base,
    path: resultPath(dataset.student.nim),
    adviseePaths: studentsWithScreenings(databasePath, { nip: dataset.typicalLecturer.nip }).map(resultPath),
    studentPaths: studentsWithScreenings(databasePath, { limit: options.auditStudents }).map(resultPath),
    ownToken: studentToken,
    advisorToken: lecturerToken,
    adminToken,
    rounds: 3,
    shape: { ...standard, durationSeconds: 5 },
  });
  log("anchors, after the audit runs");
  await options.anchors.sample("after the audit runs");

  const endpoints: EndpointResult[] = [];
  const rotationSpec = (path: string, rotation: LoadSpec["rotation"]): LoadSpec => ({ url: `${server.base}${path}`, method: "GET", headers: {}, rotation, ...standard });
  const lecturerCount = lecturerTokens.length.toLocaleString("en-US");
  const runProbe = async (probe: GoalProbe) => {
    log(`load: ${probe.name}`);
    endpoints.push(await measured(probe, loadSpec(server.base, probe, standard), probe));
  };
  const [me, hasil, list, statistik, admin] = probes;
  await runProbe(me);
  await runProbe(hasil);
  await runProbe(list);
  log("load: many lecturers' lists");
  const listNames = {
    name: `\`GET /api/dosen/mahasiswa\` page of 20, ${advisees} advisees: ${lecturerCount} lecturers × pages 1–${pages} in turn, own tokens`,
    chartName: `GET /api/dosen/mahasiswa, ${lecturerCount} lecturers`,
  };
  endpoints.push(await measured(listNames, rotationSpec("/api/dosen/mahasiswa", rotations.lists)));
  await runProbe(statistik);
  log("load: many lecturers' statistics");
  const statistikNames = { name: `\`GET /api/dosen/statistik\`, ${advisees} advisees: ${lecturerCount} lecturers in turn, own tokens`, chartName: `GET /api/dosen/statistik, ${lecturerCount} lecturers` };
  endpoints.push(await measured(statistikNames, rotationSpec("/api/dosen/statistik", rotations.statistics)));
  await runProbe(admin);
  const adminRate = endpoints.at(-1)!.load.requestsPerSecond;
  log("anchors, after the endpoint runs");
  await options.anchors.sample("after the endpoint runs");

  log(`a class of ${dataset.classNims.length} submitting within ${options.classWindowSeconds} s`);
  // A few logins at a time keep the server's bcrypt threads busy without a queue.
  const classTokens = await loginAll(server.base, dataset.classNims, 8);
  const classRun = await measureClassSubmissions({ base: server.base, tokens: classTokens, body: questionnaireBody(), windowSeconds: options.classWindowSeconds });

  const large: LargeResult[] = [];
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
  const lecturerPages = await measureLecturerPages({
    ...pagesOptions(dataset, options.dataDir, options.workDir, options.env, options.growthRounds),
    base: server.base,
    lecturerToken: largeLecturerToken,
    adminToken,
  });

  // Last on this server: it writes a screening for tens of thousands of students, which
  // every run above would otherwise read.
  log("students submitting, each request another student's");
  const { result: students, peakMiB } = await withPeakResident(pid, () => measureStudentSubmissions({ base: server.base, databasePath, shape: standard, expectedRequestsPerSecond: adminRate }));
  log(`  ${students.students} students logged in in ${students.loginSeconds.toFixed(1)} s`);
  endpoints.push({
    name: "`POST /api/mahasiswa/kuesioner`, every request another student's (own token and answers; 100-tree model, durable)",
    chartName: "POST /api/mahasiswa/kuesioner, students",
    against: "durable",
    load: students.load,
    peakMiB,
    atSeconds: (performance.now() - options.benchStarted) / 1000 - students.load.seconds / 2,
  });
  return { idleMiB, endpoints, large, audit, classRun, students, pages: lecturerPages, lecturers: { count: lecturerTokens.length, pages }, submissionsFrom, mixed };
}

/** What the lecturer pages need of a dataset besides the server and its tokens. */
export function pagesOptions(data: Dataset, dataDir: string, workDir: string, env: Record<string, string | undefined>, rounds: number) {
  return { adviseeNim: data.largeLecturer.adviseeNim, nip: data.largeLecturer.nip, cli: [executable], dataDir, workDir, env, rounds };
}
