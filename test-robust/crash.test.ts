import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { started, startServer } from "../test/server-process";
import { adminToken, emptyAcknowledged, preparedDataDir, writeLoad } from "./support";

afterEach(() => {
  for (const running of started.splice(0)) if (running.child.exitCode === null) running.child.kill("SIGKILL");
});

test("SIGKILL under a write load loses no acknowledged write and leaves an intact database", async () => {
  const dataDir = await preparedDataDir();
  const server = await startServer({ dataDir });
  const token = await adminToken(server.port);
  const acknowledged = emptyAcknowledged();

  let killed = false;
  const load = writeLoad(server.port, token, 6, () => killed, acknowledged);
  await Bun.sleep(1500);
  server.child.kill("SIGKILL");
  await server.child.exited;
  killed = true;
  await load;
  expect(acknowledged.diary.size + acknowledged.screenings.size + acknowledged.moods.size).toBeGreaterThan(30);

  const db = new Database(join(dataDir, "skrining.db"));
  try {
    expect(db.query("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    expect(db.query("PRAGMA foreign_key_check").all()).toEqual([]);
    const diary = new Set(db.query<{ content: string }, []>("SELECT content FROM diary_entries").all().map((row) => row.content));
    expect([...acknowledged.diary].filter((content) => !diary.has(content))).toEqual([]);
    const screenings = new Set(db.query<{ id: number }, []>("SELECT Id_skrining AS id FROM riwayat_skrining").all().map((row) => row.id));
    expect([...acknowledged.screenings].filter((id) => !screenings.has(id))).toEqual([]);
    const moods = new Set(db.query<{ key: string }, []>("SELECT nim || '|' || date AS key FROM mood_entries").all().map((row) => row.key));
    expect([...acknowledged.moods.keys()].filter((key) => !moods.has(key))).toEqual([]);
  } finally {
    db.close();
  }

  // The service starts again on the same folder and serves what was written.
  const again = await startServer({ dataDir });
  const response = await fetch(`http://127.0.0.1:${again.port}/api/mahasiswa/diary/N001`, { headers: { authorization: `Bearer ${await adminToken(again.port)}` } });
  expect(response.status).toBe(200);
}, 60_000);
