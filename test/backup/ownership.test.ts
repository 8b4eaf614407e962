import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BackupManifest } from "../../src/backup/manifest";
import { BackupFolder, checkBackupFolder, ownerFileName } from "../../src/backup/backup-folder";
import { dataFolderIdentity, identityFileName, resolveIdentity } from "../../src/backup/folder-identity";
import { silentLogger } from "../../src/logger";
import { temporaryDir } from "../helpers";

// Decisions §17: automatic backups rotate only archives whose manifest names their data
// folder, and serve refuses a backup folder inside its data folder or another's. A data
// folder is named by an identity that follows it when it is moved and not when it is copied.

/** A data folder (a folder with its identity written), under a parent of its own. */
function dataFolder(name = "data"): string {
  const dataDir = join(temporaryDir("skrining-owner-"), name);
  mkdirSync(dataDir);
  dataFolderIdentity(dataDir);
  return dataDir;
}

describe("a data folder's identity", () => {
  test("is made once, 0600, and stays", () => {
    const dataDir = dataFolder();
    const first = dataFolderIdentity(dataDir);
    expect(first).toMatchObject({ changed: null, path: dataDir });
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(statSync(join(dataDir, identityFileName)).mode & 0o777).toBe(0o600);
    expect(dataFolderIdentity(dataDir).id).toBe(first.id);
  });

  test("follows the folder when it is moved, with the new path", () => {
    const dataDir = dataFolder();
    const { id } = dataFolderIdentity(dataDir);
    const moved = join(temporaryDir("skrining-owner-"), "pindah");
    renameSync(dataDir, moved);
    expect(dataFolderIdentity(moved)).toEqual({ id, path: moved, changed: "moved" });
    expect(dataFolderIdentity(moved).changed).toBeNull();
  });

  test("a copy made by hand, beside an original that still has it, gets its own; the original keeps its", () => {
    const dataDir = dataFolder();
    const { id } = dataFolderIdentity(dataDir);
    const copy = join(temporaryDir("skrining-owner-"), "salinan");
    cpSync(dataDir, copy, { recursive: true });
    const copied = dataFolderIdentity(copy);
    expect(copied.changed).toBe("copy");
    expect(copied.id).not.toBe(id);
    expect(dataFolderIdentity(dataDir)).toEqual({ id, path: dataDir, changed: null });
  });

  test("resolveIdentity says what it would be without writing anything", () => {
    const dataDir = join(temporaryDir("skrining-owner-"), "baru");
    expect(resolveIdentity(dataDir).changed).toBe("new");
    mkdirSync(dataDir);
    resolveIdentity(dataDir);
    expect(() => statSync(join(dataDir, identityFileName))).toThrow();
  });
});

describe("a backup folder", () => {
  test("inside its data folder, or the data folder itself, is refused", () => {
    const dataDir = dataFolder();
    const identity = dataFolderIdentity(dataDir);
    mkdirSync(join(dataDir, "cadangan"));
    for (const folder of [join(dataDir, "cadangan"), dataDir]) {
      expect(() => checkBackupFolder(folder, dataDir, identity)).toThrow(`Folder cadangan ${folder} ada di dalam folder data ${dataDir}; cadangan harus di luar folder data`);
    }
    // Beside it is outside, whatever its name begins with.
    const beside = `${dataDir}-cadangan`;
    mkdirSync(beside);
    expect(() => checkBackupFolder(beside, dataDir, identity)).not.toThrow();
  });

  test("is claimed by the first data folder (0600 record) and refused to any other, naming the owner", () => {
    const [first, second] = [dataFolder("pertama"), dataFolder("kedua")];
    const folder = temporaryDir("skrining-backups-");
    BackupFolder.claim(folder, first, dataFolderIdentity(first), async () => ({}) as BackupManifest, silentLogger, new Date("2026-11-25T02:00:00Z"));
    const record = JSON.parse(readFileSync(join(folder, ownerFileName), "utf8"));
    expect(record).toEqual({ format: "skrining-backup-folder", dataFolder: { id: dataFolderIdentity(first).id, path: first }, claimedAt: "2026-11-25T02:00:00.000Z", archives: {} });
    expect(statSync(join(folder, ownerFileName)).mode & 0o777).toBe(0o600);
    expect(() => checkBackupFolder(folder, second, dataFolderIdentity(second))).toThrow(`Folder cadangan ${folder} sudah dipakai folder data lain (${first}, sejak 2026-11-25T02:00:00.000Z)`);
    // Its owner may claim it again, also after being moved: the record follows.
    const moved = join(temporaryDir("skrining-owner-"), "pindah");
    renameSync(first, moved);
    BackupFolder.claim(folder, moved, dataFolderIdentity(moved), async () => ({}) as BackupManifest, silentLogger);
    expect(JSON.parse(readFileSync(join(folder, ownerFileName), "utf8")).dataFolder.path).toBe(moved);
  });

  test("an owner record that cannot be read is refused rather than guessed over", () => {
    const dataDir = dataFolder();
    const folder = temporaryDir("skrining-backups-");
    writeFileSync(join(folder, ownerFileName), "{ rusak");
    expect(() => checkBackupFolder(folder, dataDir, dataFolderIdentity(dataDir))).toThrow("tidak dapat dibaca sebagai catatan pemilik folder cadangan");
  });

  test("its own archives are those whose manifest names the folder: by identity, or by path for archives of earlier versions", async () => {
    const dataDir = dataFolder();
    const identity = dataFolderIdentity(dataDir);
    const folder = temporaryDir("skrining-backups-");
    const manifests: Record<string, Partial<BackupManifest> | null> = {
      "milik-id.tar.gz": { dataDir: "/dulu/di/sini", dataFolderId: identity.id },
      "milik-path.tar.gz": { dataDir },
      "lain-id.tar.gz": { dataDir, dataFolderId: "bukan-folder-ini" },
      "lain-path.tar.gz": { dataDir: "/var/lib/skrining-uji" },
      "rusak.tar.gz": null,
    };
    const reads: string[] = [];
    const readManifest = async (archive: string) => {
      const name = archive.slice(folder.length + 1);
      reads.push(name);
      if (manifests[name] === null) throw new Error("bukan arsip cadangan yang utuh");
      return manifests[name] as BackupManifest;
    };
    for (const name of Object.keys(manifests)) writeFileSync(join(folder, name), name);
    const backups = BackupFolder.claim(folder, dataDir, identity, readManifest, silentLogger);
    const names = Object.keys(manifests);
    expect([...(await backups.own(names))].sort()).toEqual(["milik-id.tar.gz", "milik-path.tar.gz"]);
    expect(reads.sort()).toEqual([...names].sort());
    // Read once: the next rotation asks the record, until a file changes.
    reads.length = 0;
    expect([...(await backups.own(names))].sort()).toEqual(["milik-id.tar.gz", "milik-path.tar.gz"]);
    expect(reads).toEqual([]);
    utimesSync(join(folder, "lain-path.tar.gz"), new Date(), new Date(Date.now() + 60_000));
    manifests["lain-path.tar.gz"] = { dataDir, dataFolderId: identity.id };
    expect(await backups.own(names)).toContain("lain-path.tar.gz");
    expect(reads).toEqual(["lain-path.tar.gz"]);
    // One this server wrote is known without reading it.
    writeFileSync(join(folder, "baru.tar.gz"), "baru");
    backups.written("baru.tar.gz");
    reads.length = 0;
    expect(await backups.own([...names, "baru.tar.gz"])).toContain("baru.tar.gz");
    expect(reads).toEqual([]);
  });
});
