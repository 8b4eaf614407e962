import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { spawnCli, temporaryDir } from "../test/helpers";
import { started, startServer, stop } from "../test/server-process";
import { adminToken, emptyAcknowledged, preparedDataDir, writeLoad } from "./support";

afterEach(() => {
  for (const running of started.splice(0)) if (running.child.exitCode === null) running.child.kill("SIGKILL");
});

test("a backup taken during a write load is intact and holds every write acknowledged before it began", async () => {
  const dataDir = await preparedDataDir();
  const server = await startServer({ dataDir });
  const token = await adminToken(server.port);
  const acknowledged = emptyAcknowledged();

  let done = false;
  const load = writeLoad(server.port, token, 4, () => done, acknowledged);
  await Bun.sleep(800);
  const before = { diary: [...acknowledged.diary], screenings: [...acknowledged.screenings], moods: [...acknowledged.moods.keys()] };
  const target = join(temporaryDir("skrining-backup-"), "copy.db");
  const backup = await spawnCli(["--data", dataDir, "backup", target]);
  await Bun.sleep(300);
  done = true;
  await load;
  await stop(server);

  expect(backup).toMatchObject({ exitCode: 0 });
  expect(before.diary.length + before.screenings.length).toBeGreaterThan(10);
  // The load went on while the copy was taken.
  expect(acknowledged.diary.size + acknowledged.screenings.size).toBeGreaterThan(before.diary.length + before.screenings.length);

  const copy = new Database(target, { readonly: true });
  try {
    expect(copy.query("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    const diary = new Set(copy.query<{ content: string }, []>("SELECT content FROM diary_entries").all().map((row) => row.content));
    expect(before.diary.filter((content) => !diary.has(content))).toEqual([]);
    const screenings = new Set(copy.query<{ id: number }, []>("SELECT Id_skrining AS id FROM riwayat_skrining").all().map((row) => row.id));
    expect(before.screenings.filter((id) => !screenings.has(id))).toEqual([]);
    const moods = new Set(copy.query<{ key: string }, []>("SELECT nim || '|' || date AS key FROM mood_entries").all().map((row) => row.key));
    expect(before.moods.filter((key) => !moods.has(key))).toEqual([]);
  } finally {
    copy.close();
  }
}, 60_000);
