import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const temporaryDirs: string[] = [];

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
