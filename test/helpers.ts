import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CommandIo } from "../cli/common";
import { run } from "../cli/program";
import { createApp, type AppOptions } from "../src/app";
import { parseAccountsCsv } from "../src/accounts/import";
import { loadConfig } from "../src/config";
import { closeContext, createContext, type AppContext } from "../src/context";
import { silentLogger, type Logger } from "../src/logger";
import { temporaryDir } from "./temporary";

export const repositoryRoot = join(import.meta.dir, "..");

/**
 * Settings that keep tests fast: the cheapest bcrypt and backup-encryption costs and no
 * request log; a student write limit that only the tests of the limit itself lower.
 */
export const testEnvironment = { SKRINING_BCRYPT_COST: "4", SKRINING_BACKUP_KDF_COST: "10", SKRINING_LOG: "off", SKRINING_STUDENT_WRITES: "100000" } as const;

export { temporaryDir };

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
}

export interface RequestOptions {
  body?: unknown;
  /** A raw body sent as is (a string, bytes or a form), instead of JSON. */
  rawBody?: RequestInit["body"];
  token?: string;
  headers?: Record<string, string>;
}

let template: Uint8Array | undefined;

/**
 * A database file as a new data folder's first start leaves it (every migration applied,
 * the weeks counted in the test zone), made once per test process and kept in memory: each
 * TestService starts from a copy of it instead of running the migrations again. The
 * migrations themselves are tested on their own (test/db/migrations.test.ts, the CLI's new
 * folders).
 */
