import { afterAll, afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { byteSize } from "../../cli/log-file";
import { LogFile, logFileRetryMilliseconds } from "../../src/logger";
import { canMount, fill, mountTmpfs, remount, unmountAll } from "../../test/file-systems";
import { runCli, temporaryDir } from "../../test/helpers";
import { startServer, stop, stopStarted, type Running } from "../../test/server-process";

// `serve --log-file`: every line still goes to stdout/stderr, and a copy to a file that is
// set aside by size; a file that cannot be written never stops the service.

if (!canMount) console.warn("log-file.test.ts: mount is not allowed here (needs root); the read-only and full-disk tests are skipped.");

afterEach(async () => {
  await stopStarted();
  setSystemTime();
});
afterAll(unmountAll);

/** Every entry begins with the faculty's local time: Asia/Jakarta (WIB, +07:00) unless told otherwise (issue 44). */
const timestamped = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+07:00 /;
const failureMessage = "tidak dapat ditulis";

/** Requests that each leave one line in the request log, numbered: `GET /api/tidak-ada-N 404`. */
async function numberedRequests(server: Running, count: number): Promise<void> {
  for (let number = 1; number <= count; number++) {
    const response = await fetch(`http://127.0.0.1:${server.port}/api/tidak-ada-${number}`);
    await response.arrayBuffer();
  }
}

/**
 * After the server stopped, waits (bounded) until its output is read to the stop line: the
 * lines before it are then all there, however loaded the machine.
 */
async function stoppedAndRead(server: Running): Promise<void> {
  for (let attempt = 0; attempt < 200 && !server.stdout().includes("SIGTERM diterima"); attempt++) await Bun.sleep(25);
}

const requestNumbers = (text: string) => [...text.matchAll(/GET \/api\/tidak-ada-(\d+) 404/g)].map((match) => Number(match[1]));
const mode = (path: string) => statSync(path).mode & 0o777;

// Issue 44, item 10: the lines carried UTC and no client address.
describe("the request log's lines", () => {
  /** A request line's time as the moment it names, and the rest of the line. */
  const parsed = (line: string) => {
    const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})([+-]\d\d:\d\d) (.*)$/.exec(line)!;
    return { offset: match[2], moment: Date.parse(`${match[1]}${match[2]}`), rest: match[3] };
  };

  test.each([
    ["the default zone (WIB)", [] as string[], "+07:00"],
    ["--tz Asia/Makassar (WITA)", ["--tz", "Asia/Makassar"], "+08:00"],
  ])("%s: the local time with its offset and the client's address, on stdout and in the file", async (_zone, zoneOptions, offset) => {
    const folder = temporaryDir();
    const path = join(folder, "skrining.log");
    const before = Date.now();
    const server = await startServer({ dataDir: join(folder, "data"), env: { SKRINING_LOG: "on", SKRINING_TZ: zoneOptions[1] ?? "Asia/Jakarta" }, serveOptions: ["--log-file", path] });
    await numberedRequests(server, 1);
    expect(await stop(server)).toBe(0);
    await stoppedAndRead(server);
    for (const text of [server.stdout(), readFileSync(path, "utf8")]) {
      const line = text.split("\n").find((each) => each.includes("/api/tidak-ada-1 "))!;
      const { offset: written, moment, rest } = parsed(line);
      expect(written).toBe(offset);
      expect(moment).toBeGreaterThanOrEqual(before - 1);
      expect(moment).toBeLessThanOrEqual(Date.now());
      expect(rest).toMatch(/^127\.0\.0\.1 GET \/api\/tidak-ada-1 404 \d+\.\dms$/);
    }
    // The file's other entries begin with the same clock.
    expect(readFileSync(path, "utf8").split("\n").find((line) => line.includes("SIGTERM diterima"))).toMatch(new RegExp(`^\\S+\\${offset} SIGTERM diterima`));
  });
});

