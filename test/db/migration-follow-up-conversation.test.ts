import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openDatabase } from "../../src/db";
import { applyMigrations } from "../../src/db/migrate";
import { migrations } from "../../src/db/migrations";
import { summariesCurrent } from "../../src/db/summaries";
import { temporaryDir } from "../helpers";

// Migration 0016 (decisions §19) on a database of the version before: every case, timeline
// entry, note and diary entry is kept; earlier data is brought under the new rules.

const index = migrations.findIndex((migration) => migration.tag === "0016_follow_up_conversation");

/** A database migrated to 0015 with cases in every state, notes and diary entries, as that version wrote them. */
function previousVersion() {
  const sqlite = openDatabase(join(temporaryDir("skrining-migration-0016-"), "skrining.db"), migrations.slice(0, index)).$client;
  sqlite.run(`INSERT INTO users (Id_User, username, password_hash, role) VALUES
    (1, 'd1', 'h', 'dosen'), (2, 'd2', 'h', 'dosen'), (3, 'm1', 'h', 'mahasiswa'), (4, 'm2', 'h', 'mahasiswa'), (5, 'm3', 'h', 'mahasiswa'), (6, 'd3', 'h', 'dosen')`);
  sqlite.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Dosen Satu', 1), ('D2', 'Konselor Dua', 2), ('D3', 'Dosen Tiga', 6)");
  sqlite.run("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES ('N1', 3, 'D1'), ('N2', 4, 'D1'), ('N3', 5, 'D1')");
  const insertCase = sqlite.prepare(
    `INSERT INTO tindak_lanjut (Id_tindak_lanjut, NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, alasan_stres_sangat_tinggi, status, dibuka_pada, pertama_dihubungi_pada, ditutup_pada, diperbarui_pada)
     VALUES (?, ?, ?, 1, 0, 0, ?, ?, ?, ?, ?)`,
  );
  const entry = sqlite.prepare("INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, Id_User, nama, waktu) VALUES (?, ?, ?, 'c', NULL, 'x', ?)");
  // Case 1 (N1): referred straight from baru, then closed; the earlier version set "first contact" at the referral.
  insertCase.run(1, "N1", "D2", "selesai", "2026-03-01T00:00:00.000Z", "2026-03-02T00:00:00.000Z", "2026-03-05T00:00:00.000Z", "2026-03-05T00:00:00.000Z");
  entry.run(1, null, "baru", "2026-03-01T00:00:00.000Z");
  entry.run(1, "baru", "dirujuk", "2026-03-02T00:00:00.000Z");
  entry.run(1, "dirujuk", "selesai", "2026-03-05T00:00:00.000Z");
  // Case 4 (N2): handed over while dihubungi (an entry with the same status on both sides), contacted before that.
  insertCase.run(4, "N2", "D2", "dihubungi", "2026-03-10T00:00:00.000Z", "2026-03-11T00:00:00.000Z", null, "2026-03-12T00:00:00.000Z");
  entry.run(4, null, "baru", "2026-03-10T00:00:00.000Z");
  entry.run(4, "baru", "dihubungi", "2026-03-11T00:00:00.000Z");
  entry.run(4, "dihubungi", "dihubungi", "2026-03-12T00:00:00.000Z");
  // Case 2 (N3): an earlier episode contacted and closed, reopened, closed from baru (then "first contact" too).
  insertCase.run(2, "N3", "D1", "selesai", "2026-03-20T00:00:00.000Z", "2026-03-21T00:00:00.000Z", "2026-03-21T00:00:00.000Z", "2026-03-21T00:00:00.000Z");
  entry.run(2, null, "baru", "2026-03-01T00:00:00.000Z");
  entry.run(2, "baru", "dihubungi", "2026-03-02T00:00:00.000Z");
  entry.run(2, "dihubungi", "selesai", "2026-03-03T00:00:00.000Z");
  entry.run(2, "selesai", "baru", "2026-03-20T00:00:00.000Z");
  entry.run(2, "baru", "selesai", "2026-03-21T00:00:00.000Z");
  // An erased case's id (5) is never given again.
  sqlite.run("UPDATE sqlite_sequence SET seq = 5 WHERE name = 'tindak_lanjut'");
  sqlite.run(`INSERT INTO catatan_konseling (Id_catatan, NIM, NIP, isi_catatan, tanggal_catat, reply, tanggal_reply, balasan_dibaca_dosen_pada) VALUES
    (1, 'N1', 'D2', 'dari konselor, balasan sudah dilihat', '2026-03-01T00:00:00.000Z', 'ya', '2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z'),
    (2, 'N1', 'D2', 'dari konselor, balasan belum dilihat', '2026-03-04T00:00:00.000Z', 'belum', '2026-03-05T00:00:00.000Z', NULL),
    (3, 'N2', 'D1', 'dari dosen wali', '2026-03-04T00:00:00.000Z', '', NULL, NULL)`);
  sqlite.run("INSERT INTO diary_entries (nim, date, title, content, created_at, updated_at) VALUES ('N1', '2026-03-01', 'a', 'isi', 't', 't')");
  return sqlite;
}

