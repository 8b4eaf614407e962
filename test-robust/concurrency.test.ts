import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { started, startServer, type Running } from "../test/server-process";
import { jpegWithExif, pngWithText } from "../test/photos/fixtures";
import { jawaban, preparedDataDir } from "./support";

// Two server processes on one data folder, so requests really run at the same time and
// only the database's locking keeps the rules.

let dataDir: string;
let servers: Running[];
let token: string;

const url = (index: number, path: string) => `http://127.0.0.1:${servers[index % servers.length]!.port}${path}`;

function query<T>(sql: string, ...values: string[]): T[] {
  const db = new Database(join(dataDir, "skrining.db"), { readonly: true });
  try {
    return db.query(sql).all(...values) as T[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dataDir = await preparedDataDir();
  servers = [await startServer({ dataDir }), await startServer({ dataDir })];
  const response = await fetch(url(0, "/api/auth/login"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "mhs1", password: "mhs-pass-1" }),
  });
  token = ((await response.json()) as { access_token: string }).access_token;
}, 60_000);

afterAll(() => {
  for (const running of started.splice(0)) if (running.child.exitCode === null) running.child.kill("SIGKILL");
});

const send = (index: number, method: string, path: string, body: unknown) =>
  fetch(url(index, path), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body instanceof FormData ? {} : { "content-type": "application/json" }) },
    body: body instanceof FormData ? body : JSON.stringify(body),
  });

test("parallel questionnaire submissions by one student through two servers store exactly one", async () => {
  const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => send(i, "POST", "/api/mahasiswa/kuesioner", { jawaban: jawaban(i) })));
  const statuses = responses.map((response) => response.status).sort();
  expect(statuses).toEqual([201, ...Array(11).fill(403)]);
  expect(query<{ n: number }>("SELECT count(*) AS n FROM riwayat_skrining WHERE NIM = ?", "N001")).toEqual([{ n: 1 }]);
});

test("parallel mood upserts for one date through two servers leave one row and one 201", async () => {
  const responses = await Promise.all(
    Array.from({ length: 16 }, (_, i) => send(i, "POST", "/api/mahasiswa/mood", { date: "2026-11-21", mood_value: 1 + (i % 5) })),
  );
  const statuses = responses.map((response) => response.status).sort();
  expect(statuses).toEqual([...Array(15).fill(200), 201]);
  expect(query<{ n: number }>("SELECT count(*) AS n FROM mood_entries WHERE nim = ? AND date = ?", "N001", "2026-11-21")).toEqual([{ n: 1 }]);
});

test("parallel photo uploads through two servers leave exactly the committed file and no orphan", async () => {
  const responses = await Promise.all(
    Array.from({ length: 10 }, (_, i) => {
      const form = new FormData();
      form.append("foto", new File([i % 2 ? pngWithText() : jpegWithExif()], `f${i}.jpg`));
      return send(i, "PUT", "/api/mahasiswa/profil/foto", form);
    }),
  );
  expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
  const [{ foto_profil }] = query<{ foto_profil: string }>("SELECT foto_profil FROM mahasiswa WHERE NIM = ?", "N001") as [{ foto_profil: string }];
  expect(readdirSync(join(dataDir, "photos"))).toEqual([foto_profil.slice("photos/".length)]);
});
