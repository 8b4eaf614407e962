// A thread of the bcryptjs fallback (bcrypt.ts): one hash or check at a time, synchronous
// here so that the service's own thread stays free to answer requests. Built into the
// executables as an entry point of its own (package.json "build", scripts/build-windows.ts).
import { compareSync, hashSync } from "bcryptjs";
import type { BcryptTask } from "./bcrypt";

declare var self: Worker;

self.onmessage = ({ data: task }: MessageEvent<BcryptTask>) => {
  try {
    postMessage({ result: task.kind === "hash" ? hashSync(task.password, task.cost) : compareSync(task.password, task.hash) });
  } catch (error) {
    postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
