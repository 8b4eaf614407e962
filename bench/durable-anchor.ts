// The submissions' anchor (issue 46): the plainest durable questionnaire server Bun allows.
// One Bun.serve; the body parsed as JSON; the 68 answers checked and summed; one row into a
// WAL database with synchronous=FULL; the rows of one event-loop turn committed together;
// each answer sent after its commit. No token, no rules, no model, no summaries, no audit:
// what skrining's submission route adds on top of this is what the bench's ratio weighs.
import { Database } from "bun:sqlite";

const [port, databasePath] = [Number(process.argv[2]), process.argv[3]!];
const stressKeys = Array.from({ length: 40 }, (_, index) => `S${index + 1}`);
const motivationKeys = Array.from({ length: 28 }, (_, index) => `M${index + 1}`);

const db = new Database(databasePath, { create: true, strict: true });
db.run("PRAGMA journal_mode = WAL");
db.run("PRAGMA synchronous = FULL");
db.run("CREATE TABLE IF NOT EXISTS submission (id INTEGER PRIMARY KEY, nim TEXT NOT NULL, stress INTEGER NOT NULL, motivation INTEGER NOT NULL, answers TEXT NOT NULL, at TEXT NOT NULL)");
const insert = db.prepare("INSERT INTO submission (nim, stress, motivation, answers, at) VALUES (?, ?, ?, ?, ?)");

interface Row {
  values: [string, number, number, string, string];
  written: (id: number) => void;
  failed: (error: unknown) => void;
}
let group: Row[] = [];

const commitGroup = db.transaction((rows: Row[]) => rows.map((row) => Number(insert.run(...row.values).lastInsertRowid)));

/** Once per turn: every row that arrived in it, one transaction, one fsync; then the answers. */
function commit(): void {
  const rows = group;
  group = [];
  try {
    const ids = commitGroup(rows);
    rows.forEach((row, index) => row.written(ids[index]!));
  } catch (error) {
    for (const row of rows) row.failed(error);
  }
}

/** The sum of `keys`, each an integer in 1..max; null if any is missing or out of range. */
function sum(answers: Record<string, unknown>, keys: string[], max: number): number | null {
  let total = 0;
  for (const key of keys) {
    const value = answers[key];
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) return null;
    total += value;
  }
  return total;
}

const json = (status: number, body: object) => Response.json(body, { status });

Bun.serve({
  hostname: "127.0.0.1",
  port,
  async fetch(request) {
    const body = (await request.json().catch(() => null)) as { NIM?: unknown; jawaban?: Record<string, unknown> } | null;
    const answers = body?.jawaban;
    if (typeof body?.NIM !== "string" || typeof answers !== "object" || answers === null) return json(400, { error: "NIM dan jawaban wajib diisi." });
    const stress = sum(answers, stressKeys, 5);
    const motivation = sum(answers, motivationKeys, 7);
    if (stress === null || motivation === null || Object.keys(answers).length !== 68) return json(400, { error: "Jawaban tidak lengkap." });
    const values: Row["values"] = [body.NIM, stress, motivation, JSON.stringify(answers), new Date().toISOString()];
    if (group.length === 0) setImmediate(commit);
    return new Promise<Response>((resolve) => {
      group.push({ values, written: (id) => resolve(json(201, { id, score_stress: stress, score_motivasi: motivation })), failed: () => resolve(json(503, { error: "Gagal menyimpan." })) });
    });
  },
});
