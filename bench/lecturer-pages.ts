import { join } from "node:path";
import { median, runTimed } from "./processes";
import { questionnaireBody } from "./service";

/** A lecturer page or command whose cost grows with the data, measured at each dataset size. */
export interface PageCost {
  name: string;
  /** Median of the timed runs, in milliseconds. */
  medianMs: number;
  fastestMs: number;
  slowestMs: number;
}

/**
 * The lecturer pages computed afresh: the read caches answer a repeated request from
 * memory, so before each timed request comes a write that changes what every one of these
 * pages shows: a screening of the lecturer's advisee (the detail page's), submitted by the
 * admin (exempt from the weekly limit). A cache that forgets only what a write touched
 * forgets these pages too. The commands are whole processes (start included), as an admin
 * runs them.
 */
export async function measureLecturerPages(options: {
  base: string;
  lecturerToken: string;
  adminToken: string;
  /** An advisee of the lecturer, for the detail page, whose screening is written before each timed request. */
  adviseeNim: string;
  nip: string;
  cli: string[];
  dataDir: string;
  workDir: string;
  env: Record<string, string | undefined>;
  rounds: number;
}): Promise<PageCost[]> {
  const { base, rounds } = options;
  const writeScreening = async () => {
    const response = await fetch(`${base}/api/mahasiswa/kuesioner`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${options.adminToken}` },
      body: questionnaireBody(options.adviseeNim),
    });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`screening written before a timed request: ${response.status}`);
  };
  const timed = async (name: string, run: () => Promise<void>): Promise<PageCost> => {
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await writeScreening();
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    return { name, medianMs: median(times), fastestMs: Math.min(...times), slowestMs: Math.max(...times) };
  };
  const page = (path: string) => async () => {
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${options.lecturerToken}` } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
  };
  const command = (args: string[]) => async () => {
    const finished = await runTimed([...options.cli, "--data", options.dataDir, ...args], { env: options.env });
    if (finished.exitCode !== 0) throw new Error(`skrining ${args.join(" ")}: exit ${finished.exitCode}: ${finished.stderr.slice(0, 300)}`);
  };
  const out = join(options.workDir, "stats-export.out");
  return [
    await timed("`GET /api/dosen/statistik`", page("/api/dosen/statistik")),
    await timed("`GET /api/dosen/mahasiswa` (page 1 by NIM)", page("/api/dosen/mahasiswa")),
    await timed("`GET /api/dosen/mahasiswa?sort=risk` (page 1)", page("/api/dosen/mahasiswa?sort=risk")),
    await timed("`GET /api/dosen/mahasiswa/<nim>` (detail)", page(`/api/dosen/mahasiswa/${options.adviseeNim}`)),
    await timed("`skrining stats export` (whole faculty, CSV, process)", command(["stats", "export", "--out", out, "--force"])),
    await timed("`skrining stats export --nip <nip> --students` (process)", command(["stats", "export", "--nip", options.nip, "--students", "--out", out, "--force"])),
  ];
}
