// What users meet beside the repeated request that caches best: many lecturers, each with
// their own token, asking for their own lists (every page) and statistics; and students
// submitting the questionnaire, each request another student with their own token and answers.
import { generator, questionnaireBodies } from "./dataset";
import { studentsFreeToSubmit } from "./database-facts";
import { runLoad, type LoadResult, type Rotation } from "./load";
import { loginAll, type RunShape } from "./service";

/** A seeded shuffle (Fisher–Yates): the same order every run. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
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
  /** The measured run that ran out of students (every one asked before its end) and was made again, or null. */
  ranOut: LoadResult | null;
  /** The rates the students were sized for: the warm-up's from the admin's, the measured run's from the warm-up's. */
  sizedForRequestsPerSecond: { warmup: number; measured: number };
  /** The warm-up's own rate (null without a warm-up). */
  warmupRequestsPerSecond: number | null;
  load: LoadResult;
}

/** The warm-up's students are sized for the admin's rate of the same route times this. */
const adminMargin = 1.5;
/** The measured run's are sized for the warm-up's rate times this (at most for the admin's × 1.5). */
const warmupMargin = 2;

/**
 * Whether a `once` run of `students` ran out of them: every student was asked before the
 * run ended, and the requests after that were refused (a student's second questionnaire
 * within 7 days), so its rate is capped by the students, not the server's.
 */
export const ranOutOfStudents = (load: Pick<LoadResult, "ok" | "non2xx" | "connections">, students: number): boolean =>
  load.non2xx > 0 && load.ok + load.connections >= students;

/**
 * Questionnaire submissions at the run's connections, every request another student's:
 * each student may submit once in 7 days (the interface; admins are exempt, students are
 * not, and the service has no setting for it), so the run takes as many students free to
 * submit as it needs, logs each in for their own token, and asks each once (a `once`
 * rotation). Logins are most of this run's time, so the students are logged in twice:
 * for the warm-up as many as the admin's rate allows for, then for the measured run as
 * many as twice the warm-up's rate needs. With too few students (a reduced dataset), the
 * run is shortened to what they allow; a student asked twice would be refused, and the
 * refusal counted against the run. A warm-up on cold pages can run at less than half the
 * measured rate (553 and 646/s against more than 1,100/s in two runs): then the measured
 * run runs out of students, and it is made once more with students not asked yet, as many
 * as its answers a second (refusals included, which come faster) need.
 */
export async function measureStudentSubmissions(options: {
  base: string;
  databasePath: string;
  shape: RunShape;
  /** The admin's submissions per second in this run: what the warm-up's students are sized for. */
  expectedRequestsPerSecond: number;
}): Promise<StudentSubmissions> {
  const { shape } = options;
  // An hour more than the rule's 7 days: the server's clock moves on during the run.
  const since = new Date(Date.now() - (7 * 24 + 1) * 3600 * 1000).toISOString();
  const free = shuffled(studentsFreeToSubmit(options.databasePath, since), 62);
  const firstRate = Math.max(1, options.expectedRequestsPerSecond) * adminMargin;
  const standardSeconds = shape.warmupSeconds + shape.durationSeconds;
  let warmupSeconds = shape.warmupSeconds;
  let durationSeconds = shape.durationSeconds;
  if (free.length < firstRate * standardSeconds) {
    const seconds = Math.floor(free.length / firstRate);
    warmupSeconds = seconds >= 2 ? Math.max(1, Math.round((seconds * shape.warmupSeconds) / standardSeconds)) : 0;
    durationSeconds = Math.max(1, seconds - warmupSeconds);
  }
  if (free.length < shape.connections * 2) throw new Error(`only ${free.length} students are free to submit a questionnaire`);

  const bodies = questionnaireBodies(256);
  let asked = 0;
  let loginSeconds = 0;
  /** The next `count` students, logged in, as requests. */
  const nextStudents = async (count: number) => {
    const first = asked;
    const students = free.slice(first, first + count);
    asked += students.length;
    const started = performance.now();
    const tokens = await loginAll(options.base, students, 64);
    loginSeconds += (performance.now() - started) / 1000;
    return tokens.map((token, index) => ({ path: "/api/mahasiswa/kuesioner", token, body: bodies[(first + index) % bodies.length]! }));
  };
  const spec = { url: `${options.base}/api/mahasiswa/kuesioner`, method: "POST" as const, headers: {}, connections: shape.connections, timeoutSeconds: shape.timeoutSeconds, warmupSeconds: 0 };
  let warmupRate: number | null = null;
  if (warmupSeconds > 0) {
    const entries = await nextStudents(Math.ceil(firstRate * warmupSeconds));
    const warmup = await runLoad({ ...spec, durationSeconds: warmupSeconds, rotation: { entries, share: "once" } });
    warmupRate = warmup.requestsPerSecond;
  }
  let measuredRate = warmupRate === null ? firstRate : Math.min(firstRate, Math.max(1, warmupRate) * warmupMargin);
  const measure = async (rate: number) => {
    const entries = await nextStudents(Math.max(shape.connections * 2, Math.ceil(rate * durationSeconds)));
    // The logins' writes settle before the measured run.
    await Bun.sleep(1000);
    return { students: entries.length, load: await runLoad({ ...spec, durationSeconds, rotation: { entries, share: "once" } }) };
  };
  let measured = await measure(measuredRate);
  let ranOut: LoadResult | null = null;
  if (ranOutOfStudents(measured.load, measured.students) && free.length - asked >= shape.connections * 2) {
    ranOut = measured.load;
    measuredRate = Math.min(firstRate, (ranOut.ok + ranOut.non2xx) / ranOut.seconds);
    measured = await measure(measuredRate);
  }
  return {
    freeToSubmit: free.length,
    students: asked,
    loginSeconds,
    warmupSeconds,
    durationSeconds,
    shortened: durationSeconds < shape.durationSeconds,
    ranOut,
    sizedForRequestsPerSecond: { warmup: firstRate, measured: measuredRate },
    warmupRequestsPerSecond: warmupRate,
    load: measured.load,
  };
}
