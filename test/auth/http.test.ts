import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestService, standardAccounts } from "../helpers";
import { noThrottle, texts } from "./support";

// decisions.md §1: uniform answers for unknown routes and methods, oversized bodies and
// CORS; interface.md: login and activation need no token; the OpenAPI document.

let service: TestService;
beforeAll(async () => {
  service = new TestService(noThrottle);
  await service.importAccounts(standardAccounts);
});
afterAll(() => service.close());

describe("unknown routes → 404 Endpoint tidak ditemukan.", () => {
  const cases: [string, string][] = [
    ["GET", "/api/nope"],
    ["POST", "/api/nope"],
    ["POST", "/api/auth/register"],
    ["GET", "/api/auth/register"],
    ["POST", "/api/auth/login/extra"],
    ["GET", "/api/auth"],
    ["GET", "/"],
    ["DELETE", "/api/auth/nope"],
  ];
  test.each(cases)("%s %s", async (method, path) => {
    const response = await service.request(method, path);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: texts.unknownRoute });
    expect(response.headers.get("content-type") ?? "").toMatch(/^application\/json/);
  });

  test("POST /api/auth/register with an admin token and a body is still 404", async () => {
    const { access } = await service.login("admin", "admin-pass-1");
    const response = await service.request("POST", "/api/auth/register", {
      token: access,
      body: { username: "new", password: "new-pass-123", role: "mahasiswa" },
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: texts.unknownRoute });
    expect(service.context.db.$client.query("SELECT count(*) AS n FROM users WHERE username = 'new'").get()).toEqual({ n: 0 });
  });
});

describe("a known path with a method it does not serve → 405", () => {
  const cases: [string, string, string][] = [
    ["GET", "/api/auth/login", "POST"],
    ["PUT", "/api/auth/login", "POST"],
    ["DELETE", "/api/auth/login", "POST"],
    ["GET", "/api/auth/activation", "POST"],
    ["GET", "/api/auth/refresh", "POST"],
    ["GET", "/api/auth/logout", "POST"],
    ["GET", "/api/auth/password", "POST"],
    ["POST", "/api/auth/me", "GET"],
    ["DELETE", "/api/auth/me", "GET"],
  ];
  test.each(cases)("%s %s (Allow includes %s)", async (method, path, allowed) => {
    const response = await service.request(method, path);
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ error: texts.methodNotAllowed });
    const allow = (response.headers.get("allow") ?? "").split(",").map((name) => name.trim());
    expect(allow).toContain(allowed);
    expect(allow).not.toContain(method);
  });
});

describe("body size limit", () => {
  const limit = 1024 * 1024;
  /** A login body padded to exactly `size` bytes. */
  function loginBody(size: number): string {
    const base = JSON.stringify({ username: "mhs1", password: "mhs-pass-1", pad: "" });
    const body = base.replace('"pad":""', `"pad":"${"x".repeat(size - base.length)}"`);
    expect(Buffer.byteLength(body)).toBe(size);
    return body;
  }

  test("a JSON body of exactly 1 MiB is read", async () => {
    const response = await service.request("POST", "/api/auth/login", { rawBody: loginBody(limit), headers: { "content-type": "application/json" } });
    expect(response.status).toBe(200);
    expect(response.body.user.username).toBe("mhs1");
  });

  test("a JSON body one byte over 1 MiB → 413", async () => {
    const response = await service.request("POST", "/api/auth/login", { rawBody: loginBody(limit + 1), headers: { "content-type": "application/json" } });
    expect(response.status).toBe(413);
    expect(Object.keys(response.body)).toEqual(["error"]);
    expect(response.body.error).toEqual(expect.any(String));
    expect(response.body.error.trim()).not.toBe("");
  });

  test("an oversized body sent in chunks without a Content-Length → 413", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= limit * 2) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const request = new Request("http://localhost/api/auth/activation", { method: "POST", body: stream, headers: { "content-type": "application/json" } });
    expect(request.headers.get("content-length")).toBeNull();
    const response = await service.app.handle(request);
    expect(response.status).toBe(413);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error).toEqual(expect.any(String));
  });

  test("an oversized body on a route with a token → 413, and nothing changes", async () => {
    const { access } = await service.login("mhs2", "mhs-pass-2");
    const body = JSON.stringify({ old_password: "mhs-pass-2", new_password: "new-pass-123", pad: "y".repeat(limit) });
    const response = await service.request("POST", "/api/auth/password", { token: access, rawBody: body, headers: { "content-type": "application/json" } });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: expect.any(String) });
    expect((await service.request("POST", "/api/auth/login", { body: { username: "mhs2", password: "mhs-pass-2" } })).status).toBe(200);
  });
});

