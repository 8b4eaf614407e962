import { afterEach, expect, test } from "bun:test";
import { chmodSync, chownSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { cliEnvironment, repositoryRoot, standardAccounts, temporaryDir } from "../../test/helpers";
import { freePort } from "../../test/server-process";
import { cliProcess, csvFile, outputLines } from "../../test/cli/support";
import { serviceAccountUnavailable, serviceUid } from "../support";

// Issue 44, item 4: `restore --force` run as root (these tests run as root) over the folder
// of a service that runs as its own account left root's files there, and the service then
// exited 3 on `EPERM … chmod photos`, which systemd does not retry. Restore gives what it
// wrote to the folder's owner and says so.

const unavailable = serviceAccountUnavailable();
if (unavailable) console.warn(`restore-owner: skipped, ${unavailable}`);
const running: ReturnType<typeof Bun.spawn>[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) {
    child.kill("SIGTERM");
    await child.exited;
  }
});

/** Every entry under `folder` (itself included) whose owner is not `uid`. */
function ownedByOthers(folder: string, uid: number): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const stats = lstatSync(path);
    if (stats.uid !== uid) found.push(path);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(folder);
  return found;
}

/** Gives the folder and everything in it to `uid`, as the service's own files are. */
function giveTo(folder: string, uid: number): void {
  chownSync(folder, uid, uid);
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (lstatSync(path).isDirectory()) giveTo(path, uid);
    else chownSync(path, uid, uid);
  }
}

/** serve as the service's account: whether it starts and answers /health (it exited 3 before). */
async function serveAsService(dataDir: string): Promise<{ status: number | null; stderr: string }> {
  const port = await freePort();
  const child = Bun.spawn(
    ["setpriv", `--reuid=${serviceUid}`, `--regid=${serviceUid}`, "--clear-groups", process.execPath, join(repositoryRoot, "cli", "main.ts"), "--data", dataDir, "serve", "--host", "127.0.0.1", "--port", String(port)],
    { cwd: repositoryRoot, env: cliEnvironment({ TMPDIR: join(dataDir, "..") }), stdin: "ignore", stdout: "pipe", stderr: "pipe" },
  );
  running.push(child);
  for (const deadline = Date.now() + 20_000; Date.now() < deadline && child.exitCode === null; await Bun.sleep(50)) {
    const answer = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
    if (answer) return { status: answer.status, stderr: "" };
  }
  return { status: child.exitCode, stderr: await new Response(child.stderr).text() };
}

test.skipIf(unavailable !== null)("restore --force as root into a folder the service's account owns: every file stays that account's, the service starts, and the output says so", async () => {
  const parent = temporaryDir("skrining-restore-root-");
  chmodSync(parent, 0o755);
  const dataDir = join(parent, "data");
  expect((await cliProcess(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
  const archive = join(temporaryDir("skrining-archive-"), "cadangan.tar.gz");
  expect((await cliProcess(dataDir, ["backup", archive])).exitCode).toBe(0);
  giveTo(dataDir, serviceUid);

  const result = await cliProcess(dataDir, ["restore", archive, "--force"]);
  expect(result.stderr).toBe("");
  expect(result.exitCode).toBe(0);
  expect(outputLines(result.stdout).at(-1)).toMatch(
    new RegExp(
      `^Dijalankan sebagai root: \\d+ file dan folder yang ditulis restore diberikan kepada nobody, pemilik ${dataDir}, agar layanan dapat membukanya\\. ` +
        `Lain kali jalankan sebagai pemiliknya: sudo -u nobody skrining --data ${dataDir} restore …\\.$`,
    ),
  );
  expect(ownedByOthers(dataDir, serviceUid)).toEqual([]);
  const aside = readdirSync(parent).find((name) => name.startsWith("data.before-restore-"))!;
  expect(ownedByOthers(join(parent, aside), serviceUid)).toEqual([]);
  expect(await serveAsService(dataDir)).toEqual({ status: 200, stderr: "" });
}, 60_000);
