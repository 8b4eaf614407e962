import { median } from "./processes";
import { problems } from "./report";
import { runLoad, type LoadResult, type LoadSpec } from "./load";

/**
 * The cost of the audit trail on a read (issue 17: "logging must not slow an authenticated
 * read by more than 10%"): the same route and student, read by the student (their own data:
 * no row) and by the student's advisor (one `view` row per request, written by the write
 * queue without being waited for). The two alternate, `rounds` runs each, so that a drift of
 * the shared machine touches both; the medians are compared.
 *
 * The advisor's read also passes the advisee check (one indexed lookup) that the student's
 * skips, so the ratio is an upper bound of what the row itself costs.
 */
export interface AuditCost {
  path: string;
  ownRequestsPerSecond: number;
  advisorRequestsPerSecond: number;
  /** advisor ÷ own; the goal is at least 0.9. */
  ratio: number;
  runs: { own: LoadResult[]; advisor: LoadResult[] };
  /** Non-2xx answers, errors or timeouts in any run (the figure is then not valid). */
  problems: string[];
}

export async function measureAuditCost(options: {
  base: string;
  path: string;
  ownToken: string;
  advisorToken: string;
  rounds: number;
  shape: Omit<LoadSpec, "url" | "method" | "headers" | "body">;
}): Promise<AuditCost> {
  const spec = (token: string): LoadSpec => ({ url: `${options.base}${options.path}`, method: "GET", headers: { authorization: `Bearer ${token}` }, ...options.shape });
  const runs = { own: [] as LoadResult[], advisor: [] as LoadResult[] };
  for (let round = 0; round < options.rounds; round++) {
    runs.own.push(await runLoad(spec(options.ownToken)));
    runs.advisor.push(await runLoad(spec(options.advisorToken)));
  }
  const own = median(runs.own.map((run) => run.requestsPerSecond));
  const advisor = median(runs.advisor.map((run) => run.requestsPerSecond));
  const found = [...runs.own.map((run) => ["own", run] as const), ...runs.advisor.map((run) => ["advisor", run] as const)]
    .map(([who, run]) => (problems(run) ? `${who}: ${problems(run)}` : ""))
    .filter(Boolean);
  return { path: options.path, ownRequestsPerSecond: own, advisorRequestsPerSecond: advisor, ratio: advisor / own, runs, problems: found };
}
