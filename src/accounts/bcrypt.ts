import { availableParallelism } from "node:os";
import { invalid } from "../errors";

/**
 * The two implementations of bcrypt a process may hash and check passwords with. Both
 * write standard `$2b$` hashes and read `$2a$`, `$2b$` and `$2y$`, so a database written
 * with one works with the other (test/auth/bcrypt-implementations.test.ts).
 *
 * - `native`: the @node-rs/bcrypt addon, which hashes on a thread pool (every core). Its
 *   1.x line, the one that publishes a Windows binary (`npm run build:windows` embeds it).
 * - `javascript`: bcryptjs, pure JavaScript on worker threads (one per core), slower
 *   (docs/operations.md has the figures). It is there so that the service still
 *   starts, creates its first admin and lets people sign in where the addon cannot be
 *   loaded: an executable for a platform whose addon was not embedded, or a runtime that
 *   cannot open the embedded one (Wine; see docs/operations.md, "Windows").
 *
 * The WebAssembly build of the addon (@node-rs/bcrypt-wasm32-wasi) is no fallback here: it
 * needs `node:wasi`'s `initialize()`, which Bun does not have, and worker files beside it.
 */
export type BcryptImplementation = "native" | "javascript";

export interface Bcrypt {
  implementation: BcryptImplementation;
  hash(password: string, cost: number): Promise<string>;
  /** Rejects for a hash it cannot read (a damaged or unknown one). */
  verify(password: string, hash: string): Promise<boolean>;
  /** Why the native addon is not used, when it is not. */
  fallbackReason?: string;
}

/** For tests and diagnosis only: `javascript` makes the process use bcryptjs even where the addon loads. */
export const bcryptSettingName = "SKRINING_BCRYPT";

type NativeAddon = Pick<typeof import("@node-rs/bcrypt"), "hash" | "verify">;

export function nativeBcrypt(addon: NativeAddon): Bcrypt {
  return { implementation: "native", hash: (password, cost) => addon.hash(password, cost), verify: (password, hash) => addon.verify(password, hash) };
}

export type BcryptTask = { kind: "hash"; password: string; cost: number } | { kind: "verify"; password: string; hash: string };
type BcryptReply = { result: string | boolean } | { error: string };

interface Job {
  task: BcryptTask;
  resolve: (result: string | boolean) => void;
  reject: (error: Error) => void;
}

/**
 * The worker's code: beside this file when run from source; in an executable, where the
 * build embeds it as an entry point, under its path from the entry points' common folder
 * (the repository's root: package.json "build", scripts/build-windows.ts).
 */
const workerEntry = Bun.isStandaloneExecutable ? "./src/accounts/bcrypt-worker.ts" : new URL("./bcrypt-worker.ts", import.meta.url);

/**
 * bcryptjs on worker threads, one task per thread at a time, at most one thread per core.
 * On the service's own thread a hash would hold every other request for its duration
 * (bcryptjs yields only every 100 ms, and each hash in flight takes its turn). A worker
 * keeps the process alive only while it has a task, so a command still ends when done.
 */
class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly running = new Map<Worker, Job>();
  private workers = 0;

  constructor(
    private readonly size: number,
    private readonly entry: string | URL,
  ) {}

  run(task: BcryptTask): Promise<string | boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.workers < this.size ? this.start() : undefined);
      if (!worker) return;
      const job = this.queue.shift()!;
      this.running.set(worker, job);
      worker.ref();
      worker.postMessage(job.task);
    }
  }

  private start(): Worker {
    this.workers++;
    const worker = new Worker(this.entry);
    worker.onmessage = ({ data: reply }: MessageEvent<BcryptReply>) => {
      const job = this.finish(worker);
      this.idle.push(worker);
      if ("error" in reply) job?.reject(new Error(reply.error));
      else job?.resolve(reply.result);
      this.dispatch();
    };
    // A thread that failed is replaced by a new one for the next task; its own task fails.
    worker.onerror = (event) => {
      this.finish(worker)?.reject(new Error(`bcryptjs worker: ${event.message}`));
      if (this.idle.includes(worker)) this.idle.splice(this.idle.indexOf(worker), 1);
      this.workers--;
      worker.terminate();
      this.dispatch();
    };
    return worker;
  }

  private finish(worker: Worker): Job | undefined {
    const job = this.running.get(worker);
    this.running.delete(worker);
    worker.unref();
    return job;
  }
}

/** `entry` is the worker's code: tests give a broken one. */
export function javascriptBcrypt(fallbackReason?: string, entry: string | URL = workerEntry): Bcrypt {
  const pool = new WorkerPool(availableParallelism(), entry);
  return {
    implementation: "javascript",
    hash: async (password, cost) => (await pool.run({ kind: "hash", password, cost })) as string,
    verify: async (password, hash) => (await pool.run({ kind: "verify", password, hash })) as boolean,
    ...(fallbackReason === undefined ? {} : { fallbackReason }),
  };
}

/**
 * The loader's own message (its first sentence: the rest is advice for an npm install,
 * which does not apply to an executable) and the innermost cause it nests, which is the
 * operating system's reason (for example "LoadLibrary failed: Module not found.").
 */
function reasonOf(error: unknown): string {
  const firstSentence = (value: unknown) => (value instanceof Error ? value.message : String(value)).split("\n")[0]!.split(/(?<=\.) /)[0]!.trim();
  let innermost = error;
  // The loader ends its chain with `cause: null`.
  for (let depth = 0; depth < 10 && innermost instanceof Error && innermost.cause != null; depth++) innermost = innermost.cause;
  const [outer, inner] = [firstSentence(error), firstSentence(innermost)];
  return inner && inner !== outer ? `${outer} ← ${inner}` : outer || "sebab tidak diketahui";
}

/**
 * The implementation for a process: the addon when it loads, bcryptjs otherwise (or when
 * `setting` is `javascript`). `setting` is the value of SKRINING_BCRYPT; an unknown one
 * is refused rather than guessed.
 */
export async function chooseBcrypt(setting: string | undefined, loadNative: () => Promise<NativeAddon> = () => import("@node-rs/bcrypt")): Promise<Bcrypt> {
  const wanted = setting?.trim() || "auto";
  if (wanted === "javascript") return javascriptBcrypt(`${bcryptSettingName}=javascript`);
  if (wanted !== "auto") throw invalid(`${bcryptSettingName} harus "auto" atau "javascript" (diberikan: ${setting}).`);
  try {
    return nativeBcrypt(await loadNative());
  } catch (error) {
    return javascriptBcrypt(`modul bcrypt untuk ${process.platform}-${process.arch} tidak dapat dimuat: ${reasonOf(error)}`);
  }
}

/** The line the service prints at start: which implementation checks passwords, and when it is the slower one, why. */
export function bcryptStartLine(bcrypt: Bcrypt): string {
  if (bcrypt.implementation === "native") return "Password diperiksa dengan bcrypt native (@node-rs/bcrypt).";
  return (
    `Password diperiksa dengan bcrypt JavaScript (bcryptjs), lebih lambat dari modul native (${bcrypt.fallbackReason ?? "dipilih"}). ` +
    "Hash tetap sama ($2b$); login dan impor akun memakan waktu lebih lama (docs/operations.md, bagian Passwords)."
  );
}