describe("login and activation need no token", () => {
  test.each([
    ["no header", {}],
    ["a garbage token", { authorization: "Bearer garbage" }],
    ["another scheme", { authorization: "Basic Zm9vOmJhcg==" }],
  ] as [string, Record<string, string>][])("login with %s", async (_name, headers) => {
    const response = await service.request("POST", "/api/auth/login", { body: { username: "dosen1", password: "dosen-pass-1" }, headers });
    expect(response.status).toBe(200);
    expect(response.body.user.username).toBe("dosen1");
  });

  test("activation with a garbage token is judged by its own rules", async () => {
    const response = await service.request("POST", "/api/auth/activation", {
      body: { username: "mhs1", password: "x" },
      headers: { authorization: "Bearer garbage" },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: texts.alreadyActivated });
  });

  test("every auth route is open to every role that holds a token", async () => {
    for (const [username, password] of [["admin", "admin-pass-1"], ["dosen1", "dosen-pass-1"], ["mhs1", "mhs-pass-1"]] as const) {
      const tokens = await service.login(username, password);
      expect((await service.request("GET", "/api/auth/me", { token: tokens.access })).status).toBe(200);
      expect((await service.request("POST", "/api/auth/refresh", { token: tokens.refresh })).status).toBe(200);
      expect((await service.request("POST", "/api/auth/logout", { token: tokens.access })).status).toBe(200);
    }
  });
});

describe("CORS", () => {
  const preflight = (origin: string) =>
    service.request("OPTIONS", "/api/auth/login", {
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, authorization" },
    });

  test.each(["http://192.168.1.20:3000", "http://localhost:5173", "http://10.1.2.3"])("a preflight from the LAN origin %s is allowed", async (origin) => {
    const response = await preflight(origin);
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect((response.headers.get("access-control-allow-methods") ?? "").toUpperCase()).toContain("POST");
    expect((response.headers.get("access-control-allow-headers") ?? "").toLowerCase()).toContain("authorization");
  });

  test.each(["https://evil.example.com", "http://8.8.8.8", "null"])("a preflight from %s is not allowed", async (origin) => {
    const response = await preflight(origin);
    const allowed = response.headers.get("access-control-allow-origin");
    expect(allowed === null || (allowed !== origin && allowed !== "*")).toBe(true);
  });

  test("a simple request from a LAN origin carries the origin; from elsewhere it does not", async () => {
    const lan = await service.request("POST", "/api/auth/login", {
      body: { username: "mhs1", password: "mhs-pass-1" },
      headers: { origin: "http://192.168.1.20:3000" },
    });
    expect(lan.status).toBe(200);
    expect(lan.headers.get("access-control-allow-origin")).toBe("http://192.168.1.20:3000");
    const evil = await service.request("POST", "/api/auth/login", {
      body: { username: "mhs1", password: "mhs-pass-1" },
      headers: { origin: "https://evil.example.com" },
    });
    const allowed = evil.headers.get("access-control-allow-origin");
    expect(allowed === null || (allowed !== "https://evil.example.com" && allowed !== "*")).toBe(true);
  });

  test("errors carry CORS headers too", async () => {
    const response = await service.request("POST", "/api/auth/login", { body: {}, headers: { origin: "http://192.168.1.20:3000" } });
    expect(response.status).toBe(400);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://192.168.1.20:3000");
  });
});

describe("OpenAPI document", () => {
  test("GET /openapi/json lists the auth routes", async () => {
    const response = await service.request("GET", "/openapi/json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type") ?? "").toMatch(/json/);
    const paths = Object.keys(response.body.paths ?? {});
    for (const path of ["/api/auth/login", "/api/auth/me", "/api/auth/activation", "/api/auth/password", "/api/auth/refresh", "/api/auth/logout"]) {
      expect(paths).toContain(path);
    }
    expect(paths).not.toContain("/api/auth/register");
    expect(Object.keys(response.body.paths["/api/auth/login"])).toContain("post");
    expect(Object.keys(response.body.paths["/api/auth/me"])).toContain("get");
  });
});
