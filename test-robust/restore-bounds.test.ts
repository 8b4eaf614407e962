import { afterAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, statSync, statfsSync } from "node:fs";
import { join } from "node:path";
import { bytesFile, craftArchive, filesOf, zeros } from "../test/backup/crafted-archives";
import { canMount, mountTmpfs, unmountAll } from "../test/file-systems";
import { cliEnvironment, repositoryRoot, spawnCli, temporaryDir } from "../test/helpers";
import { preparedDataDir } from "./support";

// Decisions §17, the red team's restore attacks at full size: a small archive that unpacks
// into 1 GiB with a manifest that says so, and a restore killed half way.

afterAll(unmountAll);
if (!canMount) console.warn("restore-bounds.test.ts: mount is not allowed here (needs root); the 1 GiB restore is skipped.");

const megabyte = 1024 * 1024;

/** A real backup of a prepared data folder; its files and manifest for crafting. */
async function realBackup() {
  const dataDir = await preparedDataDir();
  const archive = join(temporaryDir("skrining-backup-"), "cadangan.tar.gz");
  expect((await spawnCli(["--data", dataDir, "backup", archive])).exitCode).toBe(0);
  return { archive, ...(await filesOf(archive)) };
}

test.skipIf(!canMount)("a 10 MB archive holding a 1 GiB photo with a truthful manifest, onto a disk without room: refused, nothing written", async () => {
  const { manifest, files } = await realBackup();
  const archive = join(temporaryDir("skrining-bomb-"), "bom.tar.gz");
  await craftArchive(archive, manifest, [...files, zeros("photos/N001_1_besar.jpg", 1024 * megabyte)]);
  expect(statSync(archive).size).toBeLessThan(16 * megabyte);

  const mount = temporaryDir("skrining-room-");
  mountTmpfs(mount, "512m");
  const target = join(mount, "data");
  const result = await spawnCli(["--data", target, "restore", archive]);
  expect(result.exitCode).toBe(1);
  expect(result.stderr).toContain(`Ruang disk tidak cukup untuk memulihkan ${archive} ke ${target}`);
  expect(result.stdout).toBe("");
  expect(readdirSync(mount)).toEqual([]);
  const disk = statfsSync(mount);
  expect(disk.bfree).toBe(disk.blocks);
}, 120_000);

test("a restore killed while it writes leaves its staging folder; the next restore removes it, says so, and restores", async () => {
  const { manifest, files } = await realBackup();
  // Photos that do not compress, so that writing them takes long enough to be cut off.
  const photos = [1, 2, 3].map((index) => bytesFile(`photos/N00${index}_1_foto.jpg`, randomBytes(48 * megabyte)));
  const archive = join(temporaryDir("skrining-large-"), "besar.tar.gz");
  await craftArchive(archive, manifest, [...files, ...photos]);
  const target = join(temporaryDir("skrining-restore-"), "data");

  const child = Bun.spawn([process.execPath, join(repositoryRoot, "cli", "main.ts"), "--data", target, "restore", archive], {
    cwd: repositoryRoot,
    env: cliEnvironment(),
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });
  const staging = join(target, `.restore-${child.pid}`);
  // Killed once the second reading has begun writing.
  for (const deadline = Date.now() + 60_000; !existsSync(join(staging, "skrining.db")) && child.exitCode === null && Date.now() < deadline; ) await Bun.sleep(5);
  child.kill("SIGKILL");
  await child.exited;
  expect(child.signalCode).toBe("SIGKILL");
  expect(existsSync(staging)).toBe(true);
  expect(readdirSync(target)).toEqual([`.restore-${child.pid}`]);

  const again = await spawnCli(["--data", target, "restore", archive]);
  expect(again.stderr).toBe("");
  expect(again.exitCode).toBe(0);
  expect(again.stdout.split("\n")[0]).toBe(`Sisa restore yang terputus dihapus: ${staging}`);
  expect(existsSync(staging)).toBe(false);
  expect(readdirSync(join(target, "photos")).sort()).toEqual(photos.map((photo) => photo.path.slice("photos/".length)).sort());
}, 120_000);
