// The service under test: the compiled executable, built when needed, started on a data
// folder with the bench's environment, and the requests the bench makes of it.
import { existsSync, openSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { benchPassword } from "./dataset";
import type { LoadSpec } from "./load";
import { freePort, runTimed, waitForHttp, type Child } from "./processes";

export const root = join(import.meta.dir, "..");
export const executable = join(root, "dist", "skrining");

const log = (message: string) => console.error(`[bench] ${message}`);

function newestMtime(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stats.mtimeMs);
}

/** `npm run build` when dist/skrining is missing or older than anything it is built from. */
export async function ensureBuilt(): Promise<"rebuilt" | "up to date"> {
  const sources = Math.max(...["src", "cli", "package.json", "package-lock.json"].map((entry) => newestMtime(join(root, entry))));
  if (existsSync(executable) && statSync(executable).mtimeMs >= sources) return "up to date";
  log("building dist/skrining (npm run build)");
  const built = await runTimed(["npm", "run", "build"], { cwd: root });
  if (built.exitCode !== 0) throw new Error(`npm run build failed:\n${built.stdout}${built.stderr}`);
  return "rebuilt";
}

/** The children's environment: this one without any SKRINING_* setting, plus the bench's own. */
export function childEnvironment(): Record<string, string | undefined> {
  const environment: Record<string, string | undefined> = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("SKRINING_")));
  // Every login of the bench comes from one address (every lecturer and tens of thousands
  // of students among them), which the login throttle would otherwise stop at 100 per 15 minutes.
  return { ...environment, SKRINING_LOG: "off", SKRINING_ADMIN_PASSWORD: benchPassword, SKRINING_THROTTLE_ADDRESS: "1000000" };
}

export interface Server {
  child: Child;
  base: string;
  /** Milliseconds from spawn to the first HTTP answer. */
  startedInMs: number;
}

export async function startServer(dataDir: string, env: Record<string, string | undefined>, logPath: string): Promise<Server> {
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

export async function login(base: string, username: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: benchPassword }),
  });
  const body = (await response.json()) as { access_token?: string; error?: string };
  if (!response.ok || !body.access_token) throw new Error(`login ${username}: ${response.status} ${body.error ?? ""}`);
  return body.access_token;
}

/** Logs every account in, `inFlight` at a time; the tokens in the accounts' order. */
export async function loginAll(base: string, usernames: readonly string[], inFlight: number): Promise<string[]> {
  const tokens = new Array<string>(usernames.length);
  let next = 0;
  const lane = async () => {
    while (next < usernames.length) {
      const index = next++;
      tokens[index] = await login(base, usernames[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, usernames.length) }, lane));
  return tokens;
}

/** A request of the bench: checked once for a 2xx answer before it is put under load. */
export interface Probe {
  name: string;
  path: string;
  token: string;
  method?: "GET" | "POST";
  body?: string;
}

export async function checkProbe(base: string, probe: Probe): Promise<void> {
  const response = await fetch(`${base}${probe.path}`, {
    method: probe.method ?? "GET",
    headers: { authorization: `Bearer ${probe.token}`, "content-type": "application/json" },
    body: probe.body,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${probe.name}: ${response.status} ${text.slice(0, 300)}`);
}

export type RunShape = Omit<LoadSpec, "url" | "method" | "headers" | "body" | "rotation">;

export function loadSpec(base: string, probe: Probe, shape: RunShape): LoadSpec {
  const headers: Record<string, string> = { authorization: `Bearer ${probe.token}` };
  if (probe.body !== undefined) headers["content-type"] = "application/json";
  return { url: `${base}${probe.path}`, method: probe.method ?? "GET", headers, body: probe.body, ...shape };
}

/** One full questionnaire, the same answers every time: the forest's cost does not depend on them. A student's own carries no NIM. */
export function questionnaireBody(nim?: string): string {
  const jawaban: Record<string, number> = {};
  for (let item = 1; item <= 40; item++) jawaban[`S${item}`] = 1 + ((item * 7) % 5);
  for (let item = 1; item <= 28; item++) jawaban[`M${item}`] = 1 + ((item * 5) % 7);
  return JSON.stringify(nim === undefined ? { jawaban } : { NIM: nim, jawaban });
}
