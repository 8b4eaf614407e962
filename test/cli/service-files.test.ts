import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Option } from "commander";
import { processIo } from "../../cli/common";
import { buildProgram } from "../../cli/program";
import { parseDuration } from "../../src/backup/automatic";
import { repositoryRoot } from "../helpers";

// The shipped service files (docs/operations.md, "Running as a service") run serve with
// automatic backups into a folder outside the data folder that the service may write,
// encrypted with a passphrase file outside both (decisions §17) that the installation steps
// create first, one option a line so that adding one (TLS) is adding a line.

const deployFile = (name: string) => readFileSync(join(repositoryRoot, "deploy", name), "utf8");

/** The options serve takes, by their long flag, and whether they take a value. */
const serveOptions = new Map(
  (buildProgram(processIo).commands.find((command) => command.name() === "serve")!.options as Option[]).map((option) => [option.long!, option.required || option.optional]),
);
const globalOptions = new Map([["--data", true]]);

/** The arguments as `option → value`, every one checked to be an option of the program at its place. */
function parsed(args: string[]): Map<string, string | true> {
  const options = new Map<string, string | true>();
  let known = globalOptions;
  for (let index = 0; index < args.length; index++) {
    const argument = args[index]!;
    if (argument === "serve") {
      known = serveOptions;
      continue;
    }
    expect({ argument, known: known.has(argument) }).toEqual({ argument, known: true });
    options.set(argument, known.get(argument) ? args[++index]! : true);
  }
  return options;
}

const operations = readFileSync(join(repositoryRoot, "docs", "operations.md"), "utf8");

/** What a service file must ask for: encrypted backups outside the data folder, every day, two weeks kept; the passphrase file in neither folder. */
function expectBackups(options: Map<string, string | true>, inside: (folder: string, dataDir: string) => boolean) {
  const dataDir = options.get("--data") as string;
  const backupDir = options.get("--backup-dir") as string;
  const passphraseFile = options.get("--backup-passphrase-file") as string;
  expect(typeof backupDir).toBe("string");
  expect(inside(backupDir, dataDir)).toBe(false);
  expect(parseDuration(options.get("--backup-every") as string)).toBe(24 * 3_600_000);
  expect(options.get("--backup-keep")).toBe("14");
  expect(typeof passphraseFile).toBe("string");
  // Not in the data folder nor beside the archives: a copy of either must not carry the key.
  expect(inside(passphraseFile, dataDir) || inside(passphraseFile, backupDir)).toBe(false);
  // The installation steps create it before the first start.
  expect(operations).toContain(passphraseFile);
  return { dataDir, backupDir, passphraseFile };
}

describe("deploy/skrining.service (systemd)", () => {
  const unit = deployFile("skrining.service");
  const lines = unit.split("\n");
  const start = lines.findIndex((line) => line.startsWith("ExecStart="));
  const continued: string[] = [lines[start]!];
  while (continued.at(-1)!.endsWith("\\")) continued.push(lines[start + continued.length]!);
  const args = continued.map((line) => line.replace(/^ExecStart=/, "").replace(/\\$/, "").trim()).join(" ").split(/\s+/).filter(Boolean);
  const setting = (name: string) => lines.filter((line) => line.startsWith(`${name}=`)).flatMap((line) => line.slice(name.length + 1).split(/\s+/));

  test("runs serve with automatic backups into a folder beside the data folder, never inside it", () => {
    expect(args[0]).toBe("/usr/local/bin/skrining");
    const { dataDir, backupDir, passphraseFile } = expectBackups(parsed(args.slice(1)), (folder, data) => folder === data || folder.startsWith(`${data}/`));
    expect(dataDir).toBe("/var/lib/skrining");
    expect(backupDir).toBe("/var/lib/skrining-backup");
    expect(passphraseFile).toBe("/etc/skrining/backup-passphrase");
  });

  test("systemd creates both folders for the service's user and lets it write them under ProtectSystem=strict", () => {
    expect(setting("ProtectSystem")).toEqual(["strict"]);
    // StateDirectory names folders under /var/lib, created 0700 for User= and writable by it.
    expect(setting("StateDirectory").map((name) => `/var/lib/${name}`).sort()).toEqual(["/var/lib/skrining", "/var/lib/skrining-backup"]);
    expect(setting("StateDirectoryMode")).toEqual(["0700"]);
  });

  test("serves HTTPS: before each start it makes the local CA and certificate of the same data folder when there are none (decisions §18)", () => {
    const options = parsed(args.slice(1));
    expect(options.get("--https-port")).toBe("5443");
    expect(options.get("--port")).toBe("5000");
    const before = setting("ExecStartPre");
    expect(before).toEqual(["/usr/local/bin/skrining", "--data", options.get("--data") as string, "tls", "init", "--if-missing"]);
    const init = buildProgram(processIo).commands.find((command) => command.name() === "tls")!.commands.find((command) => command.name() === "init")!;
    expect((init.options as Option[]).map((option) => option.long)).toContain("--if-missing");
  });

  test("a refused start (exit 1: a certificate or key that cannot be used; 3: storage) is not restarted every few seconds", () => {
    expect(setting("RestartPreventExitStatus")).toEqual(["1", "3"]);
  });

  test("one option a line after the command, so that adding one is adding one line", () => {
    expect(continued.length).toBeGreaterThan(3);
    for (const line of continued.slice(1)) expect(line.trim().replace(/\s*\\$/, "")).toMatch(/^--[a-z-]+( \S+)?$/);
  });
});

describe("deploy/skrining-service.xml (WinSW)", () => {
  const xml = deployFile("skrining-service.xml");
  const argumentLines = xml.split("\n").filter((line) => line.includes("<argument>"));
  const args = [...xml.matchAll(/<argument>([^<]*)<\/argument>/g)].map((match) => match[1]!);
  const windowsInside = (folder: string, data: string) => {
    const [inner, outer] = [folder, data].map((path) => path.toLowerCase().replace(/\\+$/, ""));
    return inner === outer || inner!.startsWith(`${outer}\\`);
  };

  test("runs serve with automatic backups into a folder beside the data folder, never inside it", () => {
    expect(xml).not.toContain("<arguments>");
    const { dataDir, backupDir, passphraseFile } = expectBackups(parsed(args), windowsInside);
    expect(dataDir).toBe("C:\\ProgramData\\skrining\\data");
    expect(backupDir).toBe("C:\\ProgramData\\skrining\\cadangan");
    expect(passphraseFile).toBe("C:\\ProgramData\\skrining\\backup-passphrase.txt");
    expect(windowsInside("C:\\ProgramData\\skrining\\DATA\\cadangan", dataDir)).toBe(true);
  });

  test("serves HTTPS on 5443 once tls/ exists; the installation steps make it with tls init first", () => {
    expect(parsed(args).get("--https-port")).toBe("5443");
    expect(operations).toContain('"C:\\Program Files\\skrining\\skrining.exe" --data C:\\ProgramData\\skrining\\data tls init');
  });

  test("one option (with its value) a line", () => {
    for (const line of argumentLines) {
      const onLine = [...line.matchAll(/<argument>([^<]*)<\/argument>/g)].map((match) => match[1]!);
      expect(onLine[0] === "serve" || onLine[0]!.startsWith("--")).toBe(true);
      expect(onLine.slice(1).every((value) => !value.startsWith("--"))).toBe(true);
    }
  });
});