describe("a log file set aside by size", () => {
  test("through a real server: files of at most --log-max-size, --log-keep earlier ones, the oldest lines dropped, 0600; stdout keeps everything", async () => {
    const folder = temporaryDir();
    const path = join(folder, "logs", "skrining.log");
    const server = await startServer({
      dataDir: join(folder, "data"),
      env: { SKRINING_LOG: "on", SKRINING_LOG_FILE: path, SKRINING_LOG_MAX_SIZE: "1KB", SKRINING_LOG_KEEP: "2" },
    });
    await numberedRequests(server, 60);
    expect(await stop(server)).toBe(0);
    await stoppedAndRead(server);

    const files = [`${path}.2`, `${path}.1`, path];
    expect(readdirSync(join(folder, "logs")).sort()).toEqual(["skrining.log", "skrining.log.1", "skrining.log.2"]);
    for (const file of files) {
      expect(statSync(file).size).toBeLessThanOrEqual(1024);
      expect(mode(file)).toBe(0o600);
      for (const line of readFileSync(file, "utf8").trimEnd().split("\n")) expect(line).toMatch(timestamped);
    }
    expect(mode(join(folder, "logs"))).toBe(0o700);

    // Oldest first, the lines kept are the newest ones, in order and without a gap.
    const kept = requestNumbers(files.map((file) => readFileSync(file, "utf8")).join(""));
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.at(-1)).toBe(60);
    expect(kept[0]).toBeGreaterThan(1);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, index) => kept[0]! + index));
    // The stop's line is kept too. Not necessarily in the newest file: the last request's line
    // is written once its answer has gone, and under load the signal's line came before it.
    expect(files.map((file) => readFileSync(file, "utf8")).join("")).toContain("SIGTERM diterima");

    expect(requestNumbers(server.stdout())).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
    expect(server.stderr()).not.toContain(failureMessage);
  });

  test("a line that would pass the limit begins the next file; a line longer than the limit gets a file of its own", () => {
    const folder = temporaryDir();
    const path = join(folder, "skrining.log");
    const file = new LogFile({ path, maxBytes: 1024, keep: 3 }, () => {});
    const line = (label: string, length: number) => `2026-01-01T00:00:00.000Z ${label}${"x".repeat(length - 25 - label.length)}`;
    file.write(line("a", 600), "info");
    file.write(line("b", 400), "info");
    file.write(line("c", 100), "info");
    file.write(line("d", 3000), "info");
    file.write(line("e", 40), "info");
    file.close();
    const content = (name: string) => readFileSync(join(folder, name), "utf8").split("\n").filter(Boolean).map((entry) => entry[25]);
    expect(content("skrining.log.3")).toEqual(["a", "b"]);
    expect(content("skrining.log.2")).toEqual(["c"]);
    expect(content("skrining.log.1")).toEqual(["d"]);
    expect(content("skrining.log")).toEqual(["e"]);
    expect(statSync(join(folder, "skrining.log.1")).size).toBe(3001);
  });

  test("only --log-keep earlier files are kept; files beyond it from an earlier, larger setting are left alone", () => {
    const folder = temporaryDir();
    const path = join(folder, "skrining.log");
    writeFileSync(`${path}.7`, "dari pengaturan lama\n");
    const file = new LogFile({ path, maxBytes: 1024, keep: 3 }, () => {});
    for (let number = 1; number <= 100; number++) file.write(`baris ${number} ${"y".repeat(200)}`, "info");
    file.close();
    expect(readdirSync(folder).sort()).toEqual(["skrining.log", "skrining.log.1", "skrining.log.2", "skrining.log.3", "skrining.log.7"]);
    expect(readFileSync(`${path}.7`, "utf8")).toBe("dari pengaturan lama\n");
    const kept = ["skrining.log.3", "skrining.log.2", "skrining.log.1", "skrining.log"].flatMap((name) =>
      [...readFileSync(join(folder, name), "utf8").matchAll(/baris (\d+) /g)].map((match) => Number(match[1])),
    );
    expect(kept.at(-1)).toBe(100);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, index) => kept[0]! + index));
  });

  test("an existing file is appended to, not replaced, and narrowed to 0600; lines are stamped with the time and errors marked", () => {
    const folder = temporaryDir();
    const path = join(folder, "skrining.log");
    writeFileSync(path, "baris lama\n");
    chmodSync(path, 0o644);
    setSystemTime(new Date("2026-03-04T05:06:07.089Z"));
    const file = new LogFile({ path, maxBytes: 1024 * 1024, keep: 5 }, () => {});
    file.write("skrining berjalan", "info");
    file.write("Disk penuh", "error");
    file.write("2026-03-04T05:06:07.000Z GET /api/auth/me 401 1.0ms", "info");
    file.close();
    expect(readFileSync(path, "utf8")).toBe(
      "baris lama\n" +
        "2026-03-04T05:06:07.089Z skrining berjalan\n" +
        "2026-03-04T05:06:07.089Z GALAT Disk penuh\n" +
        "2026-03-04T05:06:07.000Z GET /api/auth/me 401 1.0ms\n",
    );
    expect(mode(path)).toBe(0o600);
  });
});

