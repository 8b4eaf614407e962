// The worker thread that writes the audit rows of reads, on its own connection, so that
// hashing and inserting them (and keeping four indexes) costs the server's thread nothing
// but handing the batch over. Its appends are IMMEDIATE transactions like every other
// writer's, so the chain stays one chain whichever connection appends.
import { Database } from "bun:sqlite";
import { appendAuditRows, type AuditEntry } from "./trail";

export type ViewWriterRequest = { type: "open"; databasePath: string } | { type: "rows"; batch: number; rows: AuditEntry[] };
export type ViewWriterAnswer = { type: "written"; batch: number } | { type: "failed"; batch: number; message: string };

declare const self: Worker;

let sqlite: Database | undefined;

self.onmessage = (event: MessageEvent<ViewWriterRequest>) => {
  const request = event.data;
  if (request.type === "open") {
    sqlite = new Database(request.databasePath);
    // The server's own connection retries from timers; this one may simply wait its turn.
    sqlite.run("PRAGMA busy_timeout = 10000");
    sqlite.run("PRAGMA synchronous = FULL");
    return;
  }
  try {
    const connection = sqlite!;
    connection.transaction(() => appendAuditRows(connection, request.rows)).immediate();
    postMessage({ type: "written", batch: request.batch } satisfies ViewWriterAnswer);
  } catch (error) {
    postMessage({ type: "failed", batch: request.batch, message: error instanceof Error ? error.message : String(error) } satisfies ViewWriterAnswer);
  }
};
