import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { heapGrowthThresholdMB, heapGrowthVariable } from "../../cli/engine-options";
import { temporaryDir } from "../../test/helpers";
import { startServer, stop, stopStarted } from "../../test/server-process";

// cli/engine-options.ts as a process: serve starts itself again in place (execve keeps the
// process id), with the engine's heap option, or leaves an administrator's value alone.

afterEach(stopStarted);

describe("serve, started as a process", () => {
  test("runs in the same process with the engine's option set", async () => {
    const server = await startServer({ dataDir: join(temporaryDir("skrining-engine-"), "data") });
    const environment = readFileSync(`/proc/${server.child.pid}/environ`, "utf8").split("\0");
    expect(environment).toContain(`${heapGrowthVariable}=${heapGrowthThresholdMB}`);
    expect(await (await fetch(`http://127.0.0.1:${server.port}/api/auth/me`)).json()).toEqual({ error: expect.any(String) });
    expect(await stop(server)).toBe(0);
  });

  test("an administrator's own value stands", async () => {
    const server = await startServer({ dataDir: join(temporaryDir("skrining-engine-"), "data"), env: { [heapGrowthVariable]: "16384" } });
    expect(readFileSync(`/proc/${server.child.pid}/environ`, "utf8").split("\0")).toContain(`${heapGrowthVariable}=16384`);
    expect(await stop(server)).toBe(0);
  });
});

