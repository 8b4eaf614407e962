import { afterEach, describe, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { spawnCli, temporaryDir } from "../../test/helpers";
import { freePort, startServer, stop, stopStarted } from "../../test/server-process";
import { eventually, servedCertificate, tlsFiles } from "../../test/tls/support";
import { sendHeadFirst } from "../support";

// decisions §18 with serve as a process of its own: its exit code and stderr on a
// certificate it cannot use (what the service files' RestartPreventExitStatus reads), the
// plain port as it answers a client, and a renewal the running process makes by itself.

afterEach(stopStarted);

const env = { SKRINING_ADMIN_PASSWORD: "admin-pass-1" };

async function initialised(args: string[] = []): Promise<string> {
  const dataDir = temporaryDir();
  const made = await spawnCli(["--data", dataDir, "tls", "init", ...args]);
  if (made.exitCode !== 0) throw new Error(made.stderr);
  return dataDir;
}

test.each([
  ["a missing certificate", (dataDir: string) => rmSync(tlsFiles(dataDir).certificate), "Sertifikat TLS"],
  ["a key of another certificate", (dataDir: string) => writeFileSync(tlsFiles(dataDir).key, readFileSync(tlsFiles(dataDir).caKey)), "bukan pasangan sertifikat"],
])("%s: serve exits 1 with one line on stderr, no stack", async (_name, spoil, message) => {
  const dataDir = await initialised();
  spoil(dataDir);
  const result = await spawnCli(["--data", dataDir, "serve", "--host", "127.0.0.1", "--port", String(await freePort()), "--https-port", String(await freePort())], { env });
  expect(result.exitCode).toBe(1);
  expect(result.stdout).toBe("");
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("skrining: ");
  expect(lines[0]).toContain(message);
});

test("the plain port refuses POST /api/auth/login with §18's message and serves /ca.crt; HTTPS answers the login; SIGTERM stops both", async () => {
  const dataDir = await initialised();
  const httpsPort = await freePort();
  const server = await startServer({ dataDir, env, serveOptions: ["--https-port", String(httpsPort)] });
  const body = JSON.stringify({ username: "admin", password: env.SKRINING_ADMIN_PASSWORD });
  const refused = await fetch(`http://127.0.0.1:${server.port}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body });
  expect(refused.status).toBe(403);
  expect(await refused.json()).toEqual({ error: `Gunakan https://127.0.0.1:${httpsPort}/ (lihat http://127.0.0.1:${server.port}/).` });

  const authority = new X509Certificate(readFileSync(tlsFiles(dataDir).ca));
  const certificate = await fetch(`http://127.0.0.1:${server.port}/ca.crt`);
  expect(certificate.headers.get("content-type")).toBe("application/x-x509-ca-cert");
  expect(new X509Certificate(new Uint8Array(await certificate.arrayBuffer())).fingerprint256).toBe(authority.fingerprint256);

  const ca = readFileSync(tlsFiles(dataDir).ca, "utf8");
  const accepted = await fetch(`https://127.0.0.1:${httpsPort}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body, tls: { ca } } as RequestInit);
  expect(accepted.status).toBe(200);
  expect(await stop(server)).toBe(0);
  await expect(fetch(`https://127.0.0.1:${httpsPort}/health`, { tls: { ca } } as RequestInit)).rejects.toThrow();
});

test("a running serve renews a certificate that ends within 30 days from the same CA, without a restart", async () => {
  const dataDir = await initialised();
  const httpsPort = await freePort();
  const server = await startServer({ dataDir, env: { ...env, SKRINING_TLS_CHECK_SECONDS: "1" }, serveOptions: ["--https-port", String(httpsPort)] });
  const ca = readFileSync(tlsFiles(dataDir).ca, "utf8");
  expect((await spawnCli(["--data", dataDir, "tls", "init", "--days", "5"])).exitCode).toBe(0);
  const short = new X509Certificate(readFileSync(tlsFiles(dataDir).certificate));
  const renewed = await eventually("the renewed certificate", async () => {
    const served = await servedCertificate("127.0.0.1", httpsPort, ca);
    return served.serialNumber !== short.serialNumber && Date.parse(served.validTo) - Date.now() > 390 * 24 * 3600 * 1000 && served;
  });
  expect(renewed.checkIssued(new X509Certificate(ca))).toBe(true);
  expect(readFileSync(tlsFiles(dataDir).ca, "utf8")).toBe(ca);
  await eventually("the renewal's log line", async () => /Sertifikat TLS diperbarui dari CA lokal \(berakhir dalam [45] hari\)/.test(server.stdout()));
  expect(await stop(server)).toBe(0);
});

// Decisions §21 on both of serve's listeners with TLS: a body is read only after the checks
// that need none, on the HTTPS port (a raw TLS socket) and on the plain one (whose API is
// refused, or kept with --http-api allow), as the red team sent it: a 40 MiB model upload
// without a token.
describe("bodies after the checks, with TLS", () => {
  const declared = 40 * 1024 * 1024;
  const upload = { path: "/api/admin/model", headers: [], declared };
  const residentMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

  async function headOverTls(port: number, ca: string) {
    const socket = tlsConnect({ host: "127.0.0.1", port, ca });
    await new Promise<void>((resolve, reject) => socket.once("secureConnect", resolve).once("error", reject));
    return await sendHeadFirst(socket, upload);
  }

  async function headOverPlain(port: number) {
    const socket = connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    return await sendHeadFirst(socket, upload);
  }

  test("the HTTPS port answers 401 and the plain port 403 before a byte of the body is read; the memory does not grow", async () => {
    const dataDir = await initialised();
    const httpsPort = await freePort();
    const server = await startServer({ dataDir, env, serveOptions: ["--https-port", String(httpsPort)] });
    const ca = readFileSync(tlsFiles(dataDir).ca, "utf8");
    const before = residentMiB(server.child.pid);
    const sent = [await headOverTls(httpsPort, ca), await headOverTls(httpsPort, ca), await headOverPlain(server.port), await headOverPlain(server.port)];
    expect(sent.map(({ statusLine }) => statusLine)).toEqual(["HTTP/1.1 401 Unauthorized", "HTTP/1.1 401 Unauthorized", "HTTP/1.1 403 Forbidden", "HTTP/1.1 403 Forbidden"]);
    await Promise.all(sent.map(({ bodySent }) => bodySent));
    // Read, four bodies would hold 160 MiB and more while parsed.
    expect(residentMiB(server.child.pid) - before).toBeLessThan(40);
    expect(await stop(server)).toBe(0);
  }, 60_000);

  test("with --http-api allow, the plain port's API checks the token before the body too", async () => {
    const dataDir = await initialised();
    const server = await startServer({ dataDir, env, serveOptions: ["--https-port", String(await freePort()), "--http-api", "allow"] });
    const { statusLine, bodySent } = await headOverPlain(server.port);
    expect(statusLine).toBe("HTTP/1.1 401 Unauthorized");
    await bodySent;
    expect(await stop(server)).toBe(0);
  }, 60_000);
});
