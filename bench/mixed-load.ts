// The server's memory under a mixed load (issue 46): students reading their own pages, many
// lecturers reading theirs, and questionnaires submitted, all in one run, against a server
// started afresh on the bench's data (so that no earlier run's heap is counted in it).
import { shuffled } from "./distinct-callers";
import { runLoad, type LoadResult, type RotationEntry } from "./load";
import { residentMiB, stopChild, withPeakResident } from "./processes";
import { checkProbe, questionnaireBody, startServer, type RunShape } from "./service";

export interface MixedLoad {
  load: LoadResult;
  peakMiB: number;
  /** The server's resident memory once it answered its first request. */
  startMiB: number;
  /** What the rotation holds: students, lecturers and the share of each kind of request. */
  students: number;
  lecturers: number;
  share: { studentReads: number; lecturerPages: number; submissions: number };
}

/**
 * For each lecturer, in a seeded shuffled order: their three list pages and their statistics
 * (their own token), two students' `me` and `hasil` (the students' own tokens), and two
 * submissions by the admin for one student (an admin is not held to the week): four lecturer
 * pages, four student reads and two writes in every ten requests.
 */
export function mixedRotation(options: { lecturerTokens: readonly string[]; pages: number; students: readonly { nim: string; token: string }[]; adminToken: string; questionnaireNim: string }): RotationEntry[] {
  const { students } = options;
  const body = questionnaireBody(options.questionnaireNim);
  const entries = options.lecturerTokens.flatMap((token, index) => {
    const pages = Array.from({ length: options.pages }, (_, page) => ({ path: `/api/dosen/mahasiswa?page=${page + 1}`, token }));
    const reads = [0, 1].flatMap((offset) => {
      const student = students[(2 * index + offset) % students.length]!;
      return [
        { path: "/api/auth/me", token: student.token },
        { path: `/api/mahasiswa/hasil/${student.nim}`, token: student.token },
      ];
    });
    const submission = { path: "/api/mahasiswa/kuesioner", token: options.adminToken, body };
    return [...pages, { path: "/api/dosen/statistik", token }, ...reads, submission, submission];
  });
  return shuffled(entries, 62);
}

/** The mixed rotation against a server started afresh on `dataDir`, with its peak resident memory. */
export async function measureMixedLoad(options: {
  dataDir: string;
  env: Record<string, string | undefined>;
  logPath: string;
  shape: RunShape;
  mixed: { rotation: RotationEntry[]; lecturers: number; students: number };
}): Promise<MixedLoad> {
  const { rotation } = options.mixed;
  const server = await startServer(options.dataDir, options.env, options.logPath);
  try {
    const first = rotation[0]!;
    await checkProbe(server.base, { name: "mixed load", path: first.path, token: first.token, method: first.body === undefined ? "GET" : "POST", body: first.body });
    const startMiB = residentMiB(server.child.pid);
    const { result: load, peakMiB } = await withPeakResident(server.child.pid, () => runLoad({ url: server.base, method: "GET", headers: {}, rotation: { entries: rotation, share: "rotate" }, ...options.shape }));
    const count = (test: (entry: RotationEntry) => boolean) => rotation.filter(test).length / rotation.length;
    return {
      load,
      peakMiB,
      startMiB,
      students: options.mixed.students,
      lecturers: options.mixed.lecturers,
      share: {
        studentReads: count((entry) => entry.path.startsWith("/api/auth/me") || entry.path.startsWith("/api/mahasiswa/hasil/")),
        lecturerPages: count((entry) => entry.path.startsWith("/api/dosen/")),
        submissions: count((entry) => entry.body !== undefined),
      },
    };
  } finally {
    await stopChild(server.child);
  }
}
