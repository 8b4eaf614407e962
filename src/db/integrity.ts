import type { Logger } from "../logger";
import { StorageError, asStorageError, type StorageHealth } from "./storage";

// `serve` checks its database with SQLite's quick_check once the port listens (decisions:
// Storage faults), on a thread and a connection of its own, so that neither the first
// answer nor any request waits for a check that reads the whole file.

/** What the worker (integrity-worker.ts) answers: quick_check's lines, or why it could not run. */
export type IntegrityReply = { messages: string[] } | { error: string; code?: string };

/** quick_check's or integrity_check's lines as problems: none when the only line is `ok`. */
export function integrityProblems(messages: readonly string[]): string[] {
  return messages.length === 1 && messages[0] === "ok" ? [] : [...messages];
}

/**
 * The worker's code: beside this file when run from source; in an executable, where the
 * build embeds it as an entry point, under its path from the repository's root.
 */
const workerEntry = Bun.isStandaloneExecutable ? "./src/db/integrity-worker.ts" : new URL("./integrity-worker.ts", import.meta.url);

/**
 * quick_check of the database at `path` on a worker thread: the problems it found (none:
 * an empty list), or a rejection carrying SQLite's code when it could not run (a file
 * that is no database rejects with SQLITE_NOTADB). `stop` ends it early; the worker never
 * keeps the process alive.
 */
export function checkInBackground(path: string, entry: string | URL = workerEntry): { problems: Promise<string[]>; stop(): void } {
  const worker = new Worker(entry);
  worker.unref();
  const problems = new Promise<string[]>((resolve, reject) => {
    worker.onmessage = ({ data: reply }: MessageEvent<IntegrityReply>) => {
      worker.terminate();
      if ("messages" in reply) resolve(integrityProblems(reply.messages));
      else reject(Object.assign(new Error(reply.error), reply.code === undefined ? {} : { code: reply.code }));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(`pekerja pemeriksaan: ${event.message}`));
    };
  });
  worker.postMessage(path);
  return { problems, stop: () => worker.terminate() };
}

/** What clients meet once damage was found, for the admin's line. */
const heldWrites =
  "Ditemukan oleh pemeriksaan sesudah start: setiap permintaan yang menulis (juga login) dijawab 503 sampai skrining dimulai lagi dengan basis data yang baik; bacaan tetap dijawab.";

/** What the check found: nothing wrong, damage (writes held), or nothing known (it could not run). */
export type IntegrityVerdict = "sound" | "damaged" | "unknown";

/**
 * Checks the database of a server that already listens, and acts on what the check finds:
 * damage holds every write (StorageHealth.holdWrites: 503 with the storage's own text,
 * GET /health degraded, one line for the admin with what to do), while reads go on; a
 * check that could not run for another reason is logged and changes nothing. `done`
 * settles with the verdict (never rejects) once the check has ended and been acted on;
 * after `stop` it never does.
 */
export function checkAfterListening(
  path: string,
  health: StorageHealth,
  logger: Logger,
  check: (path: string) => { problems: Promise<string[]>; stop(): void } = checkInBackground,
): { done: Promise<IntegrityVerdict>; stop(): void } {
  const running = check(path);
  const done = running.problems.then(
    (problems): IntegrityVerdict => {
      if (problems.length === 0) return "sound";
      health.holdWrites(new StorageError("damaged", new Error(problems.slice(0, 3).join("; ")), path), heldWrites);
      return "damaged";
    },
    (error: unknown): IntegrityVerdict => {
      const failure = asStorageError(error, path);
      if (failure instanceof StorageError && failure.problem === "damaged") {
        health.holdWrites(failure, heldWrites);
        return "damaged";
      }
      logger.error(`Pemeriksaan basis data ${path} (quick_check) tidak dapat dijalankan: ${error instanceof Error ? error.message : String(error)}`);
      return "unknown";
    },
  );
  return { done, stop: running.stop };
}
