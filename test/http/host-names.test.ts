import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { hostname } from "node:os";
import { runCli, temporaryDir } from "../helpers";
import { serveInProcess, stop, type Running } from "../server-process";

// Decisions §15, DNS rebinding, against a real port: a browser's request (Origin or
// Sec-Fetch-Site) naming the PC by a name nobody gave it answers 421 with a text naming the
// option; an IP address, localhost, the PC's own names and the names given pass; clients
// that are no browser are not affected.

let server: Running;
beforeAll(async () => {
  server = await serveInProcess({ dataDir: temporaryDir(), env: { SKRINING_HOSTNAMES: "lab.kampus" }, serveOptions: ["--hostname", "Skrining.Fakultas.ac.id", "--hostname", "cadangan.fakultas.ac.id"] });
});
afterAll(async () => {
  await stop(server);
});

/** One raw HTTP/1.1 request with the Host and headers given (fetch would set Host itself). */
function rawRequest(path: string, host: string, headers: Record<string, string> = {}): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString("utf8")));
    socket.on("error", reject);
    socket.on("end", () => {
      const [head = "", body = ""] = text.split("\r\n\r\n");
      const status = Number(head.split(" ")[1]);
      const contentType = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? "";
      resolve({ status, contentType, body });
    });
    const lines = [`GET ${path} HTTP/1.1`, `Host: ${host}`, "Connection: close", ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), "", ""];
    socket.write(lines.join("\r\n"));
  });
}

const fromBrowser = { origin: "http://evil.example", "sec-fetch-site": "cross-site" };

describe("a browser's request naming an unknown host", () => {
  test.each([
    ["the API", "/api/mahasiswa/profil/foto/N001"],
    ["a login", "/api/auth/me"],
    ["a page", "/masuk"],
    ["an asset", "/sw.js"],
  ])("%s: 421 with a plain Indonesian text naming serve --hostname", async (_, path) => {
    const answer = await rawRequest(path, "evil.example", fromBrowser);
    expect(answer.status).toBe(421);
    expect(answer.contentType).toBe("text/plain; charset=utf-8");
    expect(answer.body).toContain('skrining tidak dikenal dengan nama "evil.example"');
    expect(answer.body).toContain("skrining serve --hostname evil.example (atau SKRINING_HOSTNAMES)");
  });

  test.each([
    ["Origin alone", { origin: "http://evil.example" }],
    ["Sec-Fetch-Site alone (a same-origin navigation)", { "sec-fetch-site": "same-origin" }],
  ])("%s is a browser's request too", async (_, headers) => {
    expect((await rawRequest("/api/auth/me", "evil.example:5000", headers)).status).toBe(421);
  });
});

describe("what passes", () => {
  test.each([
    ["an IPv4 address with its port", `127.0.0.1:${5000}`],
    ["an IPv6 address", "[::1]:5000"],
    ["localhost", "localhost:5000"],
    ["a name under localhost", "skrining.localhost"],
    ["the PC's own host name", hostname()],
    ["the PC's own name on the local network", `${hostname()}.local`],
    ["a name given with --hostname, in any case", "SKRINING.fakultas.AC.id"],
    ["the second name given", "cadangan.fakultas.ac.id:443"],
    ["a name from SKRINING_HOSTNAMES", "lab.kampus"],
  ])("%s", async (_, host) => {
    expect((await rawRequest("/api/auth/me", host, fromBrowser)).status).toBe(401);
  });

  test("a client that is no browser (the phone app, curl) with any Host: routed by the path as before", async () => {
    expect((await rawRequest("/api/auth/me", "evil.example")).status).toBe(401);
    expect((await rawRequest("/masuk", "evil.example")).status).toBe(200);
  });
});

test("a malformed --hostname is refused before anything starts", async () => {
  const dataDir = `${temporaryDir()}/data`;
  const result = await runCli(["--data", dataDir, "serve", "--port", "0", "--hostname", "bukan nama!"]);
  expect(result.exitCode).toBe(1);
  expect(result.stderr).toBe("skrining: --hostname bukan nama!: bukan nama host (huruf, angka, tanda - dan titik), misalnya skrining.fakultas.ac.id.\n");
  expect(await Bun.file(`${dataDir}/skrining.db`).exists()).toBe(false);
});
