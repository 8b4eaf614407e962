import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { closeSync, openSync, writeSync } from "node:fs";
import packageJson from "../../package.json";
import { TestService, standardAccounts, temporaryDir } from "../helpers";
import { serveInProcess, stop, stopStarted } from "../server-process";

// GET /health, for monitoring: no token, no write, the package's version with the commit and
// the build date, the bcrypt in use, and a 503 that says whether reads fail (error) or only
// writes (degraded), without a path, a cause or a count. A poll that answers 200 leaves no
// line in the request log.

/** The tests run from source: the working tree's commit (`-dirty` with changes), no build date. */
const head = Bun.spawnSync(["git", "rev-parse", "--short=12", "HEAD"]).stdout.toString().trim();
// The addon loads on Linux: test/auth/bcrypt-implementations.test.ts has the fallback.
const program = { version: packageJson.version, commit: expect.stringMatching(new RegExp(`^${head}(-dirty)?$`)), build_date: null };
const ok = { status: "ok", ...program, database: "ok", bcrypt: "native" };
const degraded = { status: "degraded", ...program, database: "error", bcrypt: "native" };
const failed = { status: "error", ...program, database: "error", bcrypt: "native" };

let service: TestService;
let logged: string[] = [];

/** A service whose log is captured (its own list: a line of an earlier test's service cannot land in it), the request log on. */
async function start(environment: Record<string, string> = {}): Promise<void> {
  const lines: string[] = [];
  logged = lines;
  service = new TestService({ SKRINING_LOG: "on", ...environment }, { info: (line) => lines.push(`info ${line}`), error: (line) => lines.push(`error ${line}`) });
  await service.importAccounts(standardAccounts);
}

/** The request log writes its line after the answer is sent: let that happen first. */
const answered = () => new Promise((resolve) => setImmediate(resolve));
afterEach(() => service?.close());

const sqlite = () => service.context.db.$client;
const errors = () => logged.filter((line) => line.startsWith("error"));

/** Overwrites the pages of the users table and its indexes in the file, then makes the server read them again. */
function damageUsersTable(): void {
  sqlite().run("PRAGMA wal_checkpoint(TRUNCATE)");
  const roots = sqlite().query("SELECT rootpage FROM sqlite_schema WHERE tbl_name = 'users'").all() as { rootpage: number }[];
  const { page_size: pageSize } = sqlite().query("PRAGMA page_size").get() as { page_size: number };
  const file = openSync(service.context.config.databasePath, "r+");
  for (const { rootpage } of roots) writeSync(file, new Uint8Array(pageSize).fill(0xa5), 0, pageSize, (rootpage - 1) * pageSize);
  closeSync(file);
  // A write by another program: the server's connection drops the pages it had cached.
  const other = new Database(service.context.config.databasePath);
  other.run("PRAGMA user_version = 1");
  other.close();
}

