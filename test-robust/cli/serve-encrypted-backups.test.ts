import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { backupChildCommand } from "../../src/backup/child-process";
import { automaticBackupName } from "../../src/backup/backup-names";
import { ownerFileName } from "../../src/backup/backup-folder";
import { standardAccounts, temporaryDir } from "../../test/helpers";
import { serveInProcess, stop, stopStarted } from "../../test/server-process";
import { cli, csvFile } from "../../test/cli/support";

// Decisions §17: serve's automatic backups are encrypted with --backup-passphrase-file F,
// read once at start (a missing file stops the start, saying how to make one); the child
// that writes each backup gets the passphrase in its environment, never on its command line.

afterEach(stopStarted);

const passphrase = "kunci cadangan otomatis 2026";

function passphraseFile(text = `${passphrase}\n`, mode = 0o600): string {
  const path = join(temporaryDir("skrining-passphrase-"), "backup-passphrase");
  writeFileSync(path, text, { mode });
  return path;
}

async function dataFolder(): Promise<string> {
  const dataDir = join(temporaryDir("skrining-serve-enc-"), "data");
  expect((await cli(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
  return dataDir;
}

const encryptedBackups = (folder: string) => readdirSync(folder).filter((name) => /^skrining-auto-\d{8}-\d{6}Z\.tar\.gz\.enc$/.test(name)).sort();

/** Serves with encrypted automatic backups every second into `folder` until `count` were saved; the server's output. */
async function serveEncrypted(dataDir: string, folder: string, file: string, count: number, keep = 14): Promise<string> {
  const server = await serveInProcess({ dataDir, serveOptions: ["--backup-dir", folder, "--backup-every", "1s", "--backup-keep", String(keep), "--backup-passphrase-file", file] });
  const saved = () => server.stdout().split("\n").filter((line) => line.startsWith("Cadangan otomatis tersimpan")).length;
  for (const deadline = Date.now() + 30_000; saved() < count && Date.now() < deadline; ) await Bun.sleep(100);
  expect(await stop(server)).toBe(0);
  expect(server.stderr()).toBe("");
  expect(saved()).toBeGreaterThanOrEqual(count);
  return server.stdout();
}

describe("serve --backup-passphrase-file", () => {
  test("writes encrypted automatic backups (….tar.gz.enc, 0600) that restore with that passphrase; the banner says they are encrypted", async () => {
    const dataDir = await dataFolder();
    const folder = temporaryDir("skrining-auto-enc-");
    const file = passphraseFile();
    const output = await serveEncrypted(dataDir, folder, file, 2);
    expect(output).toContain(`cadangan otomatis ke ${folder} tiap 1 detik, 14 terakhir disimpan, terenkripsi.`);
    expect(output).not.toContain("sebaiknya terenkripsi");
    expect(output).not.toContain(passphrase);
    const archives = encryptedBackups(folder);
    expect(archives.length).toBeGreaterThanOrEqual(2);
    expect(readdirSync(folder).filter((name) => name.endsWith(".tar.gz"))).toEqual([]);
    for (const name of archives) {
      expect(readFileSync(join(folder, name)).subarray(0, 8).toString("latin1")).toBe("SKRENC01");
      expect(statSync(join(folder, name)).mode & 0o777).toBe(0o600);
    }
    const restored = join(temporaryDir("skrining-restore-"), "data");
    const result = await cli(restored, ["restore", join(folder, archives.at(-1)!), "--passphrase-file", file]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
  }, 60_000);

  test("the rotation reads older encrypted archives with the passphrase: this folder's are rotated, one it cannot read is kept", async () => {
    const dataDir = await dataFolder();
    const folder = temporaryDir("skrining-auto-enc-");
    const file = passphraseFile();
    const [older, foreign] = [3, 2].map((daysAgo) => automaticBackupName(new Date(Date.now() - daysAgo * 86_400_000), true)) as [string, string];
    // Written by hand before serve knew of them: one with the server's passphrase, one with another.
    expect((await cli(dataDir, ["backup", join(folder, older), "--encrypt"], { env: { SKRINING_BACKUP_PASSPHRASE: passphrase } })).exitCode).toBe(0);
    expect((await cli(dataDir, ["backup", join(folder, foreign), "--encrypt"], { env: { SKRINING_BACKUP_PASSPHRASE: "passphrase yang lain sama sekali" } })).exitCode).toBe(0);
    await serveEncrypted(dataDir, folder, file, 3, 1);
    const left = encryptedBackups(folder);
    expect(left).not.toContain(older);
    expect(left).toContain(foreign);
    expect(left.filter((name) => name !== foreign)).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(folder, ownerFileName), "utf8")).archives[foreign]).toMatchObject({ unreadable: true });
  }, 60_000);

  const refusals: [string, () => string[], string][] = [
    ["a passphrase file that does not exist, saying how to make one", () => ["--backup-passphrase-file", "/etc/skrining-uji/backup-passphrase"], 'File passphrase cadangan /etc/skrining-uji/backup-passphrase tidak ada; buat dulu file itu berisi satu baris passphrase (minimal 12 karakter)'],
    ["a short passphrase", () => ["--backup-passphrase-file", passphraseFile("pendek\n")], "Passphrase cadangan minimal 12 karakter."],
    ["a passphrase file every user may read", () => ["--backup-passphrase-file", passphraseFile(undefined, 0o644)], "dapat dibaca semua pengguna"],
  ];

  test.each(refusals)("refuses %s: one line, exit 1, nothing created", async (_case, options, message) => {
    const dataDir = join(temporaryDir("skrining-serve-enc-"), "data");
    const folder = temporaryDir("skrining-auto-enc-");
    const result = await cli(dataDir, ["serve", "--port", "0", "--backup-dir", folder, ...options()]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trimEnd().split("\n")).toEqual([expect.stringContaining(message)]);
    expect(existsSync(dataDir)).toBe(false);
    expect(readdirSync(folder)).toEqual([]);
  });

  test("is refused without --backup-dir", async () => {
    const dataDir = join(temporaryDir("skrining-serve-enc-"), "data");
    const result = await cli(dataDir, ["serve", "--port", "0", "--backup-passphrase-file", passphraseFile()]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("hanya berlaku bersama --backup-dir");
  });
});

describe("the child process that writes an automatic backup", () => {
  const environment = { PATH: "/usr/bin", SKRINING_BACKUP_PASSPHRASE: "dari shell admin" };

  test("encrypting: `backup --encrypt <target>`, the passphrase in its environment and nowhere on its command line", () => {
    const command = backupChildCommand("/srv/data", environment, passphrase);
    const args = command.args("/srv/cadangan/skrining-auto-20261125-020000Z.tar.gz.enc");
    expect(args.slice(-5)).toEqual(["--data", "/srv/data", "backup", "--encrypt", "/srv/cadangan/skrining-auto-20261125-020000Z.tar.gz.enc"]);
    expect(args.join(" ")).not.toContain(passphrase);
    expect(command.env).toEqual({ PATH: "/usr/bin", SKRINING_BACKUP_PASSPHRASE: passphrase });
  });

  test("plain: no --encrypt, and no passphrase the server inherited", () => {
    const command = backupChildCommand("/srv/data", environment);
    expect(command.args("/srv/x.tar.gz").slice(-4)).toEqual(["--data", "/srv/data", "backup", "/srv/x.tar.gz"]);
    expect(command.env).toEqual({ PATH: "/usr/bin" });
  });
});
