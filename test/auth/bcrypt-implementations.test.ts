import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { chooseBcrypt, javascriptBcrypt, nativeBcrypt, type Bcrypt } from "../../src/accounts/bcrypt";
import { defaultBcryptCost } from "../../src/config";
import { ServiceError } from "../../src/errors";
import { temporaryDir } from "../helpers";

// The native addon and its fallback, bcryptjs, must be interchangeable on one database:
// a hash written by either at the project's cost verifies with the other. The fallback is
// chosen when the addon does not load (a loader that fails stands for that here) or when
// SKRINING_BCRYPT=javascript forces it (the real processes: test-robust/cli/bcrypt-processes.test.ts).

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
