import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openDatabase } from "../../src/db";
import { readStressSums, recomputeStressSums } from "../../src/db/measures";
import { applyMigrations } from "../../src/db/migrate";
import { migrations } from "../../src/db/migrations";
import { summariesCurrent } from "../../src/db/summaries";
import { jawaban, temporaryDir } from "../helpers";

// Migration 0017 (decisions §20) on a database of the version before: every screening and
// case is kept; earlier screenings are judged for validity by the service's rule, and the
// running sums, the count of students and the latest SDI are filled from what is there.

const index = migrations.findIndex((migration) => migration.tag === "0017_measurement");

const varied = () =>
  jawaban(1, 3, {
    ...Object.fromEntries(Array.from({ length: 40 }, (_, item) => [`S${item + 1}`, 1 + (item % 5)])),
    ...Object.fromEntries(Array.from({ length: 28 }, (_, item) => [`M${item + 1}`, 3 + (item % 2) * 2])),
  });
const withRun = () => ({ ...varied(), ...Object.fromEntries(Array.from({ length: 22 }, (_, item) => [`S${item + 5}`, "2"])) });

/** A database migrated to 0016 with screenings as that version stored them (answers of every kind) and a case. */
function previousVersion() {
  const sqlite = openDatabase(join(temporaryDir("skrining-migration-0017-"), "skrining.db"), migrations.slice(0, index)).$client;
  sqlite.run("INSERT INTO users (Id_User, username, password_hash, role) VALUES (1, 'd1', 'h', 'dosen'), (2, 'm1', 'h', 'mahasiswa'), (3, 'm2', 'h', 'mahasiswa'), (4, 'm3', 'h', 'mahasiswa')");
  sqlite.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Dosen Satu', 1)");
  sqlite.run("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES ('N1', 2, 'D1'), ('N2', 3, 'D1'), ('N3', 4, NULL)");
  const screening = sqlite.prepare(
    "INSERT INTO riwayat_skrining (Id_skrining, NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES (?, ?, ?, ?, 'Sedang', 'Sedang', 's', ?, ?)",
  );
  const stressOf = (answers: Record<string, unknown>) => Array.from({ length: 40 }, (_, item) => Number(answers[`S${item + 1}`])).reduce((sum, value) => sum + value, 0);
  for (const [id, nim, tanggal, answers] of [
    [1, "N1", "2026-09-01T08:00:00.000Z", varied()],
    [2, "N1", "2026-10-01T08:00:00.000Z", jawaban(4, 4)],
    [3, "N2", "2026-10-02T08:00:00.000Z", withRun()],
    [4, "N3", "2026-10-03T08:00:00.000Z", { ...varied(), M1: 9 }],
  ] as const) {
    screening.run(id, nim, tanggal, JSON.stringify(answers), stressOf(answers), 1.5);
  }
  // A row written by hand: no answers to judge.
  screening.run(5, "N3", "2026-10-04T08:00:00.000Z", "{}", 100, -0.25);
  sqlite.run(
    `INSERT INTO tindak_lanjut (Id_tindak_lanjut, NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, alasan_stres_sangat_tinggi, Id_skrining, status, dibuka_pada, diperbarui_pada)
     VALUES (3, 'N1', 'D1', 1, 0, 0, 2, 'baru', '2026-10-01T09:00:00.000Z', '2026-10-01T09:00:00.000Z')`,
  );
  sqlite.run("INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, Id_User, nama, waktu) VALUES (3, NULL, 'baru', 'c', NULL, 'Sistem', '2026-10-01T09:00:00.000Z')");
  sqlite.run("UPDATE sqlite_sequence SET seq = 7 WHERE name = 'tindak_lanjut'");
  return sqlite;
}

describe("migration 0017 (measurement) on a populated database of the version before", () => {
  test("judges the earlier screenings, fills the sums and the latest SDI, keeps the case and its counter", () => {
    const sqlite = previousVersion();
    try {
      const casesBefore = sqlite.query("SELECT * FROM tindak_lanjut").all() as object[];
      expect(applyMigrations(sqlite, migrations)).toEqual(migrations.slice(index).map((migration) => migration.tag));
      expect(summariesCurrent(sqlite)).toBe(true);
      expect(sqlite.query("PRAGMA foreign_key_check").all()).toEqual([]);

      // Judged by the service's rule; no duration was kept, so none is too fast. Row 4 has an
      // answer off its scale and row 5 none: they stay unjudged, out of the sums.
      expect(sqlite.query("SELECT Id_skrining AS id, validitas_alasan AS reasons FROM riwayat_skrining ORDER BY id").all()).toEqual([
        { id: 1, reasons: "" },
        { id: 2, reasons: "jawaban_seragam" },
        { id: 3, reasons: "pola_berulang" },
        { id: 4, reasons: null },
        { id: 5, reasons: null },
      ]);
      const sums = readStressSums(sqlite);
      expect(sums).toEqual(recomputeStressSums(sqlite));
      expect(sums.screenings).toBe(3);
      expect(sums.itemSums[0]).toBe(1 + 4 + 1);
      expect(sqlite.query("SELECT students FROM latest_skrining_summary").get()).toEqual({ students: 3 });
      expect(sqlite.query("SELECT NIM, score_sdi FROM latest_skrining ORDER BY NIM").all()).toEqual([
        { NIM: "N1", score_sdi: 1.5 },
        { NIM: "N2", score_sdi: 1.5 },
        { NIM: "N3", score_sdi: -0.25 },
      ]);
      expect(sqlite.query("SELECT aktif, nama_kontak FROM pertanyaan_keselamatan").all()).toEqual([{ aktif: 0, nama_kontak: null }]);

      // The case is kept with no new reason and no urgent target; the counter came along (an erased case's id is never given again).
      expect(sqlite.query("SELECT * FROM tindak_lanjut").all()).toEqual(
        casesBefore.map((row) => ({ ...row, alasan_memburuk_andal: 0, alasan_butir_kritis: 0, batas_kontak_segera: null })),
      );
      sqlite.run("INSERT INTO tindak_lanjut (NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, alasan_butir_kritis, status, dibuka_pada, diperbarui_pada) VALUES ('N2', 'D1', 0, 0, 1, 'baru', 't', 't')");
      expect(sqlite.query("SELECT max(Id_tindak_lanjut) AS id FROM tindak_lanjut").get()).toEqual({ id: 8 });
      // A case needs a reason; the two new ones count.
      expect(() => sqlite.run("INSERT INTO tindak_lanjut (NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, status, dibuka_pada, diperbarui_pada) VALUES ('N3', NULL, 0, 0, 'baru', 't', 't')")).toThrow(
        "CHECK constraint failed",
      );

      // The trigger takes a deleted judged screening out of the sums.
      sqlite.run("DELETE FROM tindak_lanjut");
      sqlite.run("DELETE FROM riwayat_skrining WHERE Id_skrining IN (2, 5)");
      expect(readStressSums(sqlite)).toEqual(recomputeStressSums(sqlite));
      expect(readStressSums(sqlite).screenings).toBe(2);
    } finally {
      sqlite.close();
    }
  });
});
