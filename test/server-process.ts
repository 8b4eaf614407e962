import { createServer } from "node:net";
import { join } from "node:path";
import { cliEnvironment, repositoryRoot, startCli, withUmask } from "./helpers";

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

/** A running `skrining serve`: a child process (startServer) or the program in this process (serveInProcess). */
export interface Running {
  port: number;
  /** Everything printed on stdout so far. */
  stdout: () => string;
  stderr: () => string;
  /** The exit code once it has ended, else null. */
  exitCode: () => number | null;
  /** Asks it to stop: a signal to a child; to the program in this process, its output closing (the only way it has). */
  requestStop: (signal: "SIGTERM" | "SIGINT") => void;
  /** Resolves with the exit code once it has ended. */
  exited: Promise<number>;
  /** Ends it at once, for a test that failed half way. */
  kill: () => void;
}

/** A server started as a child process. */
export interface ServerProcess extends Running {
  child: ReturnType<typeof Bun.spawn>;
}

/** Every child started, so that a test file can end what it left running (stopStarted). */
export const started: ServerProcess[] = [];
/** Every server run in this process, likewise. */
const startedInProcess: Running[] = [];

function collect(stream: ReadableStream<Uint8Array>): () => string {
  let text = "";
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  })();
  return () => text;
}

export interface ServeOptions {
  dataDir?: string;
  env?: Record<string, string>;
  port?: number;
  serveOptions?: string[];
  /** In this process only: standard output is a terminal (the first admin's generated password is shown there). */
  terminal?: boolean;
}

const serveArgs = (options: ServeOptions, port: number) => [
  ...(options.dataDir ? ["--data", options.dataDir] : []),
  "serve",
  "--host",
  "127.0.0.1",
  "--port",
  String(port),
  ...(options.serveOptions ?? []),
];

/**
 * Starts `skrining serve` as a child process and waits until it answers HTTP and has printed
 * its URL: for the tests whose subject is the process (its signals, its umask, its pipes,
 * its exit code).
 */
export async function startServer(options: ServeOptions & { umask?: string }): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const command = [process.execPath, join(repositoryRoot, "cli", "main.ts"), ...serveArgs(options, port)];
  const child = Bun.spawn(withUmask(command, options.umask), {
    cwd: repositoryRoot,
    env: cliEnvironment(options.env),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const running: ServerProcess = {
    child,
    port,
    stdout: collect(child.stdout as ReadableStream<Uint8Array>),
    stderr: collect(child.stderr as ReadableStream<Uint8Array>),
    exitCode: () => child.exitCode,
    requestStop: (signal) => child.kill(signal),
    exited: child.exited,
    kill: () => child.kill("SIGKILL"),
  };
  started.push(running);
  return await ready(running);
}

/**
 * Runs `skrining serve` in this process on a real port (the program's run() with captured
 * streams) and waits as startServer does: the same server, banner and files without the
 * start-up of a process, for the tests whose subject is what the server does. It is
 * stopped as when the reader of its output goes away.
 */
export async function serveInProcess(options: ServeOptions): Promise<Running> {
  return await ready(await launchInProcess(options));
}

/** serveInProcess without waiting for it: for a test that watches the start itself. */
export async function launchInProcess(options: ServeOptions): Promise<Running> {
  const port = options.port ?? (await freePort());
  let closeOutput: (() => void) | undefined;
  const program = startCli(serveArgs(options, port), { env: options.env, outputIsTerminal: options.terminal, onOutputClosed: (stop) => void (closeOutput = stop) });
  let exitCode: number | null = null;
  const exited = program.exited.then((code) => (exitCode = code));
  const stop = () => {
    if (!closeOutput) throw new Error("serve did not say how to stop it");
    closeOutput();
  };
  const running: Running = { port, stdout: program.stdout, stderr: program.stderr, exitCode: () => exitCode, requestStop: stop, exited, kill: stop };
  startedInProcess.push(running);
  return running;
}

/** Waits until the server answers HTTP and has printed its URL. */
async function ready<Server extends Running>(running: Server): Promise<Server> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (running.exitCode() !== null) throw new Error(`server exited early (${running.exitCode()}): ${running.stderr()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${running.port}/api/auth/me`);
      await response.arrayBuffer();
      if (running.stdout().includes(`:${running.port}`)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer or print its URL (port ${running.port}): ${running.stdout()} ${running.stderr()}`);
    await Bun.sleep(25);
  }
  return running;
}

/** Stops a server (SIGTERM or SIGINT for a child process) and returns its exit code. */
export async function stop(running: Running, signal: "SIGTERM" | "SIGINT" = "SIGTERM"): Promise<number> {
  running.requestStop(signal);
  const timeout = Bun.sleep(10_000).then(() => "timeout" as const);
  const result = await Promise.race([running.exited, timeout]);
  if (result === "timeout") throw new Error(`server did not stop on ${signal}`);
  // Let the last output drain.
  await Bun.sleep(50);
  return result;
}

/** Ends every server a test of this file left running (for afterEach). */
export async function stopStarted(): Promise<void> {
  for (const running of [...started.splice(0), ...startedInProcess.splice(0)]) {
    if (running.exitCode() !== null) continue;
    running.kill();
    await Promise.race([running.exited, Bun.sleep(10_000)]);
  }
}
