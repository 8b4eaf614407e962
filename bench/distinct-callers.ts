// What users meet beside the repeated request that caches best: many lecturers, each with
// their own token, asking for their own lists (every page) and statistics; and students
// submitting the questionnaire, each request another student with their own token and answers.
import { generator, questionnaireBodies } from "./dataset";
import { studentsFreeToSubmit } from "./database-facts";
import { runLoad, type LoadResult, type Rotation } from "./load";
import { loginAll, type RunShape } from "./service";

/** A seeded shuffle (Fisher–Yates): the same order every run. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = generator(seed);
  const result = [...items];
  for (let index = result.length - 1; index > 0; index--) {
    const other = Math.floor(random.next() * (index + 1));
    [result[index], result[other]] = [result[other]!, result[index]!];
  }
  return result;
}

/**
 * Every lecturer's pages of their student list (`pages` of 20) and their statistics, each
 * with the lecturer's own token, in a seeded shuffled order: consecutive requests are other
 * lecturers' and other pages.
 */
export function lecturerRotations(tokens: readonly string[], pages: number): { lists: Rotation; statistics: Rotation } {
  const lists = tokens.flatMap((token) => Array.from({ length: pages }, (_, page) => ({ path: `/api/dosen/mahasiswa?page=${page + 1}`, token })));
  const statistics = tokens.map((token) => ({ path: "/api/dosen/statistik", token }));
  return { lists: { entries: shuffled(lists, 60), share: "rotate" }, statistics: { entries: shuffled(statistics, 61), share: "rotate" } };
}

export interface StudentSubmissions {
  /** Students free to submit when the run began, and how many of them were logged in and asked. */
  freeToSubmit: number;
  students: number;
  loginSeconds: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** True when there were too few students free to submit for the standard seconds. */
  shortened: boolean;
  /** The rate the number of students was sized for (the admin's, with a margin). */
  sizedForRequestsPerSecond: number;
  load: LoadResult;
}

/** Students asked per second expected: the admin's rate of the same route times this, so that the list does not run out. */
const margin = 1.5;

/**
 * Questionnaire submissions at the run's connections, every request another student's:
 * each student may submit once in 7 days (the interface; admins are exempt, students are
 * not, and the service has no setting for it), so the run takes as many students free to
 * submit as it needs, logs each in for their own token, and asks each once (a `once`
 * rotation; the warm-up has students of its own). With too few students (a reduced
 * dataset, or a service faster than the sizing), the run is shortened to what they allow;
 * a student asked twice would be refused, and the refusal counted against the run.
 */
export async function measureStudentSubmissions(options: {
  base: string;
  databasePath: string;
  shape: RunShape;
  /** The admin's submissions per second in this run: what the students needed are sized for. */
  expectedRequestsPerSecond: number;
}): Promise<StudentSubmissions> {
  const { shape } = options;
  // An hour more than the rule's 7 days: the server's clock moves on during the run.
  const since = new Date(Date.now() - (7 * 24 + 1) * 3600 * 1000).toISOString();
  const free = shuffled(studentsFreeToSubmit(options.databasePath, since), 62);
  const rate = Math.max(1, options.expectedRequestsPerSecond) * margin;
  const standardSeconds = shape.warmupSeconds + shape.durationSeconds;
  let warmupSeconds = shape.warmupSeconds;
  let durationSeconds = shape.durationSeconds;
  if (free.length < rate * standardSeconds) {
    const seconds = Math.floor(free.length / rate);
    warmupSeconds = seconds >= 2 ? Math.max(1, Math.round((seconds * shape.warmupSeconds) / standardSeconds)) : 0;
    durationSeconds = Math.max(1, seconds - warmupSeconds);
  }
  const students = free.slice(0, Math.min(free.length, Math.ceil(rate * (warmupSeconds + durationSeconds))));
  if (students.length < shape.connections * 2) throw new Error(`only ${students.length} students are free to submit a questionnaire`);

  const loginStarted = performance.now();
  const tokens = await loginAll(options.base, students, 64);
  const loginSeconds = (performance.now() - loginStarted) / 1000;
  const bodies = questionnaireBodies(256);
  const entries = tokens.map((token, index) => ({ path: "/api/mahasiswa/kuesioner", token, body: bodies[index % bodies.length]! }));
  const warmupEntries = Math.floor((entries.length * warmupSeconds) / (warmupSeconds + durationSeconds));
  const spec = { url: `${options.base}/api/mahasiswa/kuesioner`, method: "POST" as const, headers: {}, connections: shape.connections, timeoutSeconds: shape.timeoutSeconds, warmupSeconds: 0 };
  if (warmupSeconds > 0) await runLoad({ ...spec, durationSeconds: warmupSeconds, rotation: { entries: entries.slice(0, warmupEntries), share: "once" } });
  const load = await runLoad({ ...spec, durationSeconds, rotation: { entries: entries.slice(warmupEntries), share: "once" } });
  return {
    freeToSubmit: free.length,
    students: students.length,
    loginSeconds,
    warmupSeconds,
    durationSeconds,
    shortened: durationSeconds < shape.durationSeconds,
    sizedForRequestsPerSecond: rate,
    load,
  };
}
