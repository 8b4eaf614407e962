/** What the services (and the query-plan tests: getQuery) call on a drizzle prepared query. */
interface PreparedQuery {
  getQuery(): unknown;
  all(values?: Record<string, unknown>): unknown;
  get(values?: Record<string, unknown>): unknown;
  run(values?: Record<string, unknown>): unknown;
  values(values?: Record<string, unknown>): unknown;
  execute(values?: Record<string, unknown>): unknown;
}

/**
 * A prepared query compiled (drizzle's SQL built, SQLite's statement prepared) when it is
 * first run instead of when its service is made: a start, a CLI command or a test builds
 * every service but runs few of their queries, and the eager way spent a third of a
 * service's making on queries never run. A mistake in one still fails the first test that
 * runs it.
 */
export function preparedOnFirstUse<Query extends PreparedQuery>(prepare: () => Query): Query {
  let prepared: Query | undefined;
  const query = () => (prepared ??= prepare());
  const lazy: PreparedQuery = {
    getQuery: () => query().getQuery(),
    all: (values) => query().all(values),
    get: (values) => query().get(values),
    run: (values) => query().run(values),
    values: (values) => query().values(values),
    execute: (values) => query().execute(values),
  };
  return lazy as Query;
}
