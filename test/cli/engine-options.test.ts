import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { engineRestart, heapGrowthThresholdMB, heapGrowthVariable } from "../../cli/engine-options";
import { repositoryRoot } from "../helpers";

const linux = { execPath: "/opt/skrining", execArgv: [] as string[], platform: "linux", execve: () => {} };
const set = { [heapGrowthVariable]: "16384" };

// cli/engine-options.ts: serve starts itself again with the engine's heap option, once.
describe("engineRestart", () => {
  const cases: { name: string; argv: string[]; env?: Record<string, string>; platform?: string; execve?: unknown; compiled: boolean; args?: string[] }[] = [
    { name: "serve of the executable: the kernel's arguments, without the embedded entry", argv: ["bun", "/$bunfs/root/skrining", "--data", "d", "serve"], compiled: true, args: ["/opt/skrining", "--data", "d", "serve"] },
    { name: "serve from source: bun, its options and the script", argv: ["/usr/bin/bun", "/repo/cli/main.ts", "serve", "--port", "1"], compiled: false, args: ["/opt/skrining", "/repo/cli/main.ts", "serve", "--port", "1"] },
    { name: "another command", argv: ["bun", "/$bunfs/root/skrining", "backup", "x"], compiled: true },
    { name: "no command", argv: ["bun", "/$bunfs/root/skrining"], compiled: true },
    { name: "the option already set (the restart itself, a service file, the administrator)", argv: ["bun", "/$bunfs/root/skrining", "serve"], env: set, compiled: true },
    { name: "Windows", argv: ["bun", "B:/~BUN/root/skrining.exe", "serve"], platform: "win32", compiled: true },
    { name: "a runtime without execve", argv: ["bun", "/$bunfs/root/skrining", "serve"], execve: undefined, compiled: true },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      const restart = engineRestart({ ...linux, argv: entry.argv, env: { HOME: "/root", ...entry.env }, platform: entry.platform ?? "linux", execve: "execve" in entry ? entry.execve : linux.execve }, entry.compiled);
      if (!entry.args) return expect(restart).toBeUndefined();
      expect(restart).toEqual({ file: "/opt/skrining", args: entry.args, env: { HOME: "/root", [heapGrowthVariable]: heapGrowthThresholdMB } });
    });
  }
});

test("the Windows service file sets the option serve cannot set for itself there", () => {
  const xml = readFileSync(join(repositoryRoot, "deploy", "skrining-service.xml"), "utf8");
  expect(xml).toContain(`<env name="${heapGrowthVariable}" value="${heapGrowthThresholdMB}"/>`);
});
