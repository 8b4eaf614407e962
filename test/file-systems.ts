import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { temporaryDir } from "./helpers";

// Real file system faults for the tests that need them: small tmpfs mounts, full or
// read-only. Mounting needs root (as in CI); elsewhere those tests are skipped, saying so.

/** Runs a command quietly; whether it succeeded. */
export function sh(command: string[]): boolean {
  return Bun.spawnSync(command, { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
}

/** Whether this process may mount a small file system (root in CI; not everywhere). */
export const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = temporaryDir("skrining-mount-probe-");
  const mounted = sh(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]);
  if (mounted) sh(["umount", probe]);
  return mounted;
})();

const mounts: string[] = [];

export function mountTmpfs(path: string, size: string): void {
  mkdirSync(path, { recursive: true });
  if (!sh(["mount", "-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", path])) throw new Error(`mount ${path} failed`);
  mounts.push(path);
}

export const remount = (path: string, mode: "ro" | "rw"): boolean => sh(["mount", "-o", `remount,${mode}`, path]);

/** Unmounts everything `mountTmpfs` mounted, the latest first; for a file's afterAll. */
export function unmountAll(): void {
  for (const path of mounts.splice(0).reverse()) sh(["umount", "-l", path]);
}

/** Fills the file system of `folder` to the last block; returns the filler's path. */
export function fill(folder: string): string {
  const path = join(folder, "filler");
  const file = openSync(path, "w");
  const chunk = new Uint8Array(64 * 1024);
  try {
    for (let size = chunk.length; size >= 512; size /= 2) {
      for (;;) {
        try {
          writeSync(file, chunk, 0, size);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(file);
  }
  return path;
}
