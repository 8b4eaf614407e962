import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { chooseBcrypt, javascriptBcrypt, nativeBcrypt, type Bcrypt } from "../../src/accounts/bcrypt";
import { defaultBcryptCost } from "../../src/config";
import { ServiceError } from "../../src/errors";
import { spawnCli, temporaryDir } from "../helpers";
import { startServer, stop, stopStarted } from "../server-process";

// The native addon and its fallback, bcryptjs, must be interchangeable on one database:
// a hash written by either at the project's cost verifies with the other. The fallback is
// chosen when the addon does not load (a loader that fails stands for that here) or when
// SKRINING_BCRYPT=javascript forces it (the real process below).

const native = nativeBcrypt(await import("@node-rs/bcrypt"));
const javascript = javascriptBcrypt();
const implementations: [string, Bcrypt][] = [
  ["native", native],
  ["javascript", javascript],
];
const password = "kata-sandi Ünik 123";
const standardHash = /^\$2b\$10\$[./A-Za-z0-9]{53}$/;

describe.each([
  ["native", native, javascript],
  ["javascript", javascript, native],
] as const)("a hash made by the %s bcrypt at the project's cost", (_name, maker, checker) => {
  test(`is a standard $2b$ hash of cost ${defaultBcryptCost} that the other verifies, and refuses a wrong password`, async () => {
    const hash = await maker.hash(password, defaultBcryptCost);
    expect(hash).toMatch(standardHash);
    expect(await checker.verify(password, hash)).toBe(true);
    expect(await checker.verify("kata-sandi Ünik 124", hash)).toBe(false);
    expect(await checker.verify("", hash)).toBe(false);
  });
});

// Every bcrypt variant a roster import may bring (the same hashes as bcrypt-hashes.test.ts: `rahasia123`, cost 4).
const foreignHashes = [
  "$2a$04$eb6FrOyTnqdxaI75i.GvR.luDbXLUQWGwZpLdZrbGKWbYF.Ndvpfu",
  "$2b$04$DCbMJVXQxQsHHrXgyKapFOU4vGypFspFH7COYSc/WNdLWK2BJX.L2",
  "$2y$04$ZgjT3DphOvFEJrpX/fEriuqNDwlA3rwcP5i2KuplpCmR2/SyR/Cxq",
];

describe.each(implementations)("the %s bcrypt", (_name, bcrypt) => {
  test.each(foreignHashes)("reads %s", async (hash) => {
    expect(await bcrypt.verify("rahasia123", hash)).toBe(true);
    expect(await bcrypt.verify("rahasia124", hash)).toBe(false);
  });

  test("never accepts a damaged hash (it answers false or rejects; the login maps both to a wrong password)", async () => {
    const right = foreignHashes[1]!;
    for (const damaged of ["$2b$10$rusak", right.slice(0, -1), right.replace("$04$", "$99$"), right.replace("$2b$", "$2q$")]) {
      expect(await bcrypt.verify("rahasia123", damaged).catch(() => "rejected")).not.toBe(true);
    }
  });
});

test("the fallback's worker threads take more tasks at once than there are threads, each answered with its own result", async () => {
  const passwords = Array.from({ length: 12 }, (_, index) => `sandi-paralel-${index}`);
  const hashes = await Promise.all(passwords.map((each) => javascript.hash(each, 4)));
  expect(new Set(hashes).size).toBe(passwords.length);
  const checks = await Promise.all(hashes.flatMap((hash, index) => [javascript.verify(passwords[index]!, hash), javascript.verify(passwords[(index + 1) % passwords.length]!, hash)]));
  expect(checks).toEqual(passwords.flatMap(() => [true, false]));
  for (const [index, hash] of hashes.entries()) expect(await native.verify(passwords[index]!, hash)).toBe(true);
});

test("a fallback worker that fails fails its own task with the reason, and the next task gets a new worker", async () => {
  const folder = temporaryDir();
  const broken = join(folder, "rusak.ts");
  writeFileSync(broken, 'throw new Error("pekerja rusak");\n');
  const failing = javascriptBcrypt(undefined, new URL(`file://${broken}`));
  // More tasks than the pool has threads: without a replacement for each failed worker, one would wait forever.
  for (let attempt = 0; attempt <= availableParallelism(); attempt++) {
    const refusal = await failing.hash("sandi-apa-saja", 4).catch((error: unknown) => error as Error);
    expect(refusal).toBeInstanceOf(Error);
    expect((refusal as Error).message).toStartWith("bcryptjs worker: ");
    expect((refusal as Error).message).toContain("pekerja rusak");
  }
});

describe("chooseBcrypt", () => {
  test("uses the addon when it loads", async () => {
    const chosen = await chooseBcrypt(undefined);
    expect(chosen.implementation).toBe("native");
    expect(chosen.fallbackReason).toBeUndefined();
  });

  test("falls back to bcryptjs when the addon does not load, and says why: the loader's first sentence and its innermost cause", async () => {
    // As the addon's loader reports it in the Windows executable under Wine.
    const failure = new Error("Cannot find native binding. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828). Please try `npm i` again.", {
      cause: new Error("Cannot find module '@node-rs/bcrypt-wasm32-wasi'", { cause: Object.assign(new Error("LoadLibrary failed: Module not found.\nsecond line"), { cause: null }) }),
    });
    const chosen = await chooseBcrypt("auto", () => Promise.reject(failure));
    expect(chosen.implementation).toBe("javascript");
    expect(chosen.fallbackReason).toBe(`modul bcrypt untuk ${process.platform}-${process.arch} tidak dapat dimuat: Cannot find native binding. ← LoadLibrary failed: Module not found.`);
    const hash = await chosen.hash(password, 4);
    expect(await native.verify(password, hash)).toBe(true);
  });

  test("a failure without a cause is named by its own first sentence, and a thrown non-error too", async () => {
    expect((await chooseBcrypt(undefined, () => Promise.reject(new Error("dlopen failed. Details follow.")))).fallbackReason).toEndWith("tidak dapat dimuat: dlopen failed.");
    expect((await chooseBcrypt(undefined, () => Promise.reject("tanpa objek"))).fallbackReason).toEndWith("tidak dapat dimuat: tanpa objek");
  });

  test("SKRINING_BCRYPT=javascript uses bcryptjs without trying the addon", async () => {
    let tried = false;
    const chosen = await chooseBcrypt("javascript", async () => {
      tried = true;
      return import("@node-rs/bcrypt");
    });
    expect(chosen.implementation).toBe("javascript");
    expect(chosen.fallbackReason).toBe("SKRINING_BCRYPT=javascript");
    expect(tried).toBe(false);
  });

  test("an unknown SKRINING_BCRYPT is refused, not guessed", async () => {
    for (const setting of ["native", "bcryptjs", "JAVASCRIPT"]) {
      const refusal = await chooseBcrypt(setting).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ServiceError);
      expect((refusal as Error).message).toBe(`SKRINING_BCRYPT harus "auto" atau "javascript" (diberikan: ${setting}).`);
    }
  });
});

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
