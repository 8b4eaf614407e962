import { median } from "./processes";
import { problems } from "./report";
import { runLoad, type LoadResult, type LoadSpec } from "./load";

/**
 * The cost of the audit trail on a read (issue 17: "logging must not slow an authenticated
 * read by more than 10%"). The goal's measure: the same route and student, read by the
 * student (their own data: no row) and by the student's advisor (a `view` row; repeats
 * while the row waits are counted in it). The advisor's read also passes the advisee check
 * that the student's skips, so the ratio is an upper bound of what the trail costs.
 *
 * Two more runs show reads whose rows cannot all be counted together, against the same
 * baseline: the advisor reading each advisee in turn (a lecturer going through the list),
 * and an admin reading many students in turn, so that every read is a row of its own (and
 * an answer that is rarely in the read cache: these differ from the student's read in more
 * than the trail, and are reported, not held to the goal).
 *
 * Every run requests its paths through wrk's script (a rotation of one path or of a list),
 * so that wrk does the same work in each. The runs alternate, `rounds` each; a ratio is the median of each
 * round's ratio of runs a few seconds apart, since the shared machine drifts by more than
 * the trail costs between rounds.
 */
export interface AuditCost {
  /** Requests per second: the medians of the runs. */
  own: number;
  advisor: number;
  advisees: number;
  everyStudent: number;
  /** How many paths the two rotating runs go through. */
  adviseePaths: number;
  studentPaths: number;
  /** advisor ÷ own, the median of the rounds' ratios: the goal is at least 0.9. */
  ratio: number;
  /** advisees ÷ own and everyStudent ÷ own, the same way. */
  adviseesRatio: number;
  everyStudentRatio: number;
  runs: Record<"own" | "advisor" | "advisees" | "everyStudent", LoadResult[]>;
  /** Non-2xx answers, errors or timeouts in any run (the figure is then not valid). */
  problems: string[];
}

export async function measureAuditCost(options: {
  base: string;
  /** The student's own result, `/api/mahasiswa/hasil/<nim>`. */
  path: string;
  /** The same route for each advisee of the advisor with a screening, and for many students. */
  adviseePaths: readonly string[];
  studentPaths: readonly string[];
  ownToken: string;
  advisorToken: string;
  adminToken: string;
  rounds: number;
  shape: Omit<LoadSpec, "url" | "method" | "headers" | "body" | "rotation">;
}): Promise<AuditCost> {
  const spec = (token: string, paths: readonly string[]): LoadSpec => ({
    url: `${options.base}${options.path}`,
    method: "GET",
    headers: {},
    rotation: { entries: paths.map((path) => ({ path, token })), share: "rotate" },
    ...options.shape,
  });
  const specs = {
    own: spec(options.ownToken, [options.path]),
    advisor: spec(options.advisorToken, [options.path]),
    advisees: spec(options.advisorToken, options.adviseePaths),
    everyStudent: spec(options.adminToken, options.studentPaths),
  };
  const runs: AuditCost["runs"] = { own: [], advisor: [], advisees: [], everyStudent: [] };
  for (let round = 0; round < options.rounds; round++) {
    for (const name of Object.keys(specs) as (keyof typeof specs)[]) runs[name].push(await runLoad(specs[name]));
  }
  const rate = (name: keyof typeof specs) => median(runs[name].map((run) => run.requestsPerSecond));
  const ratio = (name: keyof typeof specs) => median(runs[name].map((run, round) => run.requestsPerSecond / runs.own[round]!.requestsPerSecond));
  const found = Object.entries(runs).flatMap(([name, results]) => results.map((run) => (problems(run) ? `${name}: ${problems(run)}` : "")).filter(Boolean));
  return {
    own: rate("own"),
    advisor: rate("advisor"),
    advisees: rate("advisees"),
    everyStudent: rate("everyStudent"),
    adviseePaths: options.adviseePaths.length,
    studentPaths: options.studentPaths.length,
    ratio: ratio("advisor"),
    adviseesRatio: ratio("advisees"),
    everyStudentRatio: ratio("everyStudent"),
    runs,
    problems: found,
  };
}
