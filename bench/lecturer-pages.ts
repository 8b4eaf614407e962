import { join } from "node:path";
import { median, runTimed } from "./processes";

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
 * memory, so before each timed request a write (a mood entry, which empties them) comes
 * first. The commands are whole processes (start included), as an admin runs them.
 */
export async function measureLecturerPages(options: {
  base: string;
  lecturerToken: string;
  adminToken: string;
  /** An advisee of the lecturer, for the detail page. */
  adviseeNim: string;
  /** Whose mood entry is written between the timed requests. */
  writerNim: string;
  nip: string;
  cli: string[];
  dataDir: string;
  workDir: string;
  env: Record<string, string | undefined>;
  rounds: number;
}): Promise<PageCost[]> {
  const { base, rounds } = options;
  let writes = 0;
  const emptyCaches = async () => {
    writes += 1;
    const day = new Date(Date.UTC(2020, 0, 1) + writes * 24 * 3600 * 1000).toISOString().slice(0, 10);
    const response = await fetch(`${base}/api/mahasiswa/mood`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${options.adminToken}` },
      body: JSON.stringify({ nim: options.writerNim, date: day, mood_value: 3 }),
    });
    if (!response.ok) throw new Error(`mood write before a timed request: ${response.status}`);
  };
  const timed = async (name: string, run: () => Promise<void>): Promise<PageCost> => {
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await emptyCaches();
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
