import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { runCli, temporaryDir } from "../helpers";
import { tlsFiles, tlsInit } from "./support";

// `tls/` belongs to the PC (decisions §18): a backup does not carry the CA's key, and a
// restore leaves the `tls/` already in the data folder where it is.

test("a backup does not carry tls/; a restore into a folder that has one keeps it, without --force", async () => {
  const source = temporaryDir();
  expect((await runCli(["--data", source, "accounts", "add", "--role", "admin", "--username", "admin", "--password", "admin-pass-1", "--activated"])).exitCode).toBe(0);
  await tlsInit(source);
  const archive = join(temporaryDir(), "cadangan.tar.gz");
  expect((await runCli(["--data", source, "backup", archive])).exitCode).toBe(0);
  const listed = execFileSync("tar", ["tzf", archive], { encoding: "utf8" });
  expect(listed).toContain("data/secret");
  expect(listed).not.toContain("tls");

  const target = temporaryDir();
  await tlsInit(target);
  const authority = readFileSync(tlsFiles(target).ca, "utf8");
  const restored = await runCli(["--data", target, "restore", archive]);
  expect({ exitCode: restored.exitCode, stderr: restored.stderr }).toEqual({ exitCode: 0, stderr: "" });
  expect(readFileSync(tlsFiles(target).ca, "utf8")).toBe(authority);
  // The data's token key is not the backup's (decisions §21); the PC's CA is the one it had.
  expect(readFileSync(join(target, "secret"), "utf8")).not.toBe(readFileSync(join(source, "secret"), "utf8"));
  expect((await runCli(["--data", target, "tls", "status"])).exitCode).toBe(0);
  expect((await runCli(["--data", target, "accounts", "list"])).stdout).toContain("admin");
});

// With decisions §21: the restore's new token key and ended sessions leave tls/ alone, and
// the PC's tls/ does not keep --keep-sessions from recognising the folder the backup is of.
test("a restore over the folder the backup is of: tls/ stays in place (not moved aside), with a new token key, or the old one under --keep-sessions", async () => {
  const dataDir = temporaryDir();
  expect((await runCli(["--data", dataDir, "accounts", "add", "--role", "admin", "--username", "admin", "--password", "admin-pass-1", "--activated"])).exitCode).toBe(0);
  await tlsInit(dataDir);
  const files = tlsFiles(dataDir);
  const pair = () => [files.ca, files.caKey, files.certificate, files.key].map((file) => readFileSync(file, "utf8"));
  const before = pair();
  const secret = readFileSync(join(dataDir, "secret"), "utf8");
  const archive = join(temporaryDir(), "cadangan.tar.gz");
  expect((await runCli(["--data", dataDir, "backup", archive])).exitCode).toBe(0);

  const renewedKey = await runCli(["--data", dataDir, "restore", archive, "--force"]);
  expect({ exitCode: renewedKey.exitCode, stderr: renewedKey.stderr }).toEqual({ exitCode: 0, stderr: "" });
  expect(renewedKey.stdout).toContain("Kunci token baru dibuat");
  expect(readFileSync(join(dataDir, "secret"), "utf8")).not.toBe(secret);
  expect(pair()).toEqual(before);
  const aside = /dipindahkan ke (\S+) /.exec(renewedKey.stdout)![1]!;
  expect(readdirSync(aside)).not.toContain("tls");
  // Its name has the second in it: out of the way of the next restore within that second.
  rmSync(aside, { recursive: true });

  const secretNow = readFileSync(join(dataDir, "secret"), "utf8");
  const kept = await runCli(["--data", dataDir, "restore", archive, "--force", "--keep-sessions"]);
  expect({ exitCode: kept.exitCode, stderr: kept.stderr }).toEqual({ exitCode: 0, stderr: "" });
  expect(readFileSync(join(dataDir, "secret"), "utf8")).toBe(secret);
  expect(readFileSync(join(dataDir, "secret"), "utf8")).not.toBe(secretNow);
  expect(pair()).toEqual(before);
});
