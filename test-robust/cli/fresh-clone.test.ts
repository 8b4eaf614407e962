import { beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { cliEnvironment, repositoryRoot, temporaryDir } from "../../test/helpers";
import { freePort } from "../../test/server-process";

// The README promises that `bun cli/main.ts <command>` behaves like the executable. On a
// fresh clone nothing has been built yet (no src/http/web-assets.generated.ts, no dist/):
// every command works there, and `serve` answers the API while its pages say what to run.

let clone: string;

beforeAll(() => {
  clone = temporaryDir("skrining-clone-");
  // What `git clone` gives: the files git knows (committed or about to be), nothing ignored.
  const listed = Bun.spawnSync(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: repositoryRoot });
  for (const path of listed.stdout.toString().split("\0").filter(Boolean)) {
    if (!existsSync(join(repositoryRoot, path))) continue;
    mkdirSync(dirname(join(clone, path)), { recursive: true });
    cpSync(join(repositoryRoot, path), join(clone, path));
  }
  // `npm install`, without installing again.
  symlinkSync(join(repositoryRoot, "node_modules"), join(clone, "node_modules"));
});

const run = (args: string[]) => {
  const result = Bun.spawnSync([process.execPath, "cli/main.ts", ...args], { cwd: clone, env: cliEnvironment(), stdout: "pipe", stderr: "pipe" });
  return { exitCode: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
};

describe("bun cli/main.ts from a fresh clone, before any build", () => {
  test("the clone has no generated web module", () => {
    expect(existsSync(join(clone, "src", "http", "web-assets.generated.ts"))).toBe(false);
    expect(existsSync(join(clone, "dist"))).toBe(false);
  });

  test("commands work: --version, accounts add, accounts list", () => {
    expect(run(["--version"])).toMatchObject({ exitCode: 0, stderr: "" });
    expect(run(["--data", "data", "accounts", "add", "--role", "admin", "--username", "kepala", "--password", "sandi-kepala-1"])).toMatchObject({ exitCode: 0, stderr: "" });
    const listed = run(["--data", "data", "accounts", "list"]);
    expect(listed).toMatchObject({ exitCode: 0, stderr: "" });
    expect(listed.stdout).toContain("kepala");
  });

  test("serve answers the API; a page says the web interface is not built and what to run", async () => {
    const port = await freePort();
    const child = Bun.spawn([process.execPath, "cli/main.ts", "--data", "data-serve", "serve", "--host", "127.0.0.1", "--port", String(port)], {
      cwd: clone,
      env: cliEnvironment({ SKRINING_ADMIN_PASSWORD: "sandi-admin-1" }),
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      let me: Response | undefined;
      for (const deadline = Date.now() + 20_000; !me && Date.now() < deadline; ) me = await fetch(`http://127.0.0.1:${port}/api/auth/me`).catch(() => Bun.sleep(100).then(() => undefined));
      expect(me?.status).toBe(401);
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(503);
      const text = await page.text();
      expect(text).toContain("Antarmuka web belum dibangun");
      expect(text).toContain("npm run build:web");
      expect((await fetch(`http://127.0.0.1:${port}/assets/main.js`)).status).toBe(404);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await child.exited).toBe(0);
    expect(await new Response(child.stderr).text()).toContain("Antarmuka web belum dibangun");
  }, 30_000);
});
