import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { TestService, runCli, temporaryDir } from "../helpers";

// The command line speaks Indonesian, commander's own help and errors included.

/** Words of commander's English texts that must not reach an admin. */
const english = /\b(error|Usage|Options|Commands|Arguments|display help|output the version|default:|choices:|Did you mean|unknown|missing|required|argument)\b/;

describe("commander's errors in Indonesian: exit 1, nothing created", () => {
  test.each([
    ["an unknown command, with a suggestion", ["statz"], "kesalahan: perintah 'statz' tidak dikenal.\n(Mungkin maksud Anda stats?)\n"],
    ["an unknown option", ["stats", "export", "--bogus"], "kesalahan: opsi '--bogus' tidak dikenal.\n"],
    ["a missing value", ["stats", "export", "--nip"], "kesalahan: opsi '--nip <nip>' memerlukan nilai.\n"],
    ["a missing mandatory option", ["model", "add", "--file", "x.json"], "kesalahan: opsi wajib '--type <jenis>' belum diberikan.\n"],
    ["a missing argument", ["backup"], "kesalahan: argumen 'file' wajib diberikan.\n"],
    ["too many arguments", ["accounts", "list", "lagi"], "kesalahan: terlalu banyak argumen untuk 'list': seharusnya 0, diberikan 1.\n"],
    ["a value outside the choices", ["stats", "export", "--format", "xml"], "kesalahan: nilai 'xml' untuk opsi '--format <format>' tidak dapat dipakai: pilih salah satu dari csv, json.\n"],
    ["a port that is no port", ["serve", "--port", "99999"], "kesalahan: nilai '99999' untuk opsi '--port <port>' tidak dapat dipakai: port harus 0–65535\n"],
  ])("%s", async (_name, args, stderr) => {
    const dataDir = join(temporaryDir(), "data");
    const result = await runCli(["--data", dataDir, ...args]);
    expect(result).toMatchObject({ exitCode: 1, stdout: "", stderr });
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe("help in Indonesian", () => {
  test.each([[["--help"]], [["help", "model"]], [["stats", "export", "--help"]], [["accounts", "--help"]], [["serve", "--help"]]])("%p", async (args) => {
    const result = await runCli(args);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toStartWith("Pemakaian: skrining");
    expect(result.stdout).toContain("Opsi:");
    expect(result.stdout).toContain("-h, --help");
    expect(result.stdout).toContain("tampilkan bantuan");
    expect(result.stdout).not.toMatch(english);
  });

  test("choices and defaults are named in Indonesian", async () => {
    const result = await runCli(["stats", "export", "--help"]);
    expect(result.stdout).toContain("(pilihan: csv, json) (bawaan: \"csv\")");
  });
});

test("option values in any case: --format JSON, --csv Excel-ID", async () => {
  const service = new TestService();
  const dataDir = service.dataDir;
  const json = await runCli(["--data", dataDir, "stats", "export", "--format", "JSON"]);
  expect(json).toMatchObject({ exitCode: 0, stdout: "[]\n" });
  const csv = await runCli(["--data", dataDir, "stats", "export", "--csv", "Excel-ID"]);
  expect(csv.exitCode).toBe(0);
  expect(csv.stdout).toStartWith("\uFEFFNIP;nama_dosen;");
  service.close();
});
