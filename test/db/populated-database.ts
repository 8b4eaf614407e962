import type { Database } from "bun:sqlite";
import { join } from "node:path";
import { openDatabase } from "../../src/db";
import { migrations } from "../../src/db/migrations";
import type { EmbeddedMigration } from "../../src/db/migrate";
import { temporaryDir } from "../helpers";

/** A database with every current migration (or those given) and a few rows in every table that matters. */
export function populated(applied: EmbeddedMigration[] = migrations): { sqlite: Database; path: string } {
  const path = join(temporaryDir("skrining-migrate-"), "skrining.db");
  const sqlite = openDatabase(path, applied).$client;
  sqlite.transaction(() => {
    sqlite.run(`INSERT INTO users (Id_User, username, password_hash, role) VALUES
      (1, 'admin', 'h', 'admin'), (2, 'dsn1', 'h', 'dosen'), (3, 'dsn2', 'h', 'dosen'),
      (4, 'mhs1', 'h', 'mahasiswa'), (5, 'mhs2', 'h', 'mahasiswa'), (6, 'mhs3', 'h', 'mahasiswa')`);
    sqlite.run("INSERT INTO jurusan (Id_Jurusan, nama_jurusan) VALUES (1, 'Informatika'), (2, 'Sistem Informasi')");
    sqlite.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Dosen Satu', 2), ('D2', 'Dosen Dua', 3)");
    sqlite.run(`INSERT INTO mahasiswa (NIM, nama_mahasiswa, Id_User, id_jurusan, NIP_doswal, IPK, usia) VALUES
      ('N1', 'Satu', 4, 1, 'D1', 3.5, 20), ('N2', 'Dua', 5, 2, 'D2', 2.75, 21), ('N3', 'Tiga', 6, 1, 'D1', NULL, NULL)`);
    sqlite.run("INSERT INTO prediction_models (id, type, file_path, algorithm, version, input_features, source_sha256) VALUES (1, 'stress', 'models/a.json', 'rf', '1', '[]', 'x')");
    for (const [nim, day, stress] of [["N1", "01", "Tinggi"], ["N1", "02", "Sedang"], ["N2", "01", "Rendah"], ["N3", "03", "Sedang"]] as const) {
      sqlite.run(
        "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi, stress_model_id) VALUES (?, ?, '{}', ?, 'Sedang', 'saran', 10, 20, 1)",
        [nim, `2026-03-${day}T08:00:00.000Z`, stress],
      );
    }
    sqlite.run(`INSERT INTO catatan_konseling (NIM, NIP, isi_catatan, tanggal_catat) VALUES
      ('N1', 'D1', 'catatan 1', '2026-03-01T09:00:00.000Z'), ('N2', 'D2', 'catatan 2', '2026-03-02T09:00:00.000Z')`);
    sqlite.run(`INSERT INTO mood_entries (nim, date, mood_value, created_at, updated_at) VALUES
      ('N1', '2026-03-01', 4, 't', 't'), ('N1', '2026-03-02', 2, 't', 't'), ('N3', '2026-03-01', 5, 't', 't')`);
    sqlite.run(`INSERT INTO diary_entries (nim, date, title, content, created_at, updated_at) VALUES
      ('N2', '2026-03-01', 'a', 'isi', 't', 't'), ('N3', '2026-03-02', 'b', 'isi', 't', 't')`);
  })();
  return { sqlite, path };
}
