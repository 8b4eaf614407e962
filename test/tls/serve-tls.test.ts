import { afterEach, describe, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { chmodSync, existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { runCli, temporaryDir } from "../helpers";
import { freePort, launchInProcess, serveInProcess, stopStarted, type Running } from "../server-process";
import { eventually, httpsFetch, servedCertificate, tlsFiles, tlsInit } from "./support";

// decisions §18, serve with TLS, in this process on real ports: HTTPS on --https-port, the
// plain port as the certificate page (every page path, /ca.crt, /health, the API refused),
// the start-up lines and GET /health's `tls`, and the console's Sertifikat routes.

afterEach(stopStarted);

const adminPassword = "admin-pass-1";
const env = { SKRINING_ADMIN_PASSWORD: adminPassword };

async function serveWithTls(dataDir: string, serveOptions: string[] = [], extraEnv: Record<string, string> = {}): Promise<Running & { httpsPort: number }> {
  const httpsPort = await freePort();
  const running = await serveInProcess({ dataDir, env: { ...env, ...extraEnv }, serveOptions: ["--https-port", String(httpsPort), ...serveOptions] });
  return Object.assign(running, { httpsPort });
}

const login = (fetcher: typeof fetch | ReturnType<typeof httpsFetch>, base: string) =>
  fetcher(`${base}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: adminPassword }) });

describe("serve with the data folder's tls/", () => {
  test("serves the service over HTTPS and, on the plain port, the certificate page, /ca.crt, /health, and a 403 for every /api/ route", async () => {
    const dataDir = temporaryDir();
    await tlsInit(dataDir);
    const server = await serveWithTls(dataDir);
    const plain = `http://127.0.0.1:${server.port}`;
    const https = `https://127.0.0.1:${server.httpsPort}`;
    const authority = new X509Certificate(readFileSync(tlsFiles(dataDir).ca));
    const secure = httpsFetch(dataDir);

    expect((await login(secure, https)).status).toBe(200);
    expect((await servedCertificate("127.0.0.1", server.httpsPort, readFileSync(tlsFiles(dataDir).ca, "utf8"))).checkIssued(authority)).toBe(true);

    const expected = { error: `Gunakan https://127.0.0.1:${server.httpsPort}/ (lihat http://127.0.0.1:${server.port}/).` };
    for (const [method, path] of [["POST", "/api/auth/login"], ["GET", "/api/auth/me"], ["GET", "/api/konten/bantuan"], ["DELETE", "/api/mahasiswa/diary/1"], ["GET", "/api/tidak-ada"]]) {
      const response = await fetch(`${plain}${path}`, { method, headers: { "content-type": "application/json" }, body: method === "POST" ? JSON.stringify({ username: "admin", password: adminPassword }) : undefined });
      expect({ path, status: response.status, body: await response.json() }).toEqual({ path, status: 403, body: expected });
    }
    // The refused login reached no account: the trail has the one login over HTTPS only.
    const token = ((await (await login(secure, https)).json()) as { access_token: string }).access_token;
    const logins = (await (await secure(`${https}/api/admin/jejak?aksi=login`, { headers: { authorization: `Bearer ${token}` } })).json()) as { total: number };
    expect(logins.total).toBe(2);

    const certificate = await fetch(`${plain}/ca.crt`);
    expect(certificate.status).toBe(200);
    expect(certificate.headers.get("content-type")).toBe("application/x-x509-ca-cert");
    expect(certificate.headers.get("content-disposition")).toBe('attachment; filename="skrining-ca.crt"');
    expect(new Uint8Array(await certificate.arrayBuffer())).toEqual(new Uint8Array(authority.raw));
    const pem = await (await fetch(`${plain}/ca.pem`)).text();
    expect(new X509Certificate(pem).fingerprint256).toBe(authority.fingerprint256);

    const health = (await (await fetch(`${plain}/health`)).json()) as { status: string; tls: { sidik_jari: string; hari_tersisa: number; berakhir: string; peringatan: string[] } };
    expect(health.status).toBe("ok");
    expect(health.tls.sidik_jari).toBe(authority.fingerprint256);
    expect(health.tls.hari_tersisa).toBeGreaterThanOrEqual(396);
    expect(health.tls.peringatan).toEqual([]);
    expect(((await (await secure(`${https}/health`)).json()) as { tls: { sidik_jari: string } }).tls.sidik_jari).toBe(authority.fingerprint256);

    for (const path of ["/", "/masuk", "/admin", "/kuesioner", "/apa-saja"]) {
      const page = await fetch(`${plain}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
      const html = await page.text();
      expect(html).toContain(authority.fingerprint256);
      expect(html).toContain(`href="https://127.0.0.1:${server.httpsPort}/"`);
      expect(html).toContain('<svg class="qr"');
      expect(html).not.toContain("<script");
      for (const platform of ["Android", "iPhone dan iPad (iOS/iPadOS)", "Windows", "macOS", "Linux"]) expect(html).toContain(`<summary>${platform}</summary>`);
    }
    // The HTTPS address is given in the name the visitor used.
    expect(await (await fetch(`${plain}/`, { headers: { host: `localhost:${server.port}` } })).text()).toContain(`href="https://localhost:${server.httpsPort}/"`);
    expect((await fetch(`${plain}/sertifikat.css`)).headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect((await fetch(`${plain}/`, { method: "POST" })).status).toBe(405);
    // A browser naming the PC by a name nobody gave it is refused here too (decisions §15).
    expect((await fetch(`${plain}/`, { headers: { host: "jahat.example", origin: "http://jahat.example" } })).status).toBe(421);

    const lines = server.stdout();
    expect(lines).toContain("berjalan dengan HTTPS");
    expect(lines).toContain(`  https://127.0.0.1:${server.httpsPort}/  (hanya dari PC ini)`);
    expect(lines).toContain(`Sertifikat CA lokal untuk ponsel dan PC lab (sekali per perangkat): ${plain}/; sidik jari SHA-256 ${authority.fingerprint256}.`);
    expect(lines).toContain(`Konsol admin: https://127.0.0.1:${server.httpsPort}/admin`);
    expect(lines).not.toContain("PERINGATAN");
  });

  test("--http-api allow keeps the API on the plain port for an old app, and the start-up lines warn", async () => {
    const dataDir = temporaryDir();
    await tlsInit(dataDir);
    const server = await serveWithTls(dataDir, ["--http-api", "allow"]);
    expect((await login(fetch, `http://127.0.0.1:${server.port}`)).status).toBe(200);
    expect(server.stdout()).toContain(`PERINGATAN: API juga dilayani tanpa enkripsi di http://127.0.0.1:${server.port} (--http-api allow)`);
    // The pages stay the certificate page.
    expect(await (await fetch(`http://127.0.0.1:${server.port}/masuk`)).text()).toContain("Pasang sertifikat");
  });

  test("a local certificate that misses the address listened on is renewed before the port opens; the CA stays", async () => {
    const dataDir = temporaryDir();
    await tlsInit(dataDir);
    const authority = readFileSync(tlsFiles(dataDir).ca, "utf8");
    const httpsPort = await freePort();
    const server = await launchInProcess({ dataDir, env, serveOptions: ["--host", "127.0.0.2", "--https-port", String(httpsPort)] });
    const served = await eventually("the HTTPS port at 127.0.0.2", () => servedCertificate("127.0.0.2", httpsPort, authority));
    expect(served.subjectAltName).toContain("IP Address:127.0.0.2");
    expect(readFileSync(tlsFiles(dataDir).ca, "utf8")).toBe(authority);
    await eventually("the start-up lines", async () => server.stdout().includes("berjalan dengan HTTPS"));
    expect(server.stdout()).toContain("Sertifikat TLS diperbarui dari CA lokal (alamat 127.0.0.2 belum tercakup)");
    expect(server.stdout()).not.toContain("PERINGATAN");
  });

  test("a certificate that ends within 30 days is renewed by the running server from the same CA, without a restart", async () => {
    const dataDir = temporaryDir();
    await tlsInit(dataDir);
    const ca = readFileSync(tlsFiles(dataDir).ca, "utf8");
    const server = await serveWithTls(dataDir, [], { SKRINING_TLS_CHECK_SECONDS: "1" });
    const first = await servedCertificate("127.0.0.1", server.httpsPort, ca);

    // `tls init --days 10` while it runs: the server takes the new files up, finds them ending soon, and renews.
    await tlsInit(dataDir, ["--days", "10"]);
    const short = new X509Certificate(readFileSync(tlsFiles(dataDir).certificate));
    const renewed = await eventually("a renewed certificate on the HTTPS port", async () => {
      const served = await servedCertificate("127.0.0.1", server.httpsPort, ca);
      return served.serialNumber !== first.serialNumber && served.serialNumber !== short.serialNumber && served;
    });
    expect(Date.parse(renewed.validTo) - Date.now()).toBeGreaterThan(390 * 24 * 3600 * 1000);
    expect(readFileSync(tlsFiles(dataDir).ca, "utf8")).toBe(ca);
    expect(new X509Certificate(readFileSync(tlsFiles(dataDir).certificate)).serialNumber).toBe(renewed.serialNumber);
    expect(server.stdout()).toMatch(/Sertifikat TLS diperbarui dari CA lokal \(berakhir dalam (9|10) hari\)/);
    // The service answered throughout and still does.
    expect((await login(httpsFetch(dataDir), `https://127.0.0.1:${server.httpsPort}`)).status).toBe(200);
  });

  test("the console's Sertifikat: the certificate, its QR code and addresses; Perbarui sekarang renews from the CA, the log naming the admin", async () => {
    const dataDir = temporaryDir();
    await tlsInit(dataDir);
    const server = await serveWithTls(dataDir);
    const https = `https://127.0.0.1:${server.httpsPort}`;
    const secure = httpsFetch(dataDir);
    const token = ((await (await login(secure, https)).json()) as { access_token: string }).access_token;
    const headers = { authorization: `Bearer ${token}` };
    const ca = readFileSync(tlsFiles(dataDir).ca, "utf8");
    const authority = new X509Certificate(ca);

    const answer = (await (await secure(`${https}/api/admin/sertifikat`, { headers })).json()) as Record<string, unknown> & { qr: { size: number; path: string } };
    expect(answer).toMatchObject({ https: true, ca_lokal: true, dapat_diperbarui: true, sidik_jari: authority.fingerprint256, peringatan: [], alamat_https: [`${https}/`], halaman_sertifikat: [`http://127.0.0.1:${server.port}/`] });
    expect(answer.hari_tersisa).toBeGreaterThanOrEqual(396);
    expect(answer.qr.size).toBeGreaterThan(21);
    expect(answer.qr.path).toMatch(/^M\d+ \d+h\d+v1h-\d+z/);

    const before = await servedCertificate("127.0.0.1", server.httpsPort, ca);
    // Without a confirmation (no X-Konfirmasi): a renewal gives no one access (decisions §21).
    const renewed = await secure(`${https}/api/admin/sertifikat/perbarui`, { method: "POST", headers });
    expect(renewed.status).toBe(200);
    expect(((await renewed.json()) as { message: string }).message).toContain("Sertifikat server baru dari CA lokal sudah dipakai");
    const after = await servedCertificate("127.0.0.1", server.httpsPort, ca);
    expect(after.serialNumber).not.toBe(before.serialNumber);
    await eventually("the renewal's log line", async () => server.stdout().includes("Sertifikat TLS diperbarui dari CA lokal (diminta admin admin di konsol)"));
    // A student hears the usual refusal.
    expect((await secure(`${https}/api/admin/sertifikat`)).status).toBe(401);
  });
});

describe("serve with --tls-cert and --tls-key", () => {
  test("an address listened on that the certificate does not cover and a key others can read are named at start and in /health; no CA is offered", async () => {
    const elsewhere = temporaryDir();
    await tlsInit(elsewhere);
    const files = tlsFiles(elsewhere);
    chmodSync(files.key, 0o644);
    const dataDir = temporaryDir();
    const [port, httpsPort] = [await freePort(), await freePort()];
    const server = await launchInProcess({ dataDir, env, port, serveOptions: ["--host", "127.0.0.2", "--https-port", String(httpsPort), "--tls-cert", files.certificate, "--tls-key", files.key] });
    const health = await eventually("GET /health on the plain port", async () => (await (await fetch(`http://127.0.0.2:${port}/health`)).json()) as { tls: { peringatan: string[] } });
    expect(health.tls.peringatan).toEqual([
      "Sertifikat TLS tidak mencakup alamat 127.0.0.2 yang didengarkan server: peramban yang membukanya menolak sambungan. Perbarui sertifikat (skrining tls init, atau Sertifikat di konsol admin).",
      "Kunci privat server.key dapat dibaca pengguna lain (izin 0644): jalankan chmod 600 pada berkas itu.",
    ]);
    await eventually("the start-up lines", async () => server.stdout().includes("berjalan dengan HTTPS"));
    for (const warning of health.tls.peringatan) expect(server.stdout()).toContain(`PERINGATAN: ${warning}`);
    // The given files are never rewritten, and this data folder gets no tls/.
    expect(existsSync(join(dataDir, "tls"))).toBe(false);
    expect((await fetch(`http://127.0.0.2:${port}/ca.crt`)).status).toBe(404);
    expect(await (await fetch(`http://127.0.0.2:${port}/`)).text()).toContain("bukan oleh skrining");
  });
});

describe("a certificate serve cannot use", () => {
  test.each([
    ["the server key missing from tls/", (dataDir: string) => Bun.write(join(dataDir, "tls", "server.key.moved"), readFileSync(join(dataDir, "tls", "server.key"))).then(() => Bun.$`rm ${join(dataDir, "tls", "server.key")}`), "Kunci TLS", "tidak ada"],
    ["a key of another certificate", (dataDir: string) => Bun.write(join(dataDir, "tls", "server.key"), readFileSync(join(dataDir, "tls", "ca.key"))), "bukan pasangan sertifikat", ""],
    ["a certificate that is not PEM", (dataDir: string) => Bun.write(join(dataDir, "tls", "server.crt"), "bukan sertifikat\n"), "bukan sertifikat TLS", ""],
  ])("%s: one line, exit 1, and the data folder left as it was", async (_name, spoil, message, more) => {
    const dataDir = temporaryDir();
    await tlsInit(dataDir);
    await spoil(dataDir);
    const before = readdirSync(dataDir).sort();
    const result = await runCli(["--data", dataDir, "serve", "--host", "127.0.0.1", "--port", String(await freePort()), "--https-port", String(await freePort())], { env });
    expect(result.exitCode).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(message);
    expect(lines[0]).toContain(more);
    expect(readdirSync(dataDir).sort()).toEqual(before);
  });

  test("--tls-cert without --tls-key is refused in one line", async () => {
    const result = await runCli(["--data", temporaryDir(), "serve", "--port", String(await freePort()), "--tls-cert", "/tidak/ada.crt"], { env });
    expect(result).toMatchObject({ exitCode: 1, stdout: "" });
    expect(result.stderr).toBe("skrining: --tls-cert dan --tls-key harus diberikan bersama.\n");
  });
});

describe("serve without TLS", () => {
  test("on a LAN address, every start warns that passwords cross the network unencrypted, naming skrining tls init", async () => {
    const dataDir = temporaryDir();
    const server = await serveInProcess({ dataDir, env, serveOptions: ["--host", "0.0.0.0"] });
    expect(server.stdout()).toContain(
      `PERINGATAN: tanpa TLS, password dan data mahasiswa melintas jaringan kampus tanpa enkripsi (siapa pun di Wi-Fi yang sama dapat membacanya), dan ponsel tidak mendapat mode offline. Jalankan 'skrining --data ${dataDir} tls init'`,
    );
    expect(await (await fetch(`http://127.0.0.1:${server.port}/health`)).json()).not.toHaveProperty("tls");
  });

  test("on loopback alone, no such warning; the console's Sertifikat says there is no HTTPS and refuses a renewal", async () => {
    const server = await serveInProcess({ dataDir: temporaryDir(), env });
    expect(server.stdout()).not.toContain("tanpa TLS");
    const base = `http://127.0.0.1:${server.port}`;
    const token = ((await (await login(fetch, base)).json()) as { access_token: string }).access_token;
    const headers = { authorization: `Bearer ${token}` };
    expect(await (await fetch(`${base}/api/admin/sertifikat`, { headers })).json()).toMatchObject({ https: false, sidik_jari: null, qr: null });
    const refused = await fetch(`${base}/api/admin/sertifikat/perbarui`, { method: "POST", headers });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toContain("skrining tls init");
  });
});
