import { writeFileSync } from "node:fs";
import type { Socket } from "node:net";
import { join } from "node:path";
import { repositoryRoot, spawnCli, temporaryDir } from "../test/helpers";

export const studentCount = 5;

/** A data folder with an activated admin and a few students, made through the CLI. */
export async function preparedDataDir(): Promise<string> {
  const dataDir = temporaryDir("skrining-robust-");
  const rows = ["role,username,password,nim,activated", "admin,admin,admin-pass-1,,true"];
  for (let i = 1; i <= studentCount; i++) rows.push(`mahasiswa,mhs${i},mhs-pass-${i},N00${i},true`);
  const csv = join(dataDir, "accounts.csv");
  writeFileSync(csv, rows.join("\n") + "\n");
  const result = await spawnCli(["--data", dataDir, "accounts", "import", csv]);
  if (result.exitCode !== 0) throw new Error(result.stderr);
  return dataDir;
}

export async function adminToken(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: "admin-pass-1" }),
  });
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

export function jawaban(seed: number): Record<string, number> {
  const answers: Record<string, number> = {};
  for (let item = 1; item <= 40; item++) answers[`S${item}`] = ((seed + item) % 5) + 1;
  for (let item = 1; item <= 28; item++) answers[`M${item}`] = ((seed * 3 + item) % 7) + 1;
  return answers;
}

/** What a write load got acknowledged: diary contents, questionnaire ids and mood (nim, date, value). */
export interface Acknowledged {
  diary: Set<string>;
  screenings: Set<number>;
  moods: Map<string, number>;
}

/**
 * Writes from `workers` parallel clients until `until()` says stop, remembering every write
 * the server answered 2xx. A refused connection (the server was killed) ends a worker.
 */
export async function writeLoad(port: number, token: string, workers: number, until: () => boolean, acknowledged: Acknowledged): Promise<number> {
  let attempts = 0;
  const post = (path: string, body: unknown) =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let i = 0; !until(); i++) {
        attempts++;
        const nim = `N00${(i % studentCount) + 1}`;
        try {
          if (i % 3 === 0) {
            const content = `w${worker}-i${i}`;
            const response = await post("/api/mahasiswa/diary", { nim, date: "2026-11-20", content });
            if (response.ok) acknowledged.diary.add(content);
            await response.arrayBuffer();
          } else if (i % 3 === 1) {
            const response = await post("/api/mahasiswa/kuesioner", { NIM: nim, jawaban: jawaban(worker * 1000 + i) });
            if (response.ok) acknowledged.screenings.add(((await response.json()) as { Id_skrining: number }).Id_skrining);
            else await response.arrayBuffer();
          } else {
            // Each worker owns its own dates, so the last acknowledged value is the stored one.
            const day = 1 + (i % 28);
            const date = `2025-${String(1 + (worker % 12)).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
            const value = 1 + (i % 5);
            const response = await post("/api/mahasiswa/mood", { nim: `N00${(worker % studentCount) + 1}`, date, mood_value: value });
            if (response.ok) acknowledged.moods.set(`N00${(worker % studentCount) + 1}|${date}`, value);
            await response.arrayBuffer();
          }
        } catch {
          return;
        }
      }
    }),
  );
  return attempts;
}

export const emptyAcknowledged = (): Acknowledged => ({ diary: new Set(), screenings: new Set(), moods: new Map() });

/**
 * A multipart POST's head, declaring `declared` bytes, sent over a connected socket (plain or
 * TLS): the first line of the answer, or null when none came within 3 s of the head (decisions
 * §21: a refusal comes before the body). Then the body an attacker sends anyway, a megabyte at
 * a time, as far as the server takes it; `bodySent` resolves once it is sent or refused.
 */
export async function sendHeadFirst(socket: Socket, request: { path: string; headers: string[]; declared: number }): Promise<{ statusLine: string | null; bodySent: Promise<void> }> {
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
  socket.on("error", () => {});
  socket.write([`POST ${request.path} HTTP/1.1`, "Host: 127.0.0.1", "Content-Type: multipart/form-data; boundary=x", `Content-Length: ${request.declared}`, ...request.headers, "", ""].join("\r\n"));
  const deadline = Date.now() + 3000;
  while (!answer.includes("\r\n") && Date.now() < deadline) await Bun.sleep(20);
  const statusLine = answer.includes("\r\n") ? answer.slice(0, answer.indexOf("\r\n")) : null;
  const bodySent = (async () => {
    const megabyte = Buffer.alloc(1024 * 1024, 0x61);
    for (let sent = 0; sent < request.declared && !socket.destroyed; sent += megabyte.length) {
      if (!socket.write(megabyte)) await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), Bun.sleep(2000)]);
    }
    socket.destroy();
  })();
  return { statusLine, bodySent };
}

/** The account the tests run serve as, as a packaged service runs it (Debian's nobody). */
export const serviceUid = 65534;

/**
 * Why serve cannot run here as the service's account, or null. Handing it files needs root;
 * and it must reach the checkout and Bun: a clone below a folder others cannot enter (as
 * `mktemp -d` makes, 0700) failed with "Module not found" instead of saying so.
 */
export function serviceAccountUnavailable(): string | null {
  if (process.getuid?.() !== 0) return "these tests run as root, to give files to the service's account";
  const asService = (check: string[]) => Bun.spawnSync(["setpriv", `--reuid=${serviceUid}`, `--regid=${serviceUid}`, "--clear-groups", ...check]).exitCode === 0;
  const program = join(repositoryRoot, "cli", "main.ts");
  if (!asService(["test", "-r", program]) || !asService(["test", "-x", process.execPath])) {
    return `the service's account (uid ${serviceUid}) cannot read ${program} or run ${process.execPath}: a folder above the checkout is closed to others`;
  }
  return null;
}
