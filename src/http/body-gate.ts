// Decisions §21: a request body is read only after the checks that need no body (the
// console's reach, the token, the role), so that a client who may not call a route cannot
// make the server read and hold tens of megabytes first. Elysia parses a body before its
// route's transform and resolve hooks run; the checks that may run earlier are marked
// (`beforeBody`) where they are written, and the body parser runs a route's marked checks
// first (bodyChecks), found on the routes themselves.

const marker = Symbol("a check that needs no body");

/** What a check is given before the body exists: the request alone. */
export interface BodylessContext {
  request: Request;
}

type Check = ((context: BodylessContext) => unknown) & { [marker]?: true };

/** Marks a route hook as a check the body parser may run before it reads the body. */
export function beforeBody<Hook extends (context: BodylessContext) => unknown>(hook: Hook): Hook {
  (hook as Check)[marker] = true;
  return hook;
}

/** A route as Elysia lists it (`app.routes`): the hooks it runs, in order. */
interface ListedRoute {
  method: string;
  path: string;
  hooks: { transform?: unknown; beforeHandle?: unknown };
}

function hookFunctions(hooks: unknown): Check[] {
  const list = Array.isArray(hooks) ? hooks : hooks === undefined ? [] : [hooks];
  return list.map((hook) => (typeof hook === "function" ? hook : (hook as { fn?: unknown }).fn)).filter((fn): fn is Check => typeof fn === "function" && (fn as Check)[marker] === true);
}

/**
 * Each route's marked checks, in the order its hooks run (transform, then resolve), by
 * `METHOD path`: what the body parser runs before reading a body of that route.
 */
export function bodyChecks(routes: readonly ListedRoute[]): Map<string, (context: BodylessContext) => Promise<void>> {
  const checks = new Map<string, (context: BodylessContext) => Promise<void>>();
  for (const route of routes) {
    const marked = [...hookFunctions(route.hooks.transform), ...hookFunctions(route.hooks.beforeHandle)];
    if (marked.length === 0) continue;
    checks.set(`${route.method} ${route.path}`, async (context) => {
      for (const check of marked) await check(context);
    });
  }
  return checks;
}