describe("GET /health", () => {
  test("answers 200 with the status, the version, commit and build date, and the database, and nothing else", async () => {
    await start();
    const answer = await service.request("GET", "/health");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(ok);
    expect(answer.headers.get("content-type")).toStartWith("application/json");
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });

  test("needs no token and does not look at one", async () => {
    await start();
    const headerSets: Record<string, string>[] = [{}, { authorization: "Bearer bukan-token" }, { authorization: "Basic YWRtaW46YWRtaW4=" }];
    for (const headers of headerSets) {
      expect(await service.request("GET", "/health", { headers })).toMatchObject({ status: 200, body: ok });
    }
  });

  test("HEAD answers 200 without a body", async () => {
    await start();
    const answer = await service.app.handle(new Request("http://localhost/health", { method: "HEAD" }));
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("");
  });

  test("writes nothing", async () => {
    await start();
    const changes = sqlite().query("SELECT total_changes() AS n").get();
    for (let poll = 0; poll < 5; poll++) await service.request("GET", "/health");
    expect(sqlite().query("SELECT total_changes() AS n").get()).toEqual(changes);
  });

  test("damaged pages on disk: 503 error, logged once however often it is polled", async () => {
    await start();
    damageUsersTable();
    for (let poll = 0; poll < 3; poll++) {
      const answer = await service.request("GET", "/health");
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual(failed);
    }
    expect(errors()).toHaveLength(1);
    expect(errors()[0]).toContain("skrining check --full");
  });

  test("a read that fails for another reason (the table is gone): 503 error, logged once; back again: 200", async () => {
    await start();
    const other = new Database(service.context.config.databasePath);
    other.run("ALTER TABLE users RENAME TO users_elsewhere");
    for (let poll = 0; poll < 3; poll++) expect(await service.request("GET", "/health")).toMatchObject({ status: 503, body: failed });
    expect(errors()).toHaveLength(1);
    expect(errors()[0]).toContain("Pemeriksaan kesehatan gagal membaca basis data");
    other.run("ALTER TABLE users_elsewhere RENAME TO users");
    other.close();
    expect(await service.request("GET", "/health")).toMatchObject({ status: 200, body: ok });
  });

  test("a storage that refused a write: 503 degraded until a write succeeds again", async () => {
    await start();
    const { mhs1 } = await service.accessTokens(["mhs1"]);
    sqlite().run("PRAGMA query_only = ON");
    expect((await service.request("POST", "/api/mahasiswa/mood", { token: mhs1, body: { date: "2026-05-01", mood_value: 3 } })).status).toBe(503);
    // Reads still work: the answer says degraded, not error, and names no cause.
    expect(await service.request("GET", "/health")).toMatchObject({ status: 503, body: degraded });
    sqlite().run("PRAGMA query_only = OFF");
    expect(await service.request("GET", "/health")).toMatchObject({ status: 503, body: degraded });
    expect((await service.request("POST", "/api/mahasiswa/mood", { token: mhs1, body: { date: "2026-05-01", mood_value: 3 } })).status).toBe(201);
    expect(await service.request("GET", "/health")).toMatchObject({ status: 200, body: ok });
  });

  test("polls that answer 200 are not in the request log; a 503 and other requests are", async () => {
    await start();
    for (let poll = 0; poll < 3; poll++) await service.request("GET", "/health");
    await service.request("GET", "/api/auth/me");
    await answered();
    const requests = () => logged.filter((line) => / (GET|HEAD|POST) \//.test(line));
    expect(requests()).toHaveLength(1);
    expect(requests()[0]).toMatch(/GET \/api\/auth\/me 401/);
    damageUsersTable();
    await service.request("GET", "/health");
    await answered();
    expect(requests().at(-1)).toMatch(/GET \/health 503/);
  });

  test("the student write limit does not apply to it", async () => {
    await start({ SKRINING_STUDENT_WRITES: "1" });
    const { mhs1 } = await service.accessTokens(["mhs1"]);
    expect((await service.request("POST", "/api/mahasiswa/mood", { token: mhs1, body: { date: "2026-05-01", mood_value: 3 } })).status).toBe(201);
    expect((await service.request("POST", "/api/mahasiswa/mood", { token: mhs1, body: { date: "2026-05-02", mood_value: 3 } })).status).toBe(429);
    for (let poll = 0; poll < 20; poll++) expect((await service.request("GET", "/health", { token: mhs1 })).status).toBe(200);
  });
});

describe("GET and HEAD /health on a real port", () => {
  afterAll(async () => {
    // Only the servers this file started, by their own handle.
    await stopStarted();
  });

  test("reach the API, not the web interface, and leave no line in the log", async () => {
    const server = await serveInProcess({ dataDir: temporaryDir(), env: { SKRINING_LOG: "on", SKRINING_ADMIN_PASSWORD: "sandi-admin-health" } });
    const get = await fetch(`http://127.0.0.1:${server.port}/health`);
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toStartWith("application/json");
    expect(await get.json()).toEqual(ok);
    const head = await fetch(`http://127.0.0.1:${server.port}/health`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    await fetch(`http://127.0.0.1:${server.port}/api/auth/me`).then((response) => response.arrayBuffer());
    expect(await stop(server)).toBe(0);
    // The log has the other request, not the polls.
    expect(server.stdout()).toMatch(/GET \/api\/auth\/me 401/);
    expect(server.stdout()).not.toContain("/health");
  });
});