function templateDatabase(): Uint8Array {
  if (template === undefined) {
    const dataDir = mkdtempSync(join(tmpdir(), "skrining-template-"));
    try {
      const context = createContext(loadConfig(dataDir, { ...testEnvironment }), silentLogger);
      // Everything in the database file itself, so that the file alone is the copy.
      context.db.$client.run("PRAGMA wal_checkpoint(TRUNCATE)");
      closeContext(context);
      template = readFileSync(join(dataDir, "skrining.db"));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return template;
}

/** A whole service on a fresh data folder (a copy of the template database), driven through `app.handle()`. */
export class TestService {
  readonly dataDir: string;
  readonly context: AppContext;
  readonly app: ReturnType<typeof createApp>;
  address = "198.51.100.7";

  /**
   * `appOptions`: what only a serving process has (its automatic backups), built from the
   * context. `from`: a data folder to start from (a fixture's snapshot) instead of the
   * template database.
   */
  constructor(
    environment: Record<string, string> = {},
    logger: Logger = silentLogger,
    appOptions: (context: AppContext) => AppOptions = () => ({}),
    from: FolderCopy | null = null,
  ) {
    this.dataDir = temporaryDir();
    if (from) restoreFolder(this.dataDir, from);
    else writeFileSync(join(this.dataDir, "skrining.db"), templateDatabase(), { mode: 0o600 });
    this.context = createContext(loadConfig(this.dataDir, { ...testEnvironment, ...environment }), logger);
    this.app = createApp(this.context, () => this.address, appOptions(this.context));
  }

  /**
   * Every file of the data folder as it is now, the view rows still gathering for the audit
   * trail written first and the database's whole content in its one file: a snapshot.
   */
  /** The features' services the tests reach beyond the routes (src/app.ts). */
  get features() {
    return this.app.features;
  }

  async snapshot(): Promise<FolderCopy> {
    await this.context.audit.flush();
    this.context.db.$client.run("PRAGMA wal_checkpoint(TRUNCATE)");
    return copyFolder(this.dataDir);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    let body: RequestInit["body"] = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    // A request from the network arrives in a turn of the event loop of its own; the read
    // caches ask whether another connection wrote once per turn (src/db/read-cache.ts).
    await new Promise((resolve) => setImmediate(resolve));
    const response = await this.app.handle(new Request(`http://localhost${path}`, { method, body, headers }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  /** Creates accounts from CSV text through the same service the CLI import uses. */
  async importAccounts(csv: string): Promise<void> {
    const { accounts, errors } = parseAccountsCsv(csv);
    if (errors.length > 0) throw new Error(JSON.stringify(errors));
    await this.context.accounts.upsert(accounts);
  }

  /**
   * A `mahasiswa` account without a student profile (`tanpaprofil` / `tanpa-pass-1`): the
   * CSV requires a NIM, so the profile is removed after the import.
   */
  async addStudentWithoutProfile(): Promise<void> {
    await this.importAccounts("role,username,password,nim,activated\nmahasiswa,tanpaprofil,tanpa-pass-1,N099,true\n");
    this.context.db.$client.run("DELETE FROM mahasiswa WHERE NIM = 'N099'");
  }

  /** Logs in and returns both tokens. */
  async login(username: string, password: string): Promise<{ access: string; refresh: string }> {
    const response = await this.request("POST", "/api/auth/login", { body: { username, password } });
    if (response.status !== 200) throw new Error(`login ${username}: ${response.status} ${JSON.stringify(response.body)}`);
    return { access: response.body.access_token, refresh: response.body.refresh_token };
  }

  /** Logs in each of these fixture accounts, one after another; their access tokens by username. */
  async accessTokens<Username extends keyof typeof passwords>(usernames: readonly Username[]): Promise<Record<Username, string>> {
    const tokens = {} as Record<Username, string>;
    for (const username of usernames) tokens[username] = (await this.login(username, passwords[username])).access;
    return tokens;
  }

  /** Closes the database and removes the data folder. */
  close(): void {
    closeContext(this.context);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * The preamble of most route tests: a service with the standard accounts (and `more` CSV,
 * such as fourthStudent), signed in as `usernames`.
 */
export async function signedInService<Username extends keyof typeof passwords>(
  usernames: readonly Username[],
  options: { environment?: Record<string, string>; logger?: Logger; more?: readonly string[] } = {},
): Promise<{ service: TestService; tokens: Record<Username, string> }> {
  const service = new TestService(options.environment, options.logger);
  await service.importAccounts(standardAccounts);
  for (const csv of options.more ?? []) await service.importAccounts(csv);
  return { service, tokens: await service.accessTokens(usernames) };
}

/** The files of a folder by their paths inside it, with their modes (a fixture's data folder). */
type FolderCopy = { path: string; bytes: Uint8Array; mode: number }[];

function copyFolder(folder: string, under = ""): FolderCopy {
  return readdirSync(join(folder, under), { withFileTypes: true }).flatMap((entry) => {
    const path = join(under, entry.name);
    if (entry.isDirectory()) return copyFolder(folder, path);
    // Checkpointed: the write-ahead log is empty, and its index is rebuilt by the next connection.
    if (entry.name.endsWith("-wal") || entry.name.endsWith("-shm")) return [];
    return [{ path, bytes: readFileSync(join(folder, path)), mode: statSync(join(folder, path)).mode & 0o777 }];
  });
}

function restoreFolder(folder: string, files: FolderCopy): void {
  for (const { path, bytes, mode } of files) {
    mkdirSync(dirname(join(folder, path)), { recursive: true, mode: 0o700 });
    writeFileSync(join(folder, path), bytes, { mode });
  }
}

interface Snapshot {
  files: FolderCopy;
  /** What the fixture gave the test besides its service (tokens, ids), as plain data. */
  rest: unknown;
  /** When it was taken, by the real clock. */
  takenAt: number;
}

const snapshots = new Map<string, Snapshot>();
const realNow = () => performance.timeOrigin + performance.now();

/**
 * A fixture built through the routes and services once per test process, then copied:
 * later calls with the same `key` get a new TestService on a copy of its data folder
 * (database, token secret, photos), so the tokens it returned are valid sessions of the
 * copy, as if the service had been restarted after the fixture (nothing the fixture did is kept in memory:
 * no throttle counts, no cached answers). Rebuilt when the clock is not the real one (a
 * test that moved it with setSystemTime records its own times) or after 20 seconds (times
 * in the fixture stay within seconds of the test's).
 */
export async function snapshotFixture<Fixture extends { service: TestService }>(
  key: string,
  build: () => Promise<Fixture>,
  /** The environment `build` gives its TestService, which a copy gets too. */
  environment: Record<string, string> = {},
): Promise<Fixture> {
  const clockIsReal = Math.abs(Date.now() - realNow()) < 1000;
  const kept = snapshots.get(key);
  if (clockIsReal && kept && realNow() - kept.takenAt < 20_000) {
    return { ...(structuredClone(kept.rest) as Omit<Fixture, "service">), service: new TestService(environment, silentLogger, () => ({}), kept.files) } as Fixture;
  }
  const fixture = await build();
  if (clockIsReal) {
    const { service, ...rest } = fixture;
    snapshots.set(key, { files: await service.snapshot(), rest: structuredClone(rest), takenAt: realNow() });
  }
  return fixture;
}

/** Two lecturers, three students (one not activated, one without advisor) and an admin. */
export const standardAccounts = `role,username,password,nim,nip,nama,jurusan,angkatan,kelas,nip_doswal,activated
admin,admin,admin-pass-1,,,,,,,,true
dosen,dosen1,dosen-pass-1,,D001,Dosen Satu,,,,,true
dosen,dosen2,dosen-pass-2,,D002,Dosen Dua,,,,,true
mahasiswa,mhs1,mhs-pass-1,N001,,Mahasiswa Satu,Informatika,2023,TI-A,D001,true
mahasiswa,mhs2,mhs-pass-2,N002,,Mahasiswa Dua,Sistem Informasi,2022,SI-B,D002,true
mahasiswa,mhs3,mhs-pass-3,N003,,,,,,,false
`;

/** A fourth student, activated, an advisee of D001 without a name or department. */
export const fourthStudent = "role,username,password,nim,nip_doswal,activated\nmahasiswa,mhs4,mhs-pass-4,N004,D001,true\n";

/** The passwords of the fixture accounts: `standardAccounts`, mhs4 (`fourthStudent` and the tests' other mhs4 rows) and `addStudentWithoutProfile()`. */
export const passwords = {
  admin: "admin-pass-1",
  dosen1: "dosen-pass-1",
  dosen2: "dosen-pass-2",
  mhs1: "mhs-pass-1",
  mhs2: "mhs-pass-2",
  mhs3: "mhs-pass-3",
  mhs4: "mhs-pass-4",
  tanpaprofil: "tanpa-pass-1",
} as const;

/** Adds an account directly in the database, with the password hash of an existing one; returns its id. */
export function insertUserCopyingHash(service: TestService, username: string, role: string, hashFrom: string, activated = true): number {
  const client = service.context.db.$client;
  client
    .query("INSERT INTO users (username, password_hash, role, is_activated) SELECT ?, password_hash, ?, ? FROM users WHERE username = ?")
    .run(username, role, activated ? 1 : 0, hashFrom);
  const row = client.query<{ Id_User: number }, [string]>("SELECT Id_User FROM users WHERE username = ?").get(username);
  if (!row) throw new Error(`could not insert ${username}`);
  return row.Id_User;
}

/**
 * The service of the student record tests (mood, diary): the standard accounts, the fourth
 * student and a student account without a profile row (`tanpa.profil`, mhs1's password),
 * which the import cannot create; everyone logged in.
 */
export async function studentRecordsService(): Promise<{ service: TestService; tokens: Record<"admin" | "dosen" | "otherDosen" | "mhs1" | "mhs2" | "mhs4" | "noProfile", string> }> {
  const service = new TestService();
  await service.importAccounts(standardAccounts);
  await service.importAccounts(fourthStudent);
  insertUserCopyingHash(service, "tanpa.profil", "mahasiswa", "mhs1");
  const { admin, dosen1, dosen2, mhs1, mhs2, mhs4 } = await service.accessTokens(["admin", "dosen1", "dosen2", "mhs1", "mhs2", "mhs4"]);
  const noProfile = (await service.login("tanpa.profil", passwords.mhs1)).access;
  return { service, tokens: { admin, dosen: dosen1, otherDosen: dosen2, mhs1, mhs2, mhs4, noProfile } };
}

/** The questionnaire's 68 item keys in order: S1..S40, then M1..M28. */
export const itemKeys: string[] = [...Array.from({ length: 40 }, (_, i) => `S${i + 1}`), ...Array.from({ length: 28 }, (_, i) => `M${i + 1}`)];

/** Answers with every stress item `stress` and every motivation item `motivation`, then `extra`. */
export function jawaban(stress: number, motivation: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (let item = 1; item <= 40; item++) answers[`S${item}`] = stress;
  for (let item = 1; item <= 28; item++) answers[`M${item}`] = motivation;
  return { ...answers, ...extra };
}

/**
 * The command line of a child process, started through a shell that first sets `umask`
 * (as a service manager or a login shell would) when one is given.
 */
export function withUmask(command: string[], umask: string | undefined): string[] {
  return umask === undefined ? command : ["sh", "-c", `umask ${umask} && exec "$@"`, "sh", ...command];
}

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface CliOptions {
  env?: Record<string, string>;
  stdin?: string;
}

export interface InProcessCliOptions extends CliOptions {
  /**
   * Lines typed at a terminal: standard input is then a terminal, and each secret prompt
   * (written to stderr, as the real terminal does) takes the next line.
   */
  terminal?: string[];
  /** Standard output is a terminal (where serve shows the first admin's generated password). */
  outputIsTerminal?: boolean;
}

/**
 * The environment a test's CLI sees: this process's own without any SKRINING_ setting (a
 * developer's SKRINING_DATA or SKRINING_ADMIN_PASSWORD must not reach a test), then the
 * test settings, then the test's own.
 */
export function cliEnvironment(env: Record<string, string> = {}): Record<string, string | undefined> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("SKRINING_")));
  return { ...inherited, ...testEnvironment, ...env };
}

/** The program running in this process with captured streams: its exit code once it ends, and what it printed so far. */
export interface InProcessRun {
  exited: Promise<number>;
  stdout: () => string;
  stderr: () => string;
}

/**
 * Starts the `skrining` program in this process, with captured streams: the same commands,
 * texts and exit codes as the real process, without the start-up of one. The umask that
 * `run()` sets for the files it creates is this process's again once it has ended.
 * `onOutputClosed` is told how to stop a command that runs on (`serve`), as the reader of
 * its output going away would.
 */
export function startCli(args: readonly string[], options: InProcessCliOptions & { onOutputClosed?: (stop: () => void) => void } = {}): InProcessRun {
  let stdout = "";
  let stderr = "";
  const typed = [...(options.terminal ?? [])];
  const io: CommandIo = {
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
    // A child started with stdin "ignore" reads an empty input.
    readStdin: async () => options.stdin ?? "",
    inIsTerminal: options.terminal !== undefined,
    readSecret: async (prompt) => {
      stderr += `${prompt}\n`;
      const line = typed.shift();
      if (line === undefined) throw new Error(`the test typed nothing for the prompt ${JSON.stringify(prompt)}`);
      return line;
    },
    errIsTerminal: false,
    outIsTerminal: options.outputIsTerminal === true,
    environment: cliEnvironment(options.env),
    onOutputClosed: options.onOutputClosed,
  };
  const umask = process.umask();
  const exited = run(args, io).finally(() => process.umask(umask));
  return { exited, stdout: () => stdout, stderr: () => stderr };
}

/** Runs the `skrining` program in this process to its end (startCli). */
export async function runCli(args: readonly string[], options: InProcessCliOptions = {}): Promise<CliResult> {
  const running = startCli(args, options);
  const exitCode = await running.exited;
  return { stdout: running.stdout(), stderr: running.stderr(), exitCode };
}

/**
 * Runs the CLI as a child process (`bun cli/main.ts`), exactly as the checks and CI do: for
 * the tests whose subject is the process itself (its entry point, its umask).
 */
export async function spawnCli(args: readonly string[], options: CliOptions & { umask?: string } = {}): Promise<CliResult> {
  const child = Bun.spawn(withUmask([process.execPath, join(repositoryRoot, "cli", "main.ts"), ...args], options.umask), {
    cwd: repositoryRoot,
    env: cliEnvironment(options.env),
    stdin: options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, exitCode };
}
