import { afterAll, describe, expect, test } from "bun:test";
import { adminWebMessages, defaultConsoleAddress } from "../../src/http/admin-web";
import { webInterface } from "../../src/http/web";
import * as assets from "../../src/http/web-assets.generated";
import { passwords } from "../helpers";
import { consoleService, lanAddress, loopback } from "./support";

// `serve --admin-web local|lan|off`: who reaches the console's routes and pages. The client
// address is the one the app's clientAddress gives (the server's requestIP), simulated here.

const services: Awaited<ReturnType<typeof consoleService>>["service"][] = [];
afterAll(() => services.forEach((service) => service.close()));

async function under(mode: string) {
  const opened = await consoleService({ SKRINING_ADMIN_WEB: mode });
  services.push(opened.service);
  return opened;
}

/** Under app.handle() the console's address is the default port's; serve names its own (test-robust/cli/serve-tls.test.ts). */
const localRefusal = adminWebMessages.local(defaultConsoleAddress);

describe("the console's routes", () => {
  const cases: [mode: string, address: string, status: number, error: string | null][] = [
    ["local", loopback, 200, null],
    ["local", "127.0.0.53", 200, null],
    ["local", "::1", 200, null],
    ["local", "::ffff:127.0.0.1", 200, null],
    ["local", lanAddress, 403, localRefusal],
    ["local", "::ffff:192.168.10.31", 403, localRefusal],
    ["local", "10.0.0.127", 403, localRefusal],
    ["lan", lanAddress, 200, null],
    ["lan", loopback, 200, null],
    ["off", loopback, 403, adminWebMessages.off],
    ["off", lanAddress, 403, adminWebMessages.off],
  ];
  test.each(cases)("--admin-web %s, a request from %s: %d", async (mode, address, status, error) => {
    const { service, call } = await under(mode);
    service.address = address;
    const answer = await call("GET", "/api/admin/akun");
    expect(answer.status).toBe(status);
    if (error) {
      expect(answer.body).toEqual({ error });
      expect(error).toContain(`--admin-web ${mode}`);
    } else {
      expect(answer.body.total).toBe(6);
    }
  });

  test("GET /api/admin/konsol, the web's question whether to show the console: its address where it answers, the refusal naming it where not", async () => {
    const { service, call } = await under("local");
    expect(await call("GET", "/api/admin/konsol")).toMatchObject({ status: 200, body: { alamat: defaultConsoleAddress } });
    service.address = lanAddress;
    expect(await call("GET", "/api/admin/konsol")).toMatchObject({ status: 403, body: { error: localRefusal } });
    expect(localRefusal).toContain("lewat http://127.0.0.1:5000/admin,");
  });

  test("a refused address learns nothing more: no token, a wrong token and a write all hear the same 403", async () => {
    const { service } = await under("local");
    service.address = lanAddress;
    for (const [method, path, token] of [
      ["GET", "/api/admin/akun", undefined],
      ["GET", "/api/admin/jejak", "not-a-token"],
      ["POST", "/api/admin/konfirmasi", undefined],
      ["POST", "/api/admin/akun/mhs1/reset-password", undefined],
    ] as const) {
      const answer = await service.request(method, path, { token, body: {} });
      expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 403, body: { error: localRefusal } });
    }
  });

  test("from the PC itself the console is for admins only: no token 401, a lecturer or a student 403", async () => {
    const { service } = await under("local");
    expect((await service.request("GET", "/api/admin/akun")).status).toBe(401);
    for (const username of ["dosen1", "mhs1"] as const) {
      const token = (await service.login(username, passwords[username])).access;
      expect(await service.request("GET", "/api/admin/akun", { token })).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
    }
  });

  test("the interface's own admin routes stay open from the LAN whatever the console's setting", async () => {
    const { service, call } = await under("off");
    service.address = lanAddress;
    expect((await call("GET", "/api/dosen/daftar")).status).toBe(200);
    expect((await call("GET", "/api/auth/me")).status).toBe(200);
  });
});

describe("the console's pages", () => {
  const pages = (mode: "local" | "lan" | "off", address: string) => webInterface("Asia/Jakarta", assets, { adminWeb: mode, clientAddress: () => address, consoleAddress: () => "https://127.0.0.1:5443/admin" });
  const get = (serve: ReturnType<typeof pages>, path: string) => serve(new Request(`http://192.168.10.20:5000${path}`))!;

  test("under local a LAN client gets 403 naming the option, the PC itself the page; other pages are not affected", async () => {
    const fromLan = get(pages("local", lanAddress), "/admin/akun");
    expect(fromLan.status).toBe(403);
    expect(fromLan.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(fromLan.headers.get("content-security-policy")).toContain("default-src 'none'");
    const text = await fromLan.text();
    expect(text).toContain("--admin-web local");
    // The whole address on that PC, port included (issue 44, item 11: it said http://127.0.0.1).
    expect(text).toContain("Bukalah di PC itu lewat https://127.0.0.1:5443/admin,");
    expect(text).not.toContain("<script");
    expect(get(pages("local", loopback), "/admin/akun").status).toBe(200);
    expect(get(pages("local", lanAddress), "/dosen").status).toBe(200);
    expect(get(pages("local", lanAddress), "/masuk").status).toBe(200);
  });

  test("under lan every client gets the page; under off nobody, and the text names off", async () => {
    expect(get(pages("lan", lanAddress), "/admin").status).toBe(200);
    const off = get(pages("off", loopback), "/admin/model");
    expect(off.status).toBe(403);
    expect(await off.text()).toContain("--admin-web off");
  });
});
