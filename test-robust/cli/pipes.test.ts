import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pipeAwareOutput } from "../../cli/pipes";
import { cliEnvironment, repositoryRoot, standardAccounts, temporaryDir } from "../../test/helpers";
import { freePort } from "../../test/server-process";
import { cli, csvFile } from "../../test/cli/support";

// A closed output pipe ends a command quietly, as Unix tools do: exit 0, nothing on
// stderr, whether the command had printed everything or not (`serve | head` too).

let dataDir: string;
beforeAll(async () => {
  dataDir = join(temporaryDir("skrining-pipes-"), "data");
  expect((await cli(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
});

const program = [process.execPath, join(repositoryRoot, "cli", "main.ts")];
const children: ReturnType<typeof Bun.spawn>[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});

/**
 * Runs `skrining <args> | <reader>` in bash: the reader (`true` reads nothing and is gone
 * at once; `head -1` takes one line) closes the pipe while the command still writes. The
 * command's exit code and stderr, and what the reader printed.
 */
async function piped(args: string[], reader: string, env: Record<string, string> = {}, whileRunning?: (running: () => boolean) => Promise<void>) {
  const folder = temporaryDir("skrining-pipes-");
  const script = `"$@" 2>"${folder}/stderr" | ${reader}; echo "\${PIPESTATUS[0]}" > "${folder}/status"`;
  const child = Bun.spawn(["bash", "-c", script, "bash", ...program, "--data", dataDir, ...args], { env: cliEnvironment(env), stdout: "pipe", stderr: "pipe" });
  children.push(child);
  const read = new Response(child.stdout).text();
  await whileRunning?.(() => child.exitCode === null);
  await child.exited;
  return { exitCode: Number(readFileSync(join(folder, "status"), "utf8")), stderr: readFileSync(join(folder, "stderr"), "utf8"), read: await read };
}

describe("a closed output pipe", () => {
  const commands = [["accounts", "list"], ["accounts", "list", "--json"], ["audit", "verify"], ["audit", "list"], ["stats", "export"], ["questions", "export"], ["--help"], ["help", "accounts"]];
  test.each(commands.map((args) => [args.join(" "), args] as const))("%s | true: exit 0, no stack trace", async (_name, args) => {
    const result = await piped(args, "true");
    expect({ exitCode: result.exitCode, stderr: result.stderr }).toEqual({ exitCode: 0, stderr: "" });
  });

  test("restore … | true: the command still finishes its work (the restore's audit row) after the pipe closed", async () => {
    const archive = join(temporaryDir("skrining-pipes-"), "cadangan.tar.gz");
    expect((await cli(dataDir, ["backup", archive])).exitCode).toBe(0);
    const restored = join(temporaryDir("skrining-pipes-"), "data");
    const folder = temporaryDir("skrining-pipes-");
    const child = Bun.spawn(["bash", "-c", `"$@" 2>"${folder}/stderr" | true; echo "\${PIPESTATUS[0]}" > "${folder}/status"`, "bash", ...program, "--data", restored, "restore", archive], { env: cliEnvironment() });
    await child.exited;
    expect(readFileSync(join(folder, "status"), "utf8").trim()).toBe("0");
    expect(readFileSync(join(folder, "stderr"), "utf8")).toBe("");
    const rows = JSON.parse((await cli(restored, ["audit", "list", "--format", "json"])).stdout);
    expect(rows.at(-1)).toMatchObject({ target: "skrining restore", keterangan: expect.stringMatching(/^pemulihan cadangan dari /) });
  });

  test("audit verify | head -1: the first line, exit 0, nothing on stderr", async () => {
    const result = await piped(["audit", "verify"], "head -1");
    expect(result.read).toStartWith("Jejak audit utuh:");
    expect({ exitCode: result.exitCode, stderr: result.stderr }).toEqual({ exitCode: 0, stderr: "" });
  });

  test("serve | head -1: the server stops cleanly at its next line once head is gone, exit 0", async () => {
    const port = await freePort();
    const result = await piped(["serve", "--host", "127.0.0.1", "--port", String(port)], "head -1", { SKRINING_LOG: "on" }, async (running) => {
      // Its next line meets the closed pipe: the rest of the banner, or else the log line of a request.
      const deadline = Date.now() + 20_000;
      while (running() && Date.now() < deadline) {
        await fetch(`http://127.0.0.1:${port}/api/auth/me`).then((response) => response.arrayBuffer(), () => Bun.sleep(100));
      }
    });
    expect(result.read).toStartWith("skrining ");
    expect({ exitCode: result.exitCode, stderr: result.stderr }).toEqual({ exitCode: 0, stderr: "" });
    // It stopped: the port is free again.
    expect(await fetch(`http://127.0.0.1:${port}/health`).then(() => "answered", () => "refused")).toBe("refused");
  }, 30_000);
});

/** A stream that records what is written and fails as it is told. */
class FakeStream extends EventEmitter {
  written: string[] = [];
  write(text: string, _written?: () => void) {
    this.written.push(text);
    return true;
  }
  fail(code: string) {
    this.emit("error", Object.assign(new Error(code), { code }));
  }
}

describe("pipeAwareOutput", () => {
  const setUp = () => {
    const [out, err] = [new FakeStream(), new FakeStream()];
    return { out, err, io: pipeAwareOutput(out, err) };
  };

  test("a closed stdout: nothing more is written to it, and the command goes on to its own end", () => {
    const { out, io } = setUp();
    io.out("eins\n");
    out.fail("EPIPE");
    out.fail("EPIPE");
    io.out("zwei\n");
    expect(out.written).toEqual(["eins\n"]);
  });

  test("a command that runs on is stopped, once", () => {
    const { out, io } = setUp();
    let stopped = 0;
    io.onOutputClosed!(() => stopped++);
    out.fail("EPIPE");
    out.fail("EPIPE");
    expect(stopped).toBe(1);
  });

  test("a closed stderr silences stderr only", () => {
    const { out, err, io } = setUp();
    let stopped = 0;
    io.onOutputClosed!(() => stopped++);
    err.fail("EPIPE");
    io.err("peringatan\n");
    io.out("hasil\n");
    expect([stopped, err.written, out.written]).toEqual([0, [], ["hasil\n"]]);
  });

  test("whether the output was written: yes while the reader is there, no once it has gone", async () => {
    const { out, io } = setUp();
    out.write = (text: string, written?: () => void) => {
      out.written.push(text);
      written?.();
      return true;
    };
    expect(await io.outputWritten!()).toBe(true);
    out.fail("EPIPE");
    expect(await io.outputWritten!()).toBe(false);
  });

  test("any other write error stays an error", () => {
    const { out } = setUp();
    expect(() => out.fail("EIO")).toThrow("EIO");
  });
});
