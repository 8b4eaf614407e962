import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { everyTableButAudit, populatedService, privacyCli, recountedSummaries, storedSummaries, textsOf, type Populated } from "./support";

let populated: Populated;
let service: Populated["service"];

beforeEach(async () => {
  populated = await populatedService();
  service = populated.service;
});

afterEach(() => service.close());

const sqlite = () => service.context.db.$client;
const photoOf = (nim: string) => sqlite().query<{ foto: string | null }, [string]>("SELECT foto_profil AS foto FROM mahasiswa WHERE NIM = ?").get(nim)?.foto ?? null;
const auditRows = () =>
  sqlite()
    .query<{ action: string; nim: string | null; target: string; actor_role: string; detail: string | null }, []>(
      "SELECT action, (SELECT group_concat(nim, ' ') FROM audit_subjects WHERE audit_id = id) AS nim, target, actor_role, detail FROM audit_log ORDER BY id",
    )
    .all();

/**
 * Every byte offset where `text` occurs in `bytes` (UTF-8). The NIM and the username may
 * remain in pages of the audit trail only: each occurrence in the database file is mapped
 * to its page and that page's owner (dbstat).
 */
function occurrences(bytes: Buffer, text: string): number[] {
  const found: number[] = [];
  for (let at = bytes.indexOf(text); at !== -1; at = bytes.indexOf(text, at + 1)) found.push(at);
  return found;
}

function pageOwners(): Map<number, string> {
  const rows = sqlite().query<{ name: string; pageno: number }, []>("SELECT name, pageno FROM dbstat").all();
  return new Map(rows.map((row) => [row.pageno, row.name]));
}

