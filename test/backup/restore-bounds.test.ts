import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openArchive, readContents } from "../../src/backup/archive-reader";
import { extractWithinManifest } from "../../src/backup/extract";
import { manifestTotal, type BackupManifest } from "../../src/backup/manifest";
import { cli, csvFile } from "../cli/support";
import { canMount, mountTmpfs, unmountAll } from "../file-systems";
import { standardAccounts, temporaryDir } from "../helpers";
import { bytesFile, craftArchive, filesOf, zeros, type CraftedFile } from "./crafted-archives";

// Decisions §17: restore never writes more than the manifest declares, refuses what does
// not fit the data folder's disk with its margin, and removes what an interrupted restore
// left. The 1 GiB case of the red team is in test-robust/backup.test.ts.

afterAll(unmountAll);
if (!canMount) console.warn("restore-bounds.test.ts: mount is not allowed here (needs root); the disk-room tests are skipped.");

const megabyte = 1024 * 1024;
let archive: string;
let real: { files: CraftedFile[]; manifest: BackupManifest };

beforeAll(async () => {
  const dataDir = join(temporaryDir("skrining-bounds-"), "data");
  expect((await cli(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
  archive = join(temporaryDir("skrining-bounds-"), "cadangan.tar.gz");
  expect((await cli(dataDir, ["backup", archive])).exitCode).toBe(0);
  real = await filesOf(archive);
});

/** The real backup's files, then `extra`, with a manifest changed by `declare`; its path. */
async function crafted(extra: CraftedFile[], declare?: Parameters<typeof craftArchive>[3]): Promise<string> {
  const path = join(temporaryDir("skrining-crafted-"), "buatan.tar.gz");
  await craftArchive(path, real.manifest, [...real.files, ...extra], declare);
  return path;
}

/** Every file under a folder with its size, by relative path. */
function sizes(folder: string, prefix = ""): Record<string, number> {
  const found: Record<string, number> = {};
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) Object.assign(found, sizes(path, `${prefix}${entry.name}/`));
    else found[`${prefix}${entry.name}`] = statSync(path).size;
  }
  return found;
}

describe("a manifest that lies", () => {
  const photo = bytesFile("photos/N001_1_besar.jpg", Buffer.alloc(2 * megabyte, 1));
  const smaller = (file: { path: string; size: number; sha256: string }) => (file.path === photo.path ? { ...file, size: 1000 } : file);

  test("about a file's size: refused by the first reading, nothing written, not even the folder", async () => {
    const path = await crafted([photo], smaller);
    const target = join(temporaryDir("skrining-restore-"), "data");
    const result = await cli(target, ["restore", path]);
    expect(result.stderr).toContain(`${photo.path} tidak sama dengan checksum di manifest`);
    expect(result.exitCode).toBe(1);
    expect(existsSync(target)).toBe(false);
  });

  test.each([
    ["a program name that clears the screen", { program: "skrining 9.9.9\u001b[2J" }],
    ["a data folder with a line break", { dataDir: "/srv/data\nskrining: dipulihkan" }],
  ])("with %s (printed to a terminal): refused", async (_case, change) => {
    const path = join(temporaryDir("skrining-crafted-"), "buatan.tar.gz");
    await craftArchive(path, { ...real.manifest, ...change }, real.files);
    const target = join(temporaryDir("skrining-restore-"), "data");
    const result = await cli(target, ["restore", path]);
    expect(result.stderr).toBe(`skrining: ${path}: manifest cadangan tidak lengkap.\n`);
    expect(result.exitCode).toBe(1);
    expect(existsSync(target)).toBe(false);
  });

  test("an entry whose name holds control characters is named with them shown as ?", async () => {
    const name = "photos/\u001b[31mmerah.jpg";
    // Listed under a plain name, so that the manifest itself is readable.
    const path = await crafted([bytesFile(name, Buffer.from("x"))], (file) => (file.path === name ? { ...file, path: "photos/merah.jpg" } : file));
    const result = await cli(join(temporaryDir("skrining-restore-"), "data"), ["restore", path]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("photos/?[31mmerah.jpg tidak tercantum di manifest");
    expect(result.stderr).not.toContain("\u001b");
  });

  test("a folder given as the archive: refused", async () => {
    const folder = temporaryDir("skrining-not-archive-");
    const result = await cli(join(temporaryDir("skrining-restore-"), "data"), ["restore", folder]);
    expect(result.stderr).toBe(`skrining: ${folder} adalah folder, bukan arsip cadangan.\n`);
    expect(result.exitCode).toBe(1);
  });

  test("the second reading stops at the first entry larger than the manifest it is given, before a byte of it", async () => {
    const path = await crafted([photo]);
    const opened = await openArchive(path);
    const folder = temporaryDir("skrining-staging-");
    const manifest = { ...real.manifest, files: [...real.manifest.files, { path: photo.path, size: 1000, sha256: "0".repeat(64) }] };
    try {
      await expect(extractWithinManifest(opened, folder, manifest, JSON.stringify(manifest))).rejects.toThrow(
        `${path}: ${photo.path} lebih besar dari 1000 byte yang dinyatakan manifest; pemulihan dihentikan di file itu.`,
      );
    } finally {
      await opened.close();
    }
    const written = sizes(folder);
    expect(written[photo.path]).toBeUndefined();
    expect(Object.values(written).reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(manifestTotal(manifest));
  });

  test("an archive whose manifest changed after the first reading is refused by the second", async () => {
    const opened = await openArchive(archive);
    try {
      await expect(extractWithinManifest(opened, temporaryDir("skrining-staging-"), real.manifest, JSON.stringify(real.manifest))).rejects.toThrow(
        `${archive} berubah saat dipulihkan (manifest lain); tidak ada yang dipulihkan.`,
      );
    } finally {
      await opened.close();
    }
  });
});

describe("what an interrupted restore left", () => {
  /** A data folder holding a staging folder `.restore-<pid>` with part of a database in it. */
  function leftOver(pid: number): { target: string; staging: string } {
    const target = join(temporaryDir("skrining-restore-"), "data");
    const staging = join(target, `.restore-${pid}`);
    mkdirSync(join(staging, "photos"), { recursive: true });
    writeFileSync(join(staging, "skrining.db"), "setengah");
    return { target, staging };
  }

  test("of a process that is gone is removed by the next restore, which says so and then takes the folder as empty", async () => {
    const gone = Bun.spawnSync(["true"]).pid;
    const { target, staging } = leftOver(gone);
    const result = await cli(target, ["restore", archive]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe(`Sisa restore yang terputus dihapus: ${staging}`);
    expect(existsSync(staging)).toBe(false);
    expect(readdirSync(target).filter((name) => name.startsWith(".restore-"))).toEqual([]);
    expect(readdirSync(target)).toContain("skrining.db");
  });

  test("of a process that still runs (another restore) is a refusal, and stays", async () => {
    const running = Bun.spawn(["sleep", "60"]);
    try {
      const { target, staging } = leftOver(running.pid);
      const result = await cli(target, ["restore", archive]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(`${staging} milik restore lain yang masih berjalan (proses ${running.pid})`);
      expect(readdirSync(target)).toEqual([`.restore-${running.pid}`]);
      expect(readdirSync(staging).sort()).toEqual(["photos", "skrining.db"]);
    } finally {
      running.kill();
    }
  });
});

describe.skipIf(!canMount)("the room on the data folder's disk", () => {
  test("files that do not fit with the margin (10% and 64 MB) are refused before anything is written", async () => {
    const mount = temporaryDir("skrining-room-");
    mountTmpfs(mount, "96m");
    // 64 MB of photo packed into well under 1 MB, with a manifest that tells the truth.
    const path = await crafted([zeros("photos/N001_1_besar.jpg", 64 * megabyte)]);
    expect(statSync(path).size).toBeLessThan(megabyte);
    const target = join(mount, "data");
    const result = await cli(target, ["restore", path]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Ruang disk tidak cukup untuk memulihkan ${path} ke ${target}`);
    expect(result.stderr).toContain("tidak ada yang dipulihkan");
    expect(readdirSync(mount)).toEqual([]);

    // An ordinary backup fits the same disk.
    const restored = await cli(target, ["restore", archive]);
    expect(restored.stderr).toBe("");
    expect(restored.exitCode).toBe(0);
  });

  test("a disk that fills while the files are written (by someone else) ends the reading with the disk's own error", async () => {
    const mount = temporaryDir("skrining-room-");
    mountTmpfs(mount, "1m");
    const path = await crafted([bytesFile("photos/N001_1_besar.jpg", Buffer.alloc(2 * megabyte, 3))]);
    const opened = await openArchive(path);
    const { manifest, manifestText } = await readContents(opened);
    try {
      await expect(extractWithinManifest(opened, mount, manifest, manifestText)).rejects.toMatchObject({ code: "ENOSPC" });
    } finally {
      await opened.close();
    }
  });
});
