import type { CommandIo } from "./common";

/** What writing to a pipe whose reader has gone says (`skrining … | head -1`, once head has its line). */
const isClosedPipe = (error: unknown) => (error as { code?: unknown }).code === "EPIPE";

interface Writable {
  write(text: string, written?: (error?: Error | null) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/**
 * Standard output and error for the program, ending it quietly when the reader of its
 * output goes away, as Unix tools do: `skrining audit verify | head -1` exits with 0
 * and no stack trace, so a cron check does not read the closed pipe as a failure. A
 * command finishes what it was doing (a restore still writes its audit row) with nothing
 * more printed, and exits with its own code; a command that runs on (`serve | head`) has
 * registered how it stops, and stops as on SIGTERM. A closed standard error only silences
 * it. Any other write error stays an error.
 */
export function pipeAwareOutput(stdout: Writable = process.stdout, stderr: Writable = process.stderr): Pick<CommandIo, "out" | "err" | "onOutputClosed" | "outputWritten"> {
  let outClosed = false;
  let errClosed = false;
  let stop: (() => void) | null = null;
  stdout.on("error", (error) => {
    if (!isClosedPipe(error)) throw error;
    if (outClosed) return;
    outClosed = true;
    stop?.();
  });
  stderr.on("error", (error) => {
    if (!isClosedPipe(error)) throw error;
    errClosed = true;
  });
  return {
    out: (text) => void (outClosed || stdout.write(text)),
    err: (text) => void (errClosed || stderr.write(text)),
    onOutputClosed: (callback) => {
      stop = callback;
    },
    // A closed pipe's error event comes before the write's callback.
    outputWritten: () => new Promise((resolve) => (outClosed ? resolve(false) : stdout.write("", () => resolve(!outClosed)))),
  };
}
