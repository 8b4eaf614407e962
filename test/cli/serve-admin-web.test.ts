import { afterEach, describe, expect, test } from "bun:test";
import { runCli, temporaryDir } from "../helpers";
import { serveInProcess, stop, stopStarted } from "../server-process";

// `serve --admin-web local|lan|off` on a real port: what the start says, what the PC itself
// is answered, and the refusal of a value that is none of the three.

afterEach(stopStarted);

const adminPassword = "sandi-admin-konsol";

async function adminToken(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: adminPassword }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

describe("serve --admin-web", () => {
  test("local (the default): the start names the console's loopback address; the PC itself is let in, page and routes", async () => {
    const server = await serveInProcess({ dataDir: temporaryDir(), env: { SKRINING_ADMIN_PASSWORD: adminPassword } });
    expect(server.stdout()).toContain(`Konsol admin: http://127.0.0.1:${server.port}/admin (hanya dari PC ini; --admin-web lan untuk membukanya dari jaringan).`);
    expect(server.stdout()).not.toContain("PERINGATAN");
    const page = await fetch(`http://127.0.0.1:${server.port}/admin/akun`);
    expect(page.status).toBe(200);
    const accounts = await fetch(`http://127.0.0.1:${server.port}/api/admin/akun`, { headers: { authorization: `Bearer ${await adminToken(server.port)}` } });
    expect(accounts.status).toBe(200);
    expect(await stop(server)).toBe(0);
  });

  test("lan without TLS: a warning at start; the console answers", async () => {
    const server = await serveInProcess({ dataDir: temporaryDir(), env: { SKRINING_ADMIN_PASSWORD: adminPassword }, serveOptions: ["--admin-web", "LAN"] });
    expect(server.stdout()).toContain("Konsol admin dapat dibuka dari jaringan kampus (--admin-web lan)");
    expect(server.stdout()).toContain("PERINGATAN: konsol admin terbuka ke jaringan tanpa TLS");
    expect((await fetch(`http://127.0.0.1:${server.port}/admin`)).status).toBe(200);
    expect(await stop(server)).toBe(0);
  });

  test("off, from SKRINING_ADMIN_WEB: the start says so; the page and the routes are 403 naming the option", async () => {
    const server = await serveInProcess({ dataDir: temporaryDir(), env: { SKRINING_ADMIN_PASSWORD: adminPassword, SKRINING_ADMIN_WEB: "off" } });
    expect(server.stdout()).toContain("Konsol admin di peramban dimatikan (--admin-web off)");
    const page = await fetch(`http://127.0.0.1:${server.port}/admin/akun`);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("--admin-web off");
    const route = await fetch(`http://127.0.0.1:${server.port}/api/admin/akun`, { headers: { authorization: `Bearer ${await adminToken(server.port)}` } });
    expect(route.status).toBe(403);
    expect(((await route.json()) as { error: string }).error).toContain("--admin-web off");
    expect(await stop(server)).toBe(0);
  });

  test("any other value is refused before anything starts, naming the choices", async () => {
    const dataDir = temporaryDir();
    const option = await runCli(["--data", dataDir, "serve", "--admin-web", "semua"]);
    expect(option.exitCode).toBe(1);
    expect(option.stderr).toContain("pilih salah satu dari local, lan, off");
    const environment = await runCli(["--data", dataDir, "serve"], { env: { SKRINING_ADMIN_WEB: "semua" } });
    expect(environment.exitCode).toBe(1);
    expect(environment.stderr).toContain("SKRINING_ADMIN_WEB harus local, lan, off (diberikan: semua).");
  });
});