describe("a log file that cannot be written", () => {
  test("through a real server (its folder is a file): the server starts and answers, says so once on stderr, and stdout has every line", async () => {
    const folder = temporaryDir();
    writeFileSync(join(folder, "bukan-folder"), "");
    const path = join(folder, "bukan-folder", "skrining.log");
    const server = await startServer({ dataDir: join(folder, "data"), env: { SKRINING_LOG: "on", SKRINING_LOG_FILE: path } });
    await numberedRequests(server, 5);
    expect(await stop(server)).toBe(0);
    await stoppedAndRead(server);
    expect(server.stderr().split(failureMessage).length - 1).toBe(1);
    expect(server.stderr()).toContain(`Log file ${path} tidak dapat ditulis`);
    expect(requestNumbers(server.stdout())).toEqual([1, 2, 3, 4, 5]);
    expect(server.stdout()).toContain("SIGTERM diterima");
  });

  test.skipIf(!canMount)("through a real server (a read-only folder): the same, and nothing is created there", async () => {
    const folder = temporaryDir();
    const mountPoint = join(folder, "logs");
    mountTmpfs(mountPoint, "1m");
    expect(remount(mountPoint, "ro")).toBe(true);
    const path = join(mountPoint, "skrining.log");
    const server = await startServer({ dataDir: join(folder, "data"), env: { SKRINING_LOG: "on", SKRINING_LOG_FILE: path } });
    await numberedRequests(server, 5);
    expect(await stop(server)).toBe(0);
    await stoppedAndRead(server);
    expect(server.stderr().split(failureMessage).length - 1).toBe(1);
    expect(server.stderr()).toContain("read-only");
    expect(requestNumbers(server.stdout())).toEqual([1, 2, 3, 4, 5]);
    expect(readdirSync(mountPoint)).toEqual([]);
  });

  test("it is tried again a minute after the failure, and its recovery is reported with the lines it missed", () => {
    const folder = temporaryDir();
    const blocker = join(folder, "logs");
    writeFileSync(blocker, "");
    const path = join(blocker, "skrining.log");
    const reports: string[] = [];
    const file = new LogFile({ path, maxBytes: 1024 * 1024, keep: 5 }, (line) => reports.push(line));
    setSystemTime(new Date("2026-03-04T05:00:00.000Z"));
    file.write("satu", "info");
    file.write("dua", "info");
    rmSync(blocker);
    // Within the minute the file is not tried, even though it could now be written.
    setSystemTime(new Date(Date.parse("2026-03-04T05:00:00.000Z") + logFileRetryMilliseconds - 1));
    file.write("tiga", "info");
    expect(existsSync(path)).toBe(false);
    setSystemTime(new Date(Date.parse("2026-03-04T05:00:00.000Z") + logFileRetryMilliseconds));
    file.write("empat", "info");
    file.close();
    expect(reports).toHaveLength(2);
    expect(reports[0]).toContain(`Log file ${path} tidak dapat ditulis`);
    expect(reports[1]).toBe(`Log file ${path} dapat ditulis lagi; 3 baris sebelumnya hanya ada di stdout/stderr.`);
    const lines = readFileSync(path, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEndWith(reports[1]!);
    expect(lines[1]).toEndWith(" empat");
  });

  test.skipIf(!canMount)("a full disk: reported once, every later line only counted, and written again once there is room", () => {
    const mountPoint = temporaryDir("skrining-log-full-");
    mountTmpfs(mountPoint, "256k");
    const path = join(mountPoint, "skrining.log");
    const reports: string[] = [];
    const file = new LogFile({ path, maxBytes: 1024 * 1024, keep: 5 }, (line) => reports.push(line));
    file.write("sebelum penuh", "info");
    const filler = fill(mountPoint);
    const start = Date.parse("2026-03-04T05:00:00.000Z");
    setSystemTime(new Date(start));
    for (let number = 0; number < 20; number++) file.write(`baris ${number} ${"z".repeat(4000)}`, "info");
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain("ENOSPC");
    rmSync(filler);
    setSystemTime(new Date(start + logFileRetryMilliseconds));
    file.write("setelah ada ruang", "info");
    file.close();
    expect(reports).toHaveLength(2);
    expect(reports[1]).toContain("dapat ditulis lagi");
    const text = readFileSync(path, "utf8");
    expect(text).toContain("sebelum penuh");
    expect(text).toContain("setelah ada ruang");
  });
});

describe("the options", () => {
  test.each([
    ["10MB", 10 * 1024 * 1024],
    ["512kb", 512 * 1024],
    ["1GB", 1024 ** 3],
    [" 4 KB ", 4096],
    ["2048", 2048],
  ])("--log-max-size %p is %p bytes", (text, bytes) => {
    expect(byteSize(text)).toBe(bytes);
  });

  test.each([
    ["--log-max-size 2MB", {}, "--log-max-size dan --log-keep hanya berlaku bersama --log-file"],
    ["--log-keep 3", {}, "--log-max-size dan --log-keep hanya berlaku bersama --log-file"],
    ["--log-max-size 10", {}, "ukuran harus seperti 10MB"],
    ["--log-max-size 1.5MB", {}, "ukuran harus seperti 10MB"],
    ["--log-max-size 10TB", {}, "ukuran harus seperti 10MB"],
    ["--log-keep 0", {}, "jumlah harus bilangan bulat 1–100"],
    ["--log-keep dua", {}, "jumlah harus bilangan bulat 1–100"],
    ["", { SKRINING_LOG_FILE: "x.log", SKRINING_LOG_MAX_SIZE: "besar" }, "SKRINING_LOG_MAX_SIZE tidak valid (diberikan: besar)"],
    ["", { SKRINING_LOG_FILE: "x.log", SKRINING_LOG_KEEP: "0" }, "SKRINING_LOG_KEEP tidak valid (diberikan: 0)"],
  ] as [string, Record<string, string>, string][])("serve %s %o is refused before anything is created", async (options, env, message) => {
    const folder = temporaryDir();
    const dataDir = join(folder, "data");
    const result = await runCli(["--data", dataDir, "serve", ...options.split(" ").filter(Boolean)], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe("");
    expect(existsSync(dataDir)).toBe(false);
    expect(readdirSync(folder)).toEqual([]);
  });
});
