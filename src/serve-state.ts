import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AdminWeb } from "./config";

// What the last `serve` on a data folder was started with, written at each start once it
// listens, so that `skrining doctor` (issue 44) can say which port, which console reach and
// which backups the service has without being told its command line again. It names no
// secret; it is the owner's alone (0600), as everything in the data folder, and no backup
// carries it.

export const serveStateFileName = "serve.json";
const stateFormat = "skrining-serve";

export interface ServeState {
  format: typeof stateFormat;
  /** The serving process, and when it started (UTC). */
  pid: number;
  startedAt: string;
  /** The program that serves (`skrining 1.0.0 (commit …)`). */
  program: string;
  host: string;
  /** The plain port: the whole service, or with TLS the certificate page. */
  port: number;
  /** With TLS, the port of everything else; null on plain HTTP. */
  httpsPort: number | null;
  adminWeb: AdminWeb;
  /** `serve --backup-dir …`: where, how often, how many kept, whether encrypted; null when off. */
  backups: { folder: string; everyMilliseconds: number; keep: number; encrypted: boolean } | null;
}

export function writeServeState(dataDir: string, state: Omit<ServeState, "format">): void {
  const file = join(dataDir, serveStateFileName);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ format: stateFormat, ...state }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** The state the last serve wrote, or null when none did (or the file is not one). */
export function readServeState(dataDir: string): ServeState | null {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, serveStateFileName), "utf8")) as ServeState;
    return value.format === stateFormat && typeof value.port === "number" ? value : null;
  } catch {
    return null;
  }
}
