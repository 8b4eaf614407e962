import { afterEach, describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import packageJson from "../../package.json";
import { repositoryRoot, runCli, temporaryDir, testEnvironment } from "../helpers";

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Running {
  child: ReturnType<typeof Bun.spawn>;
  port: number;
  /** Everything printed on stdout so far. */
  stdout: () => string;
  stderr: () => string;
}

const started: Running[] = [];

function collect(stream: ReadableStream<Uint8Array>): () => string {
  let text = "";
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  })();
  return () => text;
}

/** Starts `skrining serve` as a child process and waits until it answers HTTP and has printed its URL. */
async function startServer(options: { dataDir?: string; env?: Record<string, string> }): Promise<Running> {
  const port = await freePort();
  const environment: Record<string, string | undefined> = { ...process.env, ...testEnvironment, ...options.env };
  if (!options.env?.SKRINING_ADMIN_PASSWORD) delete environment.SKRINING_ADMIN_PASSWORD;
  if (!options.env?.SKRINING_DATA) delete environment.SKRINING_DATA;
  const dataArgs = options.dataDir ? ["--data", options.dataDir] : [];
  const child = Bun.spawn([process.execPath, join(repositoryRoot, "cli", "main.ts"), ...dataArgs, "serve", "--host", "127.0.0.1", "--port", String(port)], {
    cwd: repositoryRoot,
    env: environment,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const running: Running = { child, port, stdout: collect(child.stdout as ReadableStream<Uint8Array>), stderr: collect(child.stderr as ReadableStream<Uint8Array>) };
  started.push(running);
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}): ${running.stderr()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/auth/me`);
      await response.arrayBuffer();
      if (running.stdout().includes(`:${port}`)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer or print its URL (port ${port}): ${running.stdout()} ${running.stderr()}`);
    await Bun.sleep(100);
  }
  return running;
}

async function stop(running: Running, signal: "SIGTERM" | "SIGINT" = "SIGTERM"): Promise<number> {
  running.child.kill(signal);
  const timeout = Bun.sleep(10_000).then(() => "timeout" as const);
  const result = await Promise.race([running.child.exited, timeout]);
  if (result === "timeout") throw new Error(`server did not stop on ${signal}`);
  // Let the last output drain.
  await Bun.sleep(50);
  return result;
}

async function login(port: number, username: string, password: string) {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

afterEach(() => {
  // Only the children this file started, by their own handle.
  for (const running of started.splice(0)) if (running.child.exitCode === null) running.child.kill("SIGKILL");
});

describe("serve", () => {
  test("first start with SKRINING_ADMIN_PASSWORD: prints its URL, creates admin, lays out the data folder, stops on SIGTERM with 0", async () => {
    const dataDir = temporaryDir();
    const adminPassword = "sandi-admin-dari-env";
    const server = await startServer({ dataDir, env: { SKRINING_ADMIN_PASSWORD: adminPassword } });

    expect(server.stdout()).toContain(`http://127.0.0.1:${server.port}`);
    expect(server.stdout()).not.toContain(adminPassword);

    const answer = await login(server.port, "admin", adminPassword);
    expect(answer.status).toBe(200);
    expect(answer.body.user).toMatchObject({ username: "admin", role: "admin", is_activated: true });
    const me = await fetch(`http://127.0.0.1:${server.port}/api/auth/me`, { headers: { authorization: `Bearer ${answer.body.access_token}` } });
    expect(me.status).toBe(200);
    expect((await login(server.port, "admin", "bukan-sandinya")).status).toBe(401);

    expect(statSync(join(dataDir, "skrining.db")).isFile()).toBe(true);
    expect(statSync(join(dataDir, "photos")).isDirectory()).toBe(true);
    expect(statSync(join(dataDir, "models")).isDirectory()).toBe(true);
    const secret = statSync(join(dataDir, "secret"));
    expect(secret.isFile()).toBe(true);
    expect(secret.mode & 0o777).toBe(0o600);
    expect(secret.size).toBeGreaterThanOrEqual(32);

    expect(await stop(server, "SIGTERM")).toBe(0);
  });

  test("first start without it prints a random admin password once (via SKRINING_DATA); a second start prints none", async () => {
    const dataDir = temporaryDir();
    const first = await startServer({ env: { SKRINING_DATA: dataDir } });
    const output = first.stdout();
    expect(output).toContain(`http://127.0.0.1:${first.port}`);
    const match = /password\W+([A-Za-z0-9_\-+/=]{12,})/i.exec(output);
    expect(match).not.toBeNull();
    const password = match![1]!;
    expect(output.split(password).length - 1).toBe(1);

    expect((await login(first.port, "admin", password)).status).toBe(200);
    expect(await stop(first, "SIGTERM")).toBe(0);
    // The data folder came from SKRINING_DATA.
    expect(statSync(join(dataDir, "skrining.db")).isFile()).toBe(true);

    const second = await startServer({ env: { SKRINING_DATA: dataDir } });
    expect(second.stdout()).toContain(`http://127.0.0.1:${second.port}`);
    expect((await login(second.port, "admin", password)).status).toBe(200);
    expect(await stop(second, "SIGINT")).toBe(0);
    expect(second.stdout()).not.toContain(password);
    expect(second.stdout()).not.toMatch(/password\W+[A-Za-z0-9_\-+/=]{12,}/i);
  });
});

test("--version prints the package.json version", async () => {
  const result = await runCli(["--version"]);
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toBe(`${packageJson.version}\n`);
  expect(result.stderr).toBe("");
});
