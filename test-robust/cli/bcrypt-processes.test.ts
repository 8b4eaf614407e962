import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { nativeBcrypt } from "../../src/accounts/bcrypt";
import { spawnCli, temporaryDir } from "../../test/helpers";
import { startServer, stop, stopStarted } from "../../test/server-process";

// The bcrypt a real process chooses (the addon, or bcryptjs when SKRINING_BCRYPT=javascript
// forces it): what serve says and /health reports, and a command's hashing on the fallback's
// workers. The implementations themselves: test/auth/bcrypt-implementations.test.ts.

const native = nativeBcrypt(await import("@node-rs/bcrypt"));

describe("serve says which bcrypt it uses, and /health reports it", () => {
  afterEach(stopStarted);

  async function login(port: number, username: string, secret: string): Promise<number> {
    const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password: secret }),
    });
    await response.arrayBuffer();
    return response.status;
  }

  const health = async (port: number) => (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { bcrypt: string };

  test("the addon, where it loads", async () => {
    const server = await startServer({ dataDir: temporaryDir(), env: { SKRINING_ADMIN_PASSWORD: "sandi-admin-native" } });
    expect(server.stdout()).toContain("Password diperiksa dengan bcrypt native (@node-rs/bcrypt).\n");
    expect(server.stdout()).not.toContain("bcryptjs");
    expect((await health(server.port)).bcrypt).toBe("native");
    expect(await stop(server)).toBe(0);
  });

  test("the fallback, forced: once at start, in /health, and its first admin's hash verifies with the addon", async () => {
    const dataDir = temporaryDir();
    const server = await startServer({ dataDir, env: { SKRINING_ADMIN_PASSWORD: "sandi-admin-fallback", SKRINING_BCRYPT: "javascript" } });
    const lines = server.stdout().split("\n").filter((line) => line.includes("bcrypt"));
    expect(lines).toEqual([
      "Password diperiksa dengan bcrypt JavaScript (bcryptjs), lebih lambat dari modul native (SKRINING_BCRYPT=javascript). " +
        "Hash tetap sama ($2b$); login dan impor akun memakan waktu lebih lama (docs/operations.md, bagian Passwords).",
    ]);
    expect((await health(server.port)).bcrypt).toBe("javascript");
    expect(await login(server.port, "admin", "sandi-admin-fallback")).toBe(200);
    expect(await login(server.port, "admin", "sandi-admin-salah")).toBe(401);
    expect(await stop(server)).toBe(0);

    const database = new Database(join(dataDir, "skrining.db"), { readonly: true });
    const { password_hash: hash } = database.query("SELECT password_hash FROM users WHERE username = 'admin'").get() as { password_hash: string };
    database.close();
    expect(hash).toMatch(/^\$2b\$04\$/);
    expect(await native.verify("sandi-admin-fallback", hash)).toBe(true);
  });

  test("a command on the fallback (accounts import, as its own process) hashes on the workers and then ends", async () => {
    const folder = temporaryDir();
    const dataDir = join(folder, "data");
    const file = join(folder, "akun.csv");
    writeFileSync(file, "role,username,password,nim,nip,nip_doswal,activated\ndosen,dosen.js,sandi-dosen-js,,D900,,true\nmahasiswa,mhs.js,sandi-mhs-js1,JS01,,D900,true\n");
    const imported = await spawnCli(["--data", dataDir, "accounts", "import", file], { env: { SKRINING_BCRYPT: "javascript" } });
    expect(imported.stderr).toBe("");
    expect(imported.stdout).toContain("Impor selesai: 2 akun dibuat, 0 diperbarui, 0 tidak berubah");
    expect(imported.exitCode).toBe(0);
    const database = new Database(join(dataDir, "skrining.db"), { readonly: true });
    const rows = database.query("SELECT username, password_hash FROM users ORDER BY username").all() as { username: string; password_hash: string }[];
    database.close();
    expect(rows.map((row) => row.username)).toEqual(["dosen.js", "mhs.js"]);
    expect(await native.verify("sandi-dosen-js", rows[0]!.password_hash)).toBe(true);
    expect(await native.verify("sandi-mhs-js1", rows[1]!.password_hash)).toBe(true);
  });

  test("an unknown SKRINING_BCRYPT stops the start with exit code 1 and says which values there are", async () => {
    const server = startServer({ dataDir: temporaryDir(), env: { SKRINING_BCRYPT: "cepat" } });
    const refusal = await server.catch((error: unknown) => (error as Error).message);
    expect(refusal).toContain("server exited early (1)");
    expect(refusal).toContain('skrining: SKRINING_BCRYPT harus "auto" atau "javascript" (diberikan: cepat).');
  });
});