describe("skrining privacy erase", () => {
  test("removes the student from every table but the audit trail (their follow-up case and its notes too), and from every byte of the database, the WAL and the photos", async () => {
    const photo = photoOf("N001")!;
    expect(existsSync(join(service.dataDir, photo))).toBe(true);
    const texts = Object.values(textsOf("N001"));

    const result = await privacyCli(service, ["erase", "--nim", "N001"]);
    expect(result).toMatchObject({ exitCode: 0, stderr: "" });
    expect(result.stdout).toContain("Data mahasiswa N001 dihapus (baris per tabel):");
    for (const line of [/tindak_lanjut_riwayat\s+1\n/, /permintaan_kontak\s+1\n/, /tindak_lanjut\s+1\n/, /pergantian_dosen_wali\s+1\n/, /riwayat_skrining\s+1\n/, /latest_skrining\s+1\n/, /mood_entries\s+2\n/, /diary_entries\s+2\n/, /catatan_konseling\s+1\n/, /privacy_acknowledgements\s+1\n/, /sessions\s+1\n/, /mahasiswa\s+1\n/, /users\s+1\n/]) {
      expect(result.stdout).toMatch(line);
    }
    expect(result.stdout).toContain(`file foto: ${photo}`);

    // No table but audit_log names the student or holds their texts.
    const tables = everyTableButAudit(sqlite());
    for (const value of ["N001", "mhs1", "Mahasiswa Satu", ...texts]) expect(tables).not.toContain(value);
    // The other student is untouched.
    const { diaryFirst: _replaced, ...othersTexts } = textsOf("N002");
    for (const value of ["N002", ...Object.values(othersTexts)]) expect(tables).toContain(value);

    // The file itself: the texts and the student's name nowhere, the audit trail included (its
    // rows name an actor by account id and username, decisions §16); the NIM and username only
    // in the audit trail's pages.
    const database = join(service.dataDir, "skrining.db");
    const bytes = readFileSync(database);
    for (const text of [...texts, "Mahasiswa Satu"]) expect({ text, at: occurrences(bytes, text) }).toEqual({ text, at: [] });
    const pageSize = sqlite().query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
    const owners = pageOwners();
    for (const name of ["N001", "mhs1"]) {
      const pages = new Set(occurrences(bytes, name).map((at) => owners.get(Math.floor(at / pageSize) + 1) ?? "free page"));
      for (const owner of pages) expect({ name, owner }).toEqual({ name, owner: expect.stringMatching(/^(audit_log|audit_subjects|audit_(log|subjects)_\w+_index)$/) });
    }
    // The WAL was copied into the database and truncated.
    const wal = `${database}-wal`;
    if (existsSync(wal)) {
      const walBytes = readFileSync(wal);
      for (const text of [...texts, "N001", "mhs1"]) expect({ text, at: occurrences(walBytes, text) }).toEqual({ text, at: [] });
    }

    expect(existsSync(join(service.dataDir, photo))).toBe(false);
    expect(existsSync(join(service.dataDir, photoOf("N002")!))).toBe(true);

    // The account is gone: its password no longer logs in, its tokens no longer work.
    expect((await service.request("POST", "/api/auth/login", { body: { username: "mhs1", password: "mhs-pass-1" } })).status).toBe(401);
    expect((await service.request("GET", "/api/auth/me", { token: populated.tokens.mhs1 })).status).toBe(401);

    const rows = auditRows().filter((row) => row.action === "privacy");
    expect(rows).toEqual([
      {
        action: "privacy",
        nim: "N001",
        target: "skrining privacy erase",
        actor_role: "cli",
        detail: "tindak_lanjut_riwayat=1 permintaan_kontak=1 tindak_lanjut=1 pergantian_dosen_wali=1 riwayat_skrining=1 latest_skrining=1 mood_entries=2 diary_entries=2 catatan_konseling=1 privacy_acknowledgements=1 sessions=1 mahasiswa=1 users=1 foto=1",
      },
    ]);
  });

  test("the lecturer statistics stay consistent: the summaries equal a recount, the lecturer's figures follow", async () => {
    const before = (await service.request("GET", "/api/dosen/statistik", { token: populated.tokens.dosen1 })).body;
    expect(before.total_mahasiswa).toBe(1);
    expect(storedSummaries(sqlite()).weeks).not.toEqual([]);

    expect((await privacyCli(service, ["erase", "--nim", "N001"])).exitCode).toBe(0);

    expect(storedSummaries(sqlite())).toEqual(recountedSummaries(sqlite()));
    expect(storedSummaries(sqlite()).weeks.map((row) => (row as { NIP: string }).NIP)).toEqual(["D002"]);
    expect((await service.request("GET", "/api/dosen/statistik", { token: populated.tokens.dosen1 })).body).toEqual({
      total_mahasiswa: 0,
      sudah_skrining: 0,
      stress_dist: {},
      motivasi_dist: {},
    });
  });

  test("photos left under the student's name (an older upload set aside) go too; another student's stay", async () => {
    const photosDir = join(service.dataDir, "photos");
    const leftover = join(photosDir, "unreferenced", "N001_1700000000_0a1b2c3d.jpg");
    const othersLeftover = join(photosDir, "unreferenced", "N002_1700000000_0a1b2c3d.jpg");
    await Bun.write(leftover, "old");
    await Bun.write(othersLeftover, "old");
    const result = await privacyCli(service, ["erase", "--nim", "N001"]);
    expect(result.stdout).toContain("file foto: photos/unreferenced/N001_1700000000_0a1b2c3d.jpg");
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(othersLeftover)).toBe(true);
  });

  test("--dry-run prints what would go and changes nothing, writes no audit row", async () => {
    const database = join(service.dataDir, "skrining.db");
    const tables = everyTableButAudit(sqlite());
    const audit = auditRows();
    const photo = photoOf("N001")!;
    const result = await privacyCli(service, ["erase", "--nim", "N001", "--dry-run"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toStartWith("Uji coba (--dry-run): tidak ada yang diubah.\nAkan dihapus untuk mahasiswa N001 (baris per tabel):\n");
    expect(result.stdout).toMatch(/diary_entries\s+2\n/);
    expect(result.stdout).toContain(`file foto: ${photo}`);
    expect(everyTableButAudit(sqlite())).toBe(tables);
    expect(auditRows()).toEqual(audit);
    expect(existsSync(join(service.dataDir, photo))).toBe(true);
    expect(statSync(database).size).toBeGreaterThan(0);
  });

  test.each([
    ["an unknown NIM", ["erase", "--nim", "N999"], 'skrining: Mahasiswa dengan NIM "N999" tidak ditemukan.\n'],
    ["no --nim", ["erase"], "skrining: --nim wajib diisi.\n"],
    ["an empty --nim", ["erase", "--nim", " "], "skrining: --nim wajib diisi.\n"],
  ])("%s is refused (exit 1) and nothing changes", async (_, args, message) => {
    const tables = everyTableButAudit(sqlite());
    const result = await privacyCli(service, args);
    expect(result).toEqual({ exitCode: 1, stdout: "", stderr: message });
    expect(everyTableButAudit(sqlite())).toBe(tables);
  });
});
