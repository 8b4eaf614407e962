import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import packageJson from "../../package.json";
import { releaseNotes, releases } from "../../src/changelog";
import { repositoryRoot, runCli } from "../helpers";

// Issue 44, item 7: releases have a version a faculty can tell apart (semver) and a
// CHANGELOG.md it can read, which the build embeds (`skrining changelog`; the compiled
// executable: test-robust/cli/executable-build.test.ts).

const semver = /^(\d+)\.(\d+)\.(\d+)$/;
const parts = (version: string) => semver.exec(version)!.slice(1).map(Number) as [number, number, number];
const newer = (a: string, b: string) => {
  const [x, y] = [parts(a), parts(b)];
  return x[0] !== y[0] ? x[0] > y[0] : x[1] !== y[1] ? x[1] > y[1] : x[2] > y[2];
};

describe("the release's version and its notes", () => {
  test("package.json's version is a semantic version of a release (1.0.0 or later), and package-lock.json says the same", () => {
    expect(packageJson.version).toMatch(semver);
    expect(parts(packageJson.version)[0]).toBeGreaterThanOrEqual(1);
    const lock = JSON.parse(readFileSync(join(repositoryRoot, "package-lock.json"), "utf8"));
    expect([lock.version, lock.packages[""].version]).toEqual([packageJson.version, packageJson.version]);
  });

  test("CHANGELOG.md's newest section is this version, with its date; the sections are newest first", () => {
    const versions = releases();
    expect(versions[0]).toBe(packageJson.version);
    for (let index = 1; index < versions.length; index++) expect(newer(versions[index - 1]!, versions[index]!)).toBe(true);
    const text = readFileSync(join(repositoryRoot, "CHANGELOG.md"), "utf8");
    expect(text).toMatch(new RegExp(`^## ${packageJson.version.replaceAll(".", "\\.")} \\(\\d{4}-\\d\\d-\\d\\d\\)$`, "m"));
  });

  test("skrining changelog prints this release's section; --all the whole file", async () => {
    const section = await runCli(["changelog"]);
    expect(section.exitCode).toBe(0);
    expect(section.stdout).toBe(releaseNotes(packageJson.version)!);
    expect(section.stdout.split("\n")[0]).toStartWith(`## ${packageJson.version} (`);
    expect(section.stdout).not.toContain("## 0.1.0");
    const all = await runCli(["changelog", "--all"]);
    expect(all.stdout).toBe(readFileSync(join(repositoryRoot, "CHANGELOG.md"), "utf8"));
  });
});
