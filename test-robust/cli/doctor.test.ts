import { afterEach, describe, expect, test } from "bun:test";
import { chownSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { standardAccounts, temporaryDir } from "../../test/helpers";
import { freePort, startServer, stop, stopStarted } from "../../test/server-process";
import { cliProcess, csvFile, olderDataFolder, outputLines } from "../../test/cli/support";
import packageJson from "../../package.json";

// Issue 44, item 6: `skrining doctor`, as an IT person runs it on the service's folder while
// the service runs, and when something is wrong; `/health` says the newest backup's age.

afterEach(stopStarted);

/** A data folder with the standard accounts and HTTPS (tls init), made by the commands as processes. */
async function installation(): Promise<{ dataDir: string; backups: string; passphraseFile: string }> {
  const dataDir = join(temporaryDir("skrining-doctor-"), "data");
  expect((await cliProcess(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
  expect((await cliProcess(dataDir, ["tls", "init"])).exitCode).toBe(0);
  const backups = temporaryDir("skrining-doctor-cadangan-");
  const passphraseFile = join(temporaryDir("skrining-doctor-kunci-"), "passphrase");
  writeFileSync(passphraseFile, "frasa-sandi-uji-cadangan\n", { mode: 0o600 });
  return { dataDir, backups, passphraseFile };
}

const sectionsOf = (stdout: string) => new Map(outputLines(stdout).filter((line) => !line.startsWith(" ")).map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]));

describe("doctor on a healthy installation while it serves", () => {
  test("every part in one line, no problem, exit 0; /health names the newest backup's age", async () => {
    const { dataDir, backups, passphraseFile } = await installation();
    const httpsPort = await freePort();
    const server = await startServer({ dataDir, serveOptions: ["--https-port", String(httpsPort), "--backup-dir", backups, "--backup-passphrase-file", passphraseFile] });
    for (const deadline = Date.now() + 30_000; !server.stdout().includes("Cadangan otomatis tersimpan") && Date.now() < deadline; ) await Bun.sleep(50);

    const result = await cliProcess(dataDir, ["doctor"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const sections = sectionsOf(result.stdout);
    expect([...sections.keys()]).toEqual(["Versi", "Folder data", "Basis data", "Ruang disk", "Server", "Port", "Konsol admin", "Cadangan", "Sertifikat", "Hasil"]);
    expect(sections.get("Versi")).toStartWith(`skrining ${packageJson.version} (commit `);
    expect(sections.get("Folder data")).toBe(`${dataDir}, milik root; perintah ini dijalankan sebagai root`);
    expect(sections.get("Basis data")).toMatch(/^skema migrasi (\d{4}); program ini \1 \(sesuai\)$/);
    expect(sections.get("Ruang disk")).toMatch(/^\d+(,\d)? [KMG]B bebas dari \d+(,\d)? [KMG]B di disk folder data$/);
    expect(sections.get("Server")).toMatch(new RegExp(`^berjalan \\(proses ${server.child.pid}\\) sejak \\S+; https://127\\.0\\.0\\.1:${httpsPort}/health menjawab ok$`));
    expect(sections.get("Port")).toBe(`${httpsPort} (HTTPS) dan ${server.port} (halaman sertifikat, tanpa enkripsi) di 127.0.0.1`);
    expect(sections.get("Konsol admin")).toBe(`https://127.0.0.1:${httpsPort}/admin, hanya dari PC ini (--admin-web local)`);
    expect(sections.get("Cadangan")).toMatch(new RegExp(`^otomatis ke ${backups} tiap 1 hari, 14 terbaru disimpan, terenkripsi; terakhir \\S+ \\(0 jam lalu, skrining-auto-\\d{8}-\\d{6}Z\\.tar\\.gz\\.enc\\); berikutnya sekitar \\S+$`));
    expect(sections.get("Sertifikat")).toMatch(/^berlaku sampai \d{4}-\d\d-\d\d \(39[67] hari lagi\); sidik jari SHA-256 CA lokal [0-9A-F:]+$/);
    expect(sections.get("Hasil")).toBe("0 masalah perlu tindakan, 0 saran.");

    const ca = readFileSync(join(dataDir, "tls", "ca.crt"), "utf8");
    const health = (await (await fetch(`https://127.0.0.1:${httpsPort}/health`, { tls: { ca } })).json()) as Record<string, unknown>;
    expect(health.cadangan).toEqual({ terakhir: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/), umur_jam: 0, terenkripsi: true });
    expect(await stop(server)).toBe(0);
  }, 60_000);
});

describe("doctor names each problem with what to do, exit 1", () => {
  test("the server stopped, plain HTTP on the LAN, no backups, a file root left in the folder", async () => {
    const dataDir = join(temporaryDir("skrining-doctor-"), "data");
    expect((await cliProcess(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
    const server = await startServer({ dataDir, serveOptions: ["--host", "0.0.0.0"] });
    expect(await stop(server)).toBe(0);
    // As a restore run as root once left it, in a folder the service's account owns.
    chownSync(dataDir, 65534, 65534);

    const result = await cliProcess(dataDir, ["doctor"]);
    expect(result.exitCode).toBe(1);
    expect(outputLines(result.stderr)).toEqual([expect.stringMatching(/^skrining: 4 masalah perlu tindakan, 1 saran\. Lihat MASALAH di atas\.$/)]);
    const lines = outputLines(result.stdout);
    const after = (topic: string) => lines.slice(lines.findIndex((line) => line.startsWith(`${topic}:`)) + 1, lines.findIndex((line) => line.startsWith(`${topic}:`)) + 5).join("\n");
    expect(after("Folder data")).toContain(`MASALAH: `);
    expect(after("Folder data")).toMatch(new RegExp(`MASALAH: \\d+ file di folder data bukan milik nobody \\(mis\\. ${dataDir}/`));
    expect(after("Folder data")).toContain(`Tindakan: sudo chown -R nobody: ${dataDir}`);
    expect(after("Server")).toContain("MASALAH: Server tidak berjalan");
    expect(after("Cadangan")).toContain("MASALAH: Server dijalankan tanpa cadangan otomatis");
    expect(after("Sertifikat")).toContain(`Tindakan: sudo -u nobody skrining --data ${dataDir} tls init, lalu mulai ulang layanan`);
  }, 60_000);

  test("a database of an older schema: migrate named", async () => {
    const dataDir = olderDataFolder();
    const result = await cliProcess(dataDir, ["doctor"]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain("MASALAH: Skemanya lebih lama: perlu dimigrasi sebelum dipakai versi ini.");
    expect(result.stdout).toContain(`skrining --data ${dataDir} migrate`);
  });

  test("a data folder that does not exist: said, exit 1, nothing created", async () => {
    const dataDir = join(temporaryDir("skrining-doctor-"), "dta");
    const result = await cliProcess(dataDir, ["doctor"]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain(`Folder data: ${dataDir} tidak ada\n  MASALAH: Folder data tidak ada.`);
    expect(existsSync(dataDir)).toBe(false);
  });
});
