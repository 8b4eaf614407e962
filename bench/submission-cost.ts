// The questionnaire's own cost, in a way the machine's load moves far less than requests per
// second: submissions through the service in one process (the job on this thread, as the CLI
// and the tests run it), on a seeded dataset at 1 % of the bench's size, counted in
// instructions by callgrind while only the measured loop runs (docs/benchmark.md, "A
// submission's instructions"). A busy machine still adds a few percent (the JIT's helper
// threads wait for a turn and the slower tiers run longer): compare builds in alternate runs.
//
//   bun bench/submission-cost.ts [--measured N] [--warm-up N] [--duration] [--runs R]
//
// runs `bun bench/submission-cost.ts --child ...` under valgrind with instrumentation off,
// switches it on (callgrind_control) for the measured submissions only, after the warm-up
// ones, and prints the instructions of the JavaScript thread per submission (callgrind
// counts each thread apart: the JIT's and the collector's helper threads do their work
// when they will, so they are left out and listed on their own).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { closeContext, createContext } from "../src/context";
import { silentLogger } from "../src/logger";
import type { Principal } from "../src/requests/principal";
import { generateDataset, questionnaireBodies, scaledShape } from "./dataset";

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name);
  const value = index === -1 ? fallback : Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} harus bilangan bulat 0 atau lebih`);
  return value;
};
const measured = argument("--measured", 500);
const warmUp = argument("--warm-up", 300);
const runs = argument("--runs", 3);
/** `--duration`: every body also carries the web client's durasi_detik (decisions §20). */
const withDuration = process.argv.includes("--duration");

/** The child: makes the data, submits the warm-up, says READY, waits for a line, submits the measured ones, says DONE. */
async function child(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "skrining-submission-cost-"));
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  try {
    await generateDataset(join(folder, "skrining.db"), scaledShape(0.01));
    const context = createContext(loadConfig(folder, { SKRINING_LOG: "off" }), silentLogger);
    // The submissions as the skrining module builds them (the rest of the app is not measured).
    const { submission } = createApp(context).features;
    const sqlite = context.db.$client;
    const admin = sqlite.query<{ id: number }, []>("SELECT Id_User AS id FROM users WHERE role = 'admin'").get()!;
    const nims = sqlite.query<{ nim: string }, []>("SELECT NIM AS nim FROM mahasiswa ORDER BY NIM").all().map((row) => row.nim);
    const principal: Principal = {
      id: admin.id,
      username: "admin",
      role: "admin",
      isActivated: true,
      createdAt: new Date(0).toISOString(),
      disabledAt: null,
      nim: null,
      nip: null,
      nama: null,
      mustChangePassword: false,
      passwordExpiresAt: null,
    };
    const bodies = questionnaireBodies(256).map((text) => JSON.parse(text) as { jawaban: Record<string, unknown> });
    let index = 0;
    const submit = async (count: number) => {
      for (const end = index + count; index < end; index++) {
        const body = { NIM: nims[(index * 7919) % nims.length]!, jawaban: bodies[index % bodies.length]!.jawaban, ...(withDuration && { durasi_detik: 300 + (index % 120) }) };
        await submission.submit(principal, body);
      }
    };
    await submit(warmUp);
    console.log("READY");
    await lines.next();
    const started = performance.now();
    await submit(measured);
    const elapsed = performance.now() - started;
    console.log(`DONE ${JSON.stringify({ microsecondsEach: measured > 0 ? Math.round((elapsed * 1000) / measured) : null })}`);
    await lines.next();
    closeContext(context);
  } finally {
    rmSync(folder, { recursive: true, force: true });
    process.exit(0);
  }
}

/** One run under callgrind: the instructions of each thread while the measured submissions ran. */
async function measure(): Promise<{ mainThread: number; otherThreads: number; wallMicroseconds: number | null }> {
  const output = mkdtempSync(join(tmpdir(), "skrining-callgrind-"));
  try {
    const script = new URL(import.meta.url).pathname;
    const valgrind = Bun.spawn(
      [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        "--separate-threads=yes",
        `--callgrind-out-file=${join(output, "callgrind.out")}`,
        process.execPath,
        script,
        "--child",
        "--measured",
        String(measured),
        "--warm-up",
        String(warmUp),
        ...(withDuration ? ["--duration"] : []),
      ],
      { stdin: "pipe", stdout: "pipe", stderr: "ignore" },
    );
    const control = async (...flags: string[]) => {
      const done = Bun.spawn(["callgrind_control", ...flags, String(valgrind.pid)], { stdout: "ignore", stderr: "ignore" });
      if ((await done.exited) !== 0) throw new Error(`callgrind_control ${flags.join(" ")} gagal`);
    };
    let wallMicroseconds: number | null = null;
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of valgrind.stdout) {
      pending += decoder.decode(chunk);
      let newline: number;
      while ((newline = pending.indexOf("\n")) !== -1) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (line === "READY") {
          await control("-i", "on");
          valgrind.stdin.write("\n");
          valgrind.stdin.flush();
        } else if (line.startsWith("DONE ")) {
          await control("-i", "off");
          wallMicroseconds = JSON.parse(line.slice(5)).microsecondsEach;
          valgrind.stdin.write("\n");
          valgrind.stdin.flush();
        }
      }
    }
    if ((await valgrind.exited) !== 0) throw new Error("valgrind gagal");
    // One file per thread (…-01 is the main thread); "totals:" is its count of Ir.
    const totals = readdirSync(output)
      .filter((name) => /^callgrind\.out-\d+$/.test(name))
      .sort((a, b) => Number(a.split("-").at(-1)) - Number(b.split("-").at(-1)))
      .map((name) => Number(/^totals: (\d+)/m.exec(readFileSync(join(output, name), "utf8"))?.[1] ?? 0));
    const [mainThread = 0, ...others] = totals;
    return { mainThread, otherThreads: others.reduce((sum, value) => sum + value, 0), wallMicroseconds };
  } finally {
    if (process.env.SKRINING_KEEP_CALLGRIND) console.log(`callgrind files kept in ${output}`);
    else rmSync(output, { recursive: true, force: true });
  }
}

if (process.argv.includes("--child")) await child();
else {
  const results = [];
  for (let run = 0; run < runs; run++) {
    const result = await measure();
    results.push(result);
    console.log(
      `run ${run + 1}: ${Math.round(result.mainThread / measured).toLocaleString("en")} instructions per submission on the JavaScript thread ` +
        `(other threads ${Math.round(result.otherThreads / measured).toLocaleString("en")}; ${result.wallMicroseconds} µs each under valgrind)`,
    );
  }
  const perSubmission = results.map((result) => result.mainThread / measured).sort((a, b) => a - b);
  console.log(JSON.stringify({ measured, warmUp, withDuration, median: Math.round(perSubmission[Math.floor(perSubmission.length / 2)]!), runs: perSubmission.map(Math.round) }));
}
