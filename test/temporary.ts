import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const temporaryDirs: string[] = [];

/**
 * Where the tests' folders go, chosen once by the preload (test/setup.ts) before anything
 * asks: SKRINING_TEST_TMPDIR when set; else, when TMPDIR is not set, the memory file system
 * at /dev/shm if the system has one that may run programs (some tests run what they built
 * there). Every test database commits with `synchronous=FULL`: on a disk each commit waits
 * for a flush, which was most of a database test's time; in memory it costs nothing, and
 * what is tested (the answers, the rows, the files and their modes) is the same. The choice
 * is made through TMPDIR, so that the processes the tests start use the same place.
 */
export function chooseTemporaryBase(environment: NodeJS.ProcessEnv = process.env): void {
  const chosen = environment.SKRINING_TEST_TMPDIR || (environment.TMPDIR ? undefined : memoryFolder());
  if (chosen) environment.TMPDIR = chosen;
}

function memoryFolder(): string | undefined {
  const path = "/dev/shm";
  try {
    if (!statSync(path).isDirectory()) return undefined;
    const mount = readFileSync("/proc/self/mounts", "utf8")
      .split("\n")
      .map((line) => line.split(" "))
      .find(([, target, type]) => target === path && type === "tmpfs");
    return mount && !mount[3]!.split(",").includes("noexec") ? path : undefined;
  } catch {
    return undefined;
  }
}

export function temporaryDir(prefix = "skrining-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporaryDirs.push(dir);
  return dir;
}

/** Run once after every test file (bunfig.toml preloads test/setup.ts). */
export function removeTemporaryDirs(): void {
  for (const dir of temporaryDirs.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A folder a robustness test left mounted or read-only stays for the system to clear.
    }
  }
}
