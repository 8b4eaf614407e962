import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app";
import { parseAccountsCsv } from "../src/accounts/import";
import { loadConfig } from "../src/config";
import { closeContext, createContext, type AppContext } from "../src/context";
import { silentLogger, type Logger } from "../src/logger";

export const repositoryRoot = join(import.meta.dir, "..");

/**
 * Settings that keep tests fast: the cheapest bcrypt cost and no request log; a student
 * write limit that only the tests of the limit itself lower.
 */
export const testEnvironment = { SKRINING_BCRYPT_COST: "4", SKRINING_LOG: "off", SKRINING_STUDENT_WRITES: "100000" } as const;

export function temporaryDir(prefix = "skrining-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

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

/** A whole service on a fresh data folder, driven through `app.handle()`. */
export class TestService {
  readonly dataDir: string;
  readonly context: AppContext;
  readonly app: ReturnType<typeof createApp>;
  address = "198.51.100.7";

  constructor(environment: Record<string, string> = {}, logger: Logger = silentLogger) {
    this.dataDir = temporaryDir();
    this.context = createContext(loadConfig(this.dataDir, { ...testEnvironment, ...environment }), logger);
    this.app = createApp(this.context, () => this.address);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    let body: RequestInit["body"] = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
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

  close(): void {
    closeContext(this.context);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
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

/**
 * The command line of a child process, started through a shell that first sets `umask`
 * (as a service manager or a login shell would) when one is given.
 */
export function withUmask(command: string[], umask: string | undefined): string[] {
  return umask === undefined ? command : ["sh", "-c", `umask ${umask} && exec "$@"`, "sh", ...command];
}

/** Runs the CLI as a child process, exactly as the checks and CI do. */
export async function runCli(args: string[], options: { env?: Record<string, string>; stdin?: string; umask?: string } = {}) {
  const child = Bun.spawn(withUmask([process.execPath, join(repositoryRoot, "cli", "main.ts"), ...args], options.umask), {
    cwd: repositoryRoot,
    env: { ...process.env, ...testEnvironment, ...options.env },
    stdin: options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, exitCode };
}
