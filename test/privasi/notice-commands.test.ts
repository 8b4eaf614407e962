import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultPrivacyNotice } from "../../src/konten/privacy-notice";
import { TestService, standardAccounts, temporaryDir } from "../helpers";
import { cli, csvFile, outputLines } from "../cli/support";

// `skrining notice import <file>` and `notice export`: the privacy notice as a data file
// the faculty replaces. An import is validated first and changes nothing on any problem;
// the file is what the service answers, without a restart.

let dataDir: string;
const noticePath = () => join(dataDir, "privacy-notice.json");

function noticeFile(content: unknown): string {
  const path = join(temporaryDir("skrining-notice-"), "privacy-notice.json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

beforeAll(async () => {
  dataDir = temporaryDir("skrining-notice-data-");
  expect((await cli(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
});

describe("notice export", () => {
  test("prints the project's notice while none is imported, as JSON an admin can edit and import", async () => {
    const result = await cli(dataDir, ["notice", "export"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(defaultPrivacyNotice);
    expect(existsSync(noticePath())).toBe(false);
  });
});

describe("notice import refuses a bad file and changes nothing", () => {
  const long = "x".repeat(10_001);
  test.each([
    ["not JSON", "{version", ["tidak dapat membaca"]],
    ["a list", [], ['Isi file harus objek {"version": ..., "title": ..., "text": ...}.']],
    ["every field wrong at once", { version: "versi dua", title: "", text: long, extra: 1 }, [
      'Kunci tidak dikenal: extra; yang diterima hanya "version", "title" dan "text".',
      '"version" harus teks 1-40 karakter dari huruf, angka, titik, garis bawah atau tanda hubung, tanpa spasi (misalnya "2026-2").',
      '"title" harus teks 1-120 karakter.',
      '"text" harus teks 1-10000 karakter.',
    ]],
    ["no version", { title: "Privasi", text: "Isi." }, ['"version" harus teks 1-40 karakter']],
    ["a version too long", { version: "v".repeat(41), title: "Privasi", text: "Isi." }, ['"version" harus teks 1-40 karakter']],
  ])("%s", async (_case, content, messages) => {
    const result = await cli(dataDir, ["notice", "import", noticeFile(content)]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    for (const message of messages) expect(result.stderr).toContain(message);
    if (Array.isArray(content) || typeof content === "object") {
      expect(outputLines(result.stderr).at(-1)).toMatch(/^skrining: \d+ masalah ditemukan; pemberitahuan privasi untuk mahasiswa tidak diganti\.$/);
    }
    expect(existsSync(noticePath())).toBe(false);
  });

  test("a file that does not exist", async () => {
    const result = await cli(dataDir, ["notice", "import", join(temporaryDir("skrining-notice-"), "tidak-ada.json")]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("tidak dapat membaca");
    expect(existsSync(noticePath())).toBe(false);
  });
});

describe("notice import", () => {
  const faculty = { version: "2027-1", title: "  Pemberitahuan Privasi Fakultas  ", text: "Data Anda kami jaga.\n\nHubungi admin fakultas di ruang A.1." };

  test("a new version: stored trimmed (0600), exported back, and the line says students are asked again", async () => {
    const result = await cli(dataDir, ["notice", "import", noticeFile(faculty)]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stdout)).toEqual([
      `Pemberitahuan privasi versi 2027-1 dipasang (sebelumnya ${defaultPrivacyNotice.version}). Setiap mahasiswa diminta menyetujuinya saat masuk berikutnya.`,
    ]);
    const stored = { ...faculty, title: "Pemberitahuan Privasi Fakultas" };
    expect(JSON.parse(readFileSync(noticePath(), "utf8"))).toEqual(stored);
    expect((statSync(noticePath()).mode & 0o777).toString(8)).toBe("600");
    expect(JSON.parse((await cli(dataDir, ["notice", "export"])).stdout)).toEqual(stored);
  });

  test("new words under the same version are refused, the notice in force kept (issue 44, item 12); the same notice again says students are not asked again", async () => {
    const before = readFileSync(noticePath(), "utf8");
    const changed = await cli(dataDir, ["notice", "import", noticeFile({ ...faculty, text: "Teks yang diperbaiki." })]);
    expect(changed.exitCode).toBe(1);
    expect(changed.stderr).toContain('Judul atau teks berubah, tetapi versinya tetap "2027-1"');
    expect(readFileSync(noticePath(), "utf8")).toBe(before);
    const result = await cli(dataDir, ["notice", "import", noticeFile(faculty)]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("Pemberitahuan privasi versi 2027-1 dipasang. Versinya sama dengan sebelumnya: mahasiswa yang sudah menyetujui versi ini tidak diminta menyetujui lagi");
  });

  test("a running service answers the imported notice at once, without a restart", async () => {
    const service = new TestService();
    try {
      expect((await service.request("GET", "/api/privasi/pemberitahuan")).body.version).toBe(defaultPrivacyNotice.version);
      const result = await cli(service.dataDir, ["notice", "import", noticeFile({ version: "2028-1", title: "Baru", text: "Isi baru." })]);
      expect(result.exitCode).toBe(0);
      expect((await service.request("GET", "/api/privasi/pemberitahuan")).body).toEqual({ version: "2028-1", title: "Baru", text: "Isi baru.", acknowledged: null });
    } finally {
      service.close();
    }
  });

  test("a file broken by hand later: the project's notice applies again, nothing fails", async () => {
    writeFileSync(noticePath(), "{rusak");
    const result = await cli(dataDir, ["notice", "export"]);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(defaultPrivacyNotice);
  });
});
