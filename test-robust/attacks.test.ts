import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { started, startServer, type ServerProcess } from "../test/server-process";
import { preparedDataDir, sendHeadFirst } from "./support";

// Attacks one student or one stranger on the campus LAN could make against the others,
// each against the real server on a real port. The sizes are bounded so that each runs in
// seconds on two cores; on the code before the fixes each of them took minutes, gigabytes
// or answered wrongly (see the comments).

let server: ServerProcess;
let studentToken: string;
let burstToken: string;
let adminToken: string;

const base = () => `http://127.0.0.1:${server.port}`;

async function login(username: string, password: string): Promise<string> {
  const response = await fetch(`${base()}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The server's resident memory in MiB, from /proc. */
function residentMiB(): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

beforeAll(async () => {
  const dataDir = await preparedDataDir();
  // The shipped limits, not the test defaults: 30 student writes a minute, a diary of 4 MiB.
  // A high address limit: the failed logins below all come from 127.0.0.1.
  server = await startServer({ dataDir, env: { SKRINING_STUDENT_WRITES: "30", SKRINING_THROTTLE_ADDRESS: "1000" } });
  studentToken = await login("mhs1", "mhs-pass-1");
  burstToken = await login("mhs3", "mhs-pass-3");
  adminToken = await login("admin", "admin-pass-1");
}, 60_000);

afterAll(() => {
  for (const running of started.splice(0)) if (running.child.exitCode === null) running.child.kill("SIGKILL");
});

describe("validation in linear time", () => {
  // Before: the IPK pattern backtracked quadratically; 45,000 digits kept the only thread
  // busy for seconds, and the 1 MB body below for hours, while every other client waited.
  test.each([45_000, 900_000])("an IPK of %i digits is refused at once, and other clients are served meanwhile", async (digits) => {
    const slow = fetch(`${base()}/api/mahasiswa/profil`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${studentToken}` },
      body: JSON.stringify({ IPK: "1".repeat(digits) + "x" }),
    });
    const other = fetch(`${base()}/api/auth/me`, { headers: { authorization: `Bearer ${adminToken}` } });
    const [refused, served] = await Promise.all([slow, other]);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "IPK harus berupa angka." });
    expect(served.status).toBe(200);
  }, 10_000);
});

describe("routing by the path alone", () => {
  /** One raw HTTP/1.1 request with the given Host header; returns the status code. */
  function rawRequest(path: string, host: string, token: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = connect(server.port, "127.0.0.1");
      let response = "";
      socket.on("data", (chunk) => (response += chunk.toString("latin1")));
      socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(response)![1])));
      socket.on("error", reject);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`);
    });
  }

  // Before: with `Host: x` the router looked for the path from the wrong place, so
  // /zzz/api/auth/me answered 200 and /api/auth/me 404.
  test.each(["x", "ab", "abc", "a.b", "localhost", "192.168.1.20:5000"])("Host: %s", async (host) => {
    expect(await rawRequest("/api/auth/me", host, adminToken)).toBe(200);
    expect(await rawRequest("/zzz/api/auth/me", host, adminToken)).toBe(404);
    expect(await rawRequest("/z/api/auth/me", host, adminToken)).toBe(404);
  });
});

describe("one student's writes", () => {
  // Before: one student stored ~20 MB of diary in a one-second burst, after which a few
  // parallel reads of it took more than 1 GB of memory.
  test("a burst of 60 diary entries of 20,000 characters: 30 are stored, the rest refused with 429", async () => {
    const content = "x".repeat(20_000);
    const responses = await Promise.all(
      Array.from({ length: 60 }, () =>
        fetch(`${base()}/api/mahasiswa/diary`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${burstToken}` },
          body: JSON.stringify({ date: "2026-11-20", content }),
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    const limited = responses.find((response) => response.status === 429)!;
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);

    const list = await fetch(`${base()}/api/mahasiswa/diary/N003`, { headers: { authorization: `Bearer ${burstToken}` } });
    expect(((await list.json()) as unknown[]).length).toBe(30);
  });

  test("the diary stops at its quota, so a read of it stays bounded", async () => {
    // An admin is not rate-limited, so the quota alone stops this: 4 MiB of text.
    const content = "y".repeat(20_000);
    let stored = 0;
    for (let write = 0; write < 260; write++) {
      const response = await fetch(`${base()}/api/mahasiswa/diary`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${adminToken}` },
        body: JSON.stringify({ nim: "N002", date: "2026-11-21", content }),
      });
      if (response.status === 400) {
        expect(await response.json()).toEqual({ error: "Kapasitas jurnal penuh." });
        break;
      }
      expect(response.status).toBe(201);
      await response.arrayBuffer();
      stored++;
    }
    expect(stored).toBe(Math.floor((4 * 1024 * 1024) / 20_000));
    const read = await fetch(`${base()}/api/mahasiswa/diary/N002`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect((await read.arrayBuffer()).byteLength).toBeLessThan(4.5 * 1024 * 1024);
  }, 30_000);
});

describe("failed logins", () => {
  // Before: every failed login kept its username as a throttle key, 1 MB each.
  test("300 logins with distinct 1 MB usernames leave no lasting memory behind", async () => {
    const padding = "u".repeat(1_000_000);
    const batch = async (batchNumber: number) => {
      for (let round = 0; round < 10; round++) {
        await Promise.all(
          Array.from({ length: 10 }, async (_, index) => {
            const response = await fetch(`${base()}/api/auth/login`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ username: `${batchNumber}-${round}-${index}-${padding}`, password: "salah" }),
            });
            expect(response.status).toBe(401);
            await response.arrayBuffer();
          }),
        );
      }
    };
    // The first batch brings the memory that request bodies take while garbage is collected.
    await batch(1);
    const settled = residentMiB();
    await batch(2);
    await batch(3);
    // Remembered, the usernames of the last two batches would keep another 200 MB; what
    // the collector has not yet returned of their request bodies has reached 60 MB.
    expect(residentMiB() - settled).toBeLessThan(100);
  }, 30_000);
});

describe("bodies read only after the checks that need none (decisions §21)", () => {
  // Before: a model upload of 40 MiB without a token was read and parsed whole before the
  // token was looked at; four of them took the server from 87 to 374 MiB.
  const declared = 40 * 1024 * 1024;

  const headFirst = async (path: string, headers: string[]) => {
    const socket = connect(server.port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    return await sendHeadFirst(socket, { path, headers, declared });
  };

  test("4 model uploads of 40 MiB without a token: each answered 401 before its body, and the memory does not grow", async () => {
    const before = residentMiB();
    const sent = await Promise.all(Array.from({ length: 4 }, () => headFirst("/api/admin/model", [])));
    expect(sent.map(({ statusLine }) => statusLine)).toEqual(Array(4).fill("HTTP/1.1 401 Unauthorized"));
    await Promise.all(sent.map(({ bodySent }) => bodySent));
    // Read, four bodies would hold 160 MiB and more while parsed.
    expect(residentMiB() - before).toBeLessThan(40);
    // The server serves on.
    expect((await fetch(`${base()}/api/auth/me`, { headers: { authorization: `Bearer ${adminToken}` } })).status).toBe(200);
  }, 60_000);

  test("a student's token at the console's upload, and a roster: 403 before the body", async () => {
    for (const path of ["/api/admin/model", "/api/admin/akun/impor"]) {
      const { statusLine, bodySent } = await headFirst(path, [`Authorization: Bearer ${studentToken}`]);
      expect({ path, statusLine }).toEqual({ path, statusLine: "HTTP/1.1 403 Forbidden" });
      await bodySent;
    }
  }, 30_000);
});
