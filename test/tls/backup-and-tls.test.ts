import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
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
  expect((await runCli(["--data", target, "tls", "status"])).exitCode).toBe(0);
  expect((await runCli(["--data", target, "accounts", "list"])).stdout).toContain("admin");
});
