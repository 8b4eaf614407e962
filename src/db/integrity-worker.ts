// SQLite's quick_check of the database (src/db/integrity.ts) on a thread of its own: it
// reads the whole file, seconds on a large one, which the server's own thread spends
// answering requests instead. Built into the executables as an entry point of its own
// (scripts/build-executable.ts).
import { Database } from "bun:sqlite";
import type { IntegrityReply } from "./integrity";

declare var self: Worker;

self.onmessage = ({ data: path }: MessageEvent<string>) => {
  let reply: IntegrityReply;
  let sqlite: Database | undefined;
  try {
    // A connection of its own that reads one snapshot and never writes.
    sqlite = new Database(path, { readonly: true, strict: true });
    sqlite.run("PRAGMA busy_timeout = 5000");
    reply = { messages: sqlite.query<Record<string, string>, []>("PRAGMA quick_check").all().map((row) => String(Object.values(row)[0])) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    reply = { error: error instanceof Error ? error.message : String(error), ...(typeof code === "string" ? { code } : {}) };
  } finally {
    sqlite?.close();
  }
  postMessage(reply);
};
