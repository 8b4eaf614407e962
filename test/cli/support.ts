import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { closeContext, createContext } from "../../src/context";
import { openDatabase } from "../../src/db";
import { migrations } from "../../src/db/migrations";
import { sessionIdHash } from "../../src/auth/sessions";
import { silentLogger } from "../../src/logger";
import { runCli, spawnCli, temporaryDir, testEnvironment, type CliOptions, type CliResult, type InProcessCliOptions } from "../helpers";

/** Runs the CLI in-process on a given data folder (never the repository's own ./data). */
export function cli(dataDir: string, args: string[], options: InProcessCliOptions = {}): Promise<CliResult> {
  return runCli(["--data", dataDir, ...args], options);
}

/** The same, as a child process `bun cli/main.ts`, for the tests whose subject is the process. */
export function cliProcess(dataDir: string, args: string[], options: CliOptions & { umask?: string } = {}): Promise<CliResult> {
  return spawnCli(["--data", dataDir, ...args], options);
}

/** The migration level of olderDataFolder(): two migrations behind this version. */
export const olderLevel = migrations.length - 2;

/** A data folder whose database stopped at an older migration (as an older version left it) and holds one account, `lama`. */
export function olderDataFolder(): string {
  const dataDir = temporaryDir("skrining-older-");
  const db = openDatabase(join(dataDir, "skrining.db"), migrations.slice(0, olderLevel), silentLogger);
  db.$client.run("INSERT INTO users (username, password_hash, role, is_activated) VALUES ('lama', 'x', 'admin', 1)");
  db.$client.close();
  return dataDir;
}

/** Writes a CSV (text as UTF-8, or bytes as they are) into a fresh temporary folder and returns its path. */
export function csvFile(text: string | Uint8Array, name = "accounts.csv"): string {
  const path = join(temporaryDir("skrining-csv-"), name);
  writeFileSync(path, text);
  return path;
}

/** Opens the data folder's database read-only for one look, then closes it. */
export function withDatabase<T>(dataDir: string, look: (db: Database) => T): T {
  const db = new Database(join(dataDir, "skrining.db"), { readonly: true });
  try {
    return look(db);
  } finally {
    db.close();
  }
}

export interface RowCounts {
  users: number;
  dosen: number;
  mahasiswa: number;
  jurusan: number;
}

export function rowCounts(dataDir: string): RowCounts {
  return withDatabase(dataDir, (db) => {
    const count = (table: string) => db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
    return { users: count("users"), dosen: count("dosen"), mahasiswa: count("mahasiswa"), jurusan: count("jurusan") };
  });
}

export interface UserRow {
  Id_User: number;
  username: string;
  password_hash: string;
  role: string;
  is_activated: number;
  disabled_at: string | null;
}

/** A session row for `username`, as a login writes it; returns its id. */
export function addSession(dataDir: string, username: string, id: string): string {
  const db = new Database(join(dataDir, "skrining.db"));
  try {
    db.query("INSERT INTO sessions (id_hash, Id_User, created_at, expires_at) SELECT ?, Id_User, '2026-01-01T00:00:00.000Z', 4102444800 FROM users WHERE username = ?").run(sessionIdHash(id), username);
  } finally {
    db.close();
  }
  return id;
}

/** Whether a session has ended (logout, or a new password). */
export function sessionEnded(dataDir: string, id: string): boolean {
  return withDatabase(dataDir, (db) => db.query<{ ended_at: string | null }, [string]>("SELECT ended_at FROM sessions WHERE id_hash = ?").get(sessionIdHash(id))!.ended_at !== null);
}

export function userRow(dataDir: string, username: string): UserRow | null {
  return withDatabase(dataDir, (db) => db.query<UserRow, [string]>("SELECT * FROM users WHERE username = ?").get(username));
}

/** The line numbers named by `baris N: ...` lines on stderr, with their messages. */
export function reportedLines(stderr: string): Map<number, string[]> {
  const lines = new Map<number, string[]>();
  for (const line of stderr.split("\n")) {
    const match = /^baris (\d+): (.*)$/.exec(line.trim());
    if (!match) continue;
    const number = Number(match[1]);
    lines.set(number, [...(lines.get(number) ?? []), match[2]!]);
  }
  return lines;
}

/** Non-empty lines of an output stream. */
export function outputLines(text: string): string[] {
  return text.split("\n").filter((line) => line.trim() !== "");
}

/**
 * The service on a data folder, opened in this process as a running server has it open
 * while the CLI changes accounts; driven through app.handle(). The statuses of login,
 * `/me` and refresh, and the tokens of a successful login.
 */
export function serviceOn(dataDir: string) {
  const context = createContext(loadConfig(dataDir, testEnvironment), silentLogger);
  const app = createApp(context, () => "203.0.113.9");
  const call = async (path: string, init: { body?: unknown; token?: string; method?: string }) => {
    const headers: Record<string, string> = {};
    if (init.body !== undefined) headers["content-type"] = "application/json";
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const response = await app.handle(
      new Request(`http://localhost${path}`, { method: init.method ?? "POST", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  return {
    login: async (username: string, password: string) => {
      const { status, body } = await call("/api/auth/login", { body: { username, password } });
      return { status, access: body.access_token as string | undefined, refresh: body.refresh_token as string | undefined, error: body.error as string | undefined };
    },
    activate: async (username: string, password: string) => (await call("/api/auth/activation", { body: { username, password } })).status,
    me: async (token: string) => (await call("/api/auth/me", { method: "GET", token })).status,
    refresh: async (token: string) => (await call("/api/auth/refresh", { token })).status,
    close: () => closeContext(context),
  };
}
