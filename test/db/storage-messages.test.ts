import { describe, expect, test } from "bun:test";
import { StorageError, describeForAdmin } from "../../src/db/storage";

// A storage failure as the admin reads it: the server recovers by itself, a command that
// failed has ended and must be run again (a backup to a full disk is not retried).

const failure = (problem: ConstructorParameters<typeof StorageError>[0], code: string) =>
  new StorageError(problem, Object.assign(new Error(`${code}: failed`), { code }), "/srv/cadangan/cadangan.tar.gz");

describe("describeForAdmin", () => {
  const cases = [
    ["full", "ENOSPC", "Disk penuh (/srv/cadangan/cadangan.tar.gz): ENOSPC: failed. Kosongkan ruang disk (atau pilih tempat lain), lalu jalankan perintah ini lagi."],
    ["readonly", "EROFS", "Penyimpanan hanya-baca atau tanpa izin tulis (/srv/cadangan/cadangan.tar.gz): EROFS: failed. Periksa izin dan mount folder itu, lalu jalankan perintah ini lagi."],
    ["busy", "SQLITE_BUSY", "Basis data sedang dikunci program lain (/srv/cadangan/cadangan.tar.gz): SQLITE_BUSY: failed. Tutup program lain yang membuka skrining.db (sqlite3, alat cadangan), lalu jalankan perintah ini lagi."],
  ] as const;

  test.each(cases)("%s, for a command: run it again, never 'pulih sendiri'", (problem, code, line) => {
    expect(describeForAdmin(failure(problem, code), "command")).toBe(line);
  });

  test.each(cases)("%s, for the server: it recovers by itself", (problem, code) => {
    expect(describeForAdmin(failure(problem, code))).toContain("skrining pulih sendiri");
  });

  test("damage and disk errors say the same to both", () => {
    for (const [problem, code] of [["damaged", "SQLITE_CORRUPT"], ["io", "EIO"]] as const) {
      expect(describeForAdmin(failure(problem, code), "command")).toBe(describeForAdmin(failure(problem, code)));
    }
  });
});
