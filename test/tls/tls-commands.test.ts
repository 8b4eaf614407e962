import { describe, expect, test } from "bun:test";
import { X509Certificate, createPrivateKey } from "node:crypto";
import { chmodSync, existsSync, readFileSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { runCli, temporaryDir } from "../helpers";
import { lanAddresses, sameAddress } from "../../src/machine";

// decisions §18: `skrining tls init` makes a local CA (kept when there is one) and a server
// certificate it signed, naming every name and address of the PC; `tls status` reads them
// back. The certificates are read here with Node's own X509Certificate.

const day = 24 * 3600 * 1000;
const mode = (path: string) => statSync(path).mode & 0o777;
const certificateAt = (path: string) => new X509Certificate(readFileSync(path));
const dnsNamesOf = (certificate: X509Certificate) => (certificate.subjectAltName ?? "").split(", ").filter((entry) => entry.startsWith("DNS:")).map((entry) => entry.slice(4));
const addressesOf = (certificate: X509Certificate) =>
  (certificate.subjectAltName ?? "").split(", ").filter((entry) => entry.startsWith("IP Address:")).map((entry) => entry.slice("IP Address:".length));

function tlsFiles(dataDir: string) {
  const folder = join(dataDir, "tls");
  return { folder, ca: join(folder, "ca.crt"), caKey: join(folder, "ca.key"), certificate: join(folder, "server.crt"), key: join(folder, "server.key") };
}

async function init(dataDir: string, args: string[] = [], env: Record<string, string> = {}) {
  return await runCli(["--data", dataDir, "tls", "init", ...args], { env });
}

describe("tls init", () => {
  test("makes the CA (10 years, key 0600) and a server certificate it signed (397 days) for every name and address, in tls/ (0700), and prints the CA's fingerprint", async () => {
    const dataDir = join(temporaryDir(), "data");
    const result = await init(dataDir, ["--hostname", "skrining.fakultas.ac.id", "--hostname", "Konseling.Local"], { SKRINING_HOSTNAMES: "skrining.kampus.test" });
    expect(result).toMatchObject({ exitCode: 0, stderr: "" });
    const files = tlsFiles(dataDir);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(files.folder)).toBe(0o700);
    for (const path of [files.ca, files.caKey, files.certificate, files.key]) expect(mode(path)).toBe(0o600);

    const authority = certificateAt(files.ca);
    const certificate = certificateAt(files.certificate);
    expect(authority.ca).toBe(true);
    expect(certificate.ca).toBe(false);
    expect(authority.checkPrivateKey(createPrivateKey(readFileSync(files.caKey)))).toBe(true);
    expect(certificate.checkPrivateKey(createPrivateKey(readFileSync(files.key)))).toBe(true);
    expect(certificate.checkIssued(authority)).toBe(true);
    expect(certificate.verify(authority.publicKey)).toBe(true);
    // For TLS servers only.
    expect(certificate.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1"]);

    const lifetime = (each: X509Certificate) => (Date.parse(each.validTo) - Date.parse(each.validFrom)) / day;
    expect(lifetime(authority)).toBe(3650);
    expect(lifetime(certificate)).toBeLessThanOrEqual(397);
    expect(lifetime(certificate)).toBeGreaterThan(396);
    expect(Date.parse(certificate.validFrom)).toBeLessThanOrEqual(Date.now());

    const own = hostname().toLowerCase();
    expect(dnsNamesOf(certificate).sort()).toEqual(["konseling.local", "localhost", own, `${own}.local`, "skrining.fakultas.ac.id", "skrining.kampus.test"].sort());
    const addresses = addressesOf(certificate);
    for (const address of ["127.0.0.1", "::1", ...lanAddresses()]) expect(addresses.some((each) => sameAddress(each, address))).toBe(true);
    expect(addresses).toHaveLength(2 + lanAddresses().length);

    expect(result.stdout).toContain("CA lokal baru dibuat");
    expect(result.stdout).toContain(`Sidik jari SHA-256 CA lokal: ${authority.fingerprint256}`);
  });

  test("run again, keeps the CA (a phone that trusts it goes on trusting) and issues a new server certificate", async () => {
    const dataDir = temporaryDir();
    expect((await init(dataDir, ["--hostname", "lama.fakultas.ac.id"])).exitCode).toBe(0);
    const files = tlsFiles(dataDir);
    const [authorityBefore, keyBefore, certificateBefore] = [readFileSync(files.ca, "utf8"), readFileSync(files.caKey, "utf8"), certificateAt(files.certificate)];

    const again = await init(dataDir, ["--days", "90"]);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain("CA lokal yang sudah ada tetap dipakai");
    expect(readFileSync(files.ca, "utf8")).toBe(authorityBefore);
    expect(readFileSync(files.caKey, "utf8")).toBe(keyBefore);
    const certificate = certificateAt(files.certificate);
    expect(certificate.serialNumber).not.toBe(certificateBefore.serialNumber);
    expect(certificate.verify(certificateAt(files.ca).publicKey)).toBe(true);
    expect(Math.round((Date.parse(certificate.validTo) - Date.parse(certificate.validFrom)) / day)).toBe(90);
    // The names are the ones given now: a name dropped from the command line is dropped from the certificate.
    expect(dnsNamesOf(certificate)).not.toContain("lama.fakultas.ac.id");
    expect(mode(files.key)).toBe(0o600);
  });

  test("--if-missing makes nothing where tls/ already has its CA and certificate", async () => {
    const dataDir = temporaryDir();
    expect((await init(dataDir, ["--if-missing"])).stdout).toContain("CA lokal baru dibuat");
    const before = readFileSync(tlsFiles(dataDir).certificate, "utf8");
    const again = await init(dataDir, ["--if-missing"]);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain("tidak ada yang dibuat");
    expect(readFileSync(tlsFiles(dataDir).certificate, "utf8")).toBe(before);
  });

  test.each([
    [["--hostname", "bukan nama!"], "bukan nama host"],
    [["--days", "398"], "1–397"],
    [["--days", "0"], "1–397"],
  ])("refuses %p with one line, exit 1, writing nothing", async (args, message) => {
    const dataDir = join(temporaryDir(), "data");
    const result = await init(dataDir, args);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(message);
    expect(existsSync(join(dataDir, "tls"))).toBe(false);
  });

  test("a CA whose key does not belong to it is refused, nothing written over it", async () => {
    const dataDir = temporaryDir();
    await init(dataDir);
    const files = tlsFiles(dataDir);
    const other = temporaryDir();
    await init(other);
    const strangerKey = readFileSync(tlsFiles(other).caKey, "utf8");
    await Bun.write(files.caKey, strangerKey);
    const before = readFileSync(files.certificate, "utf8");
    const result = await init(dataDir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([`skrining: Kunci ${files.caKey} bukan pasangan sertifikat ${files.ca}.`]);
    expect(readFileSync(files.certificate, "utf8")).toBe(before);
  });
});

describe("tls status", () => {
  test("prints the CA's fingerprint, the names and addresses covered and the days left; --json the same", async () => {
    const dataDir = temporaryDir();
    await init(dataDir, ["--hostname", "skrining.fakultas.ac.id"]);
    const authority = certificateAt(tlsFiles(dataDir).ca);
    const status = await runCli(["--data", dataDir, "tls", "status"]);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain(`Sidik jari SHA-256 CA lokal: ${authority.fingerprint256}`);
    expect(status.stdout).toMatch(/sisa 39[67] hari/);
    expect(status.stdout).toContain("skrining.fakultas.ac.id");
    expect(status.stdout).toContain("127.0.0.1, ::1");
    expect(status.stdout).toContain("Tidak ada masalah.");

    const json = JSON.parse((await runCli(["--data", dataDir, "tls", "status", "--json"])).stdout);
    expect(json.ca.sidik_jari).toBe(authority.fingerprint256);
    expect(json.sertifikat.hari_tersisa).toBeGreaterThanOrEqual(396);
    expect(json.sertifikat.nama).toContain("skrining.fakultas.ac.id");
    expect(json.sertifikat.alamat.slice(0, 2)).toEqual(["127.0.0.1", "::1"]);
    expect(json.peringatan).toEqual([]);
  });

  test("warns of a key others can read and of a certificate that ends within 30 days", async () => {
    const dataDir = temporaryDir();
    await init(dataDir, ["--days", "10"]);
    chmodSync(tlsFiles(dataDir).key, 0o644);
    const status = await runCli(["--data", dataDir, "tls", "status"]);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain("PERINGATAN: Kunci privat server.key dapat dibaca pengguna lain (izin 0644)");
    expect(status.stdout).toMatch(/PERINGATAN: Sertifikat TLS berakhir dalam (9|10) hari/);
  });

  test.each([
    ["a data folder without tls/", () => temporaryDir()],
    ["a data folder that does not exist", () => join(temporaryDir(), "dta")],
  ])("%s is refused with what to run, creating nothing", async (_name, folder) => {
    const dataDir = folder();
    const existed = existsSync(dataDir);
    const status = await runCli(["--data", dataDir, "tls", "status"]);
    expect(status.exitCode).toBe(1);
    expect(status.stderr.trim().split("\n")).toHaveLength(1);
    // On this data folder, from whatever folder it is run (issue 44).
    expect(status.stderr).toContain(`jalankan 'skrining --data ${dataDir} tls init'`);
    expect(existsSync(dataDir)).toBe(existed);
    expect(existsSync(join(dataDir, "tls"))).toBe(false);
  });
});