describe("migration 0016 (after the first contact) on a populated database of the version before", () => {
  test("keeps every case and timeline entry, recomputes the first contact, and marks old news as seen", () => {
    const sqlite = previousVersion();
    try {
      const timelineBefore = sqlite.query("SELECT * FROM tindak_lanjut_riwayat ORDER BY id").all() as object[];
      expect(applyMigrations(sqlite, migrations)).toEqual(migrations.slice(index).map((migration) => migration.tag));
      expect(summariesCurrent(sqlite)).toBe(true);
      expect(sqlite.query("PRAGMA foreign_key_check").all()).toEqual([]);

      expect(
        sqlite
          .query(
            `SELECT Id_tindak_lanjut AS id, status, pertama_dihubungi_pada AS kontak, alasan_permintaan_mahasiswa AS permintaan, alasan_selesai, perlu_dukungan, ditutup_dilihat_doswal_pada AS dilihat
             FROM tindak_lanjut ORDER BY id`,
          )
          .all(),
      ).toEqual([
        // A referral is no contact; the closing has no reason ("tidak dicatat") and is no news to the advisor.
        { id: 1, status: "selesai", kontak: null, permintaan: 0, alasan_selesai: null, perlu_dukungan: null, dilihat: "2026-03-05T00:00:00.000Z" },
        // The current episode began at the reopening; its closing from baru is no contact.
        { id: 2, status: "selesai", kontak: null, permintaan: 0, alasan_selesai: null, perlu_dukungan: null, dilihat: "2026-03-21T00:00:00.000Z" },
        // The move to dihubungi, not the reassignment after it.
        { id: 4, status: "dihubungi", kontak: "2026-03-11T00:00:00.000Z", permintaan: 0, alasan_selesai: null, perlu_dukungan: null, dilihat: null },
      ]);
      expect(sqlite.query("SELECT * FROM tindak_lanjut_riwayat ORDER BY id").all()).toEqual(
        // 0017 (decisions §20) adds a critical answer's same-day target, empty for every earlier entry.
        timelineBefore.map((row) => ({ ...row, hasil_kontak: null, alasan_selesai: null, perlu_dukungan: null, batas_kontak_segera: null })),
      );
      expect(sqlite.query("SELECT Id_catatan AS id, balasan_dilihat_doswal AS advisor FROM catatan_konseling ORDER BY id").all()).toEqual([
        { id: 1, advisor: "D1" },
        { id: 2, advisor: null },
        { id: 3, advisor: null },
      ]);
      expect(sqlite.query("SELECT dibagikan FROM diary_entries").all()).toEqual([{ dibagikan: 0 }]);
      expect(sqlite.query("SELECT NIP, telepon FROM dosen ORDER BY NIP").all()).toEqual([
        { NIP: "D1", telepon: null },
        { NIP: "D2", telepon: null },
        { NIP: "D3", telepon: null },
      ]);

      // The counter came along: a new case gets 6.
      sqlite.run(
        "INSERT INTO tindak_lanjut (NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, alasan_permintaan_mahasiswa, status, dibuka_pada, diperbarui_pada) VALUES ('N1', 'D1', 0, 0, 1, 'baru', 't', 't')",
      );
      expect(sqlite.query("SELECT max(Id_tindak_lanjut) AS id FROM tindak_lanjut").get()).toEqual({ id: 6 });
      // A case needs a reason, and a closing reason is one of the five.
      expect(() =>
        sqlite.run("INSERT INTO tindak_lanjut (NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, status, dibuka_pada, diperbarui_pada) VALUES ('N2', 'D1', 0, 0, 'selesai', 't', 't')"),
      ).toThrow("CHECK constraint failed");
      expect(() => sqlite.run("UPDATE tindak_lanjut SET alasan_selesai = 'lupa' WHERE Id_tindak_lanjut = 1")).toThrow("CHECK constraint failed");

      // The trigger records an advisor change with both names, and moves the open case as before.
      sqlite.run("UPDATE mahasiswa SET NIP_doswal = 'D3' WHERE NIM = 'N1'");
      expect(sqlite.query("SELECT NIM, NIP_sebelumnya, NIP_baru, nama_sebelumnya, nama_baru FROM pergantian_dosen_wali").all()).toEqual([
        { NIM: "N1", NIP_sebelumnya: "D1", NIP_baru: "D3", nama_sebelumnya: "Dosen Satu", nama_baru: "Dosen Tiga" },
      ]);
      expect(sqlite.query("SELECT NIP FROM tindak_lanjut WHERE Id_tindak_lanjut = 6").get()).toEqual({ NIP: "D3" });
    } finally {
      sqlite.close();
    }
  });

  test("a lecturer deleted or renamed is no change of advisor", () => {
    const sqlite = previousVersion();
    try {
      applyMigrations(sqlite, migrations);
      sqlite.run("UPDATE dosen SET NIP = 'D1-baru' WHERE NIP = 'D1'");
      sqlite.run("UPDATE mahasiswa SET NIP_doswal = NULL WHERE NIM = 'N3'");
      expect(sqlite.query("SELECT NIM, NIP_sebelumnya, NIP_baru, nama_baru FROM pergantian_dosen_wali").all()).toEqual([
        { NIM: "N3", NIP_sebelumnya: "D1-baru", NIP_baru: null, nama_baru: null },
      ]);
    } finally {
      sqlite.close();
    }
  });
});
