import { createServer } from "node:net";
import { join } from "node:path";
import { cliEnvironment, repositoryRoot, withUmask } from "./helpers";

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Running {
  child: ReturnType<typeof Bun.spawn>;
  port: number;
  /** Everything printed on stdout so far. */
  stdout: () => string;
  stderr: () => string;
}

/** Every child started, so a test file can kill what it left running. */
export const started: Running[] = [];

function collect(stream: ReadableStream<Uint8Array>): () => string {
  let text = "";
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  })();
  return () => text;
}

/** Starts `skrining serve` as a child process and waits until it answers HTTP and has printed its URL. */
export async function startServer(options: { dataDir?: string; env?: Record<string, string>; port?: number; umask?: string; serveOptions?: string[] }): Promise<Running> {
  const port = options.port ?? (await freePort());
  const dataArgs = options.dataDir ? ["--data", options.dataDir] : [];
  const command = [process.execPath, join(repositoryRoot, "cli", "main.ts"), ...dataArgs, "serve", "--host", "127.0.0.1", "--port", String(port), ...(options.serveOptions ?? [])];
  const child = Bun.spawn(withUmask(command, options.umask), {
    cwd: repositoryRoot,
    env: cliEnvironment(options.env),
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

export async function stop(running: Running, signal: "SIGTERM" | "SIGINT" = "SIGTERM"): Promise<number> {
  running.child.kill(signal);
  const timeout = Bun.sleep(10_000).then(() => "timeout" as const);
  const result = await Promise.race([running.child.exited, timeout]);
  if (result === "timeout") throw new Error(`server did not stop on ${signal}`);
  // Let the last output drain.
  await Bun.sleep(50);
  return result;
}
