import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openDatabase, type DatabaseClient } from "../../src/db";
import { temporaryDir } from "../helpers";

let path: string;
let client: DatabaseClient;
let sqlite: Database;

beforeAll(() => {
  path = join(temporaryDir("skrining-db-"), "skrining.db");
  client = openDatabase(path);
  sqlite = client.$client;
  sqlite.run("INSERT INTO users (Id_User, username, password_hash, role) VALUES (1, 'dsn', 'h', 'dosen'), (2, 'mhs', 'h', 'mahasiswa')");
  sqlite.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Dosen', 1)");
  sqlite.run("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal, IPK) VALUES ('N1', 2, 'D1', 3.5)");
  sqlite.run("INSERT INTO mood_entries (nim, date, mood_value, created_at, updated_at) VALUES ('N1', '2026-01-05', 4, 't', 't')");
});
afterAll(() => sqlite.close());

const count = (table: string) => sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;

describe("connection settings", () => {
  test("a new database is opened with WAL, foreign keys, synchronous FULL and a busy timeout", () => {
    expect(sqlite.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(sqlite.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
    expect(sqlite.query("PRAGMA synchronous").get()).toEqual({ synchronous: 2 });
    expect(sqlite.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()!.timeout).toBeGreaterThan(0);
  });

  test("WAL mode is stored in the file, so every other connection uses it too", () => {
    const other = new Database(path, { readonly: true });
    try {
      expect(other.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    } finally {
      other.close();
    }
  });
});

describe("constraints reject bad rows", () => {
  const cases: [name: string, statement: string, error: RegExp, table: string][] = [
    ["role 'x'", "INSERT INTO users (username, password_hash, role) VALUES ('aneh', 'h', 'x')", /CHECK constraint failed/, "users"],
    ["duplicate username", "INSERT INTO users (username, password_hash, role) VALUES ('mhs', 'h', 'admin')", /UNIQUE constraint failed: users\.username/, "users"],
    ["mood_value 6", "INSERT INTO mood_entries (nim, date, mood_value, created_at, updated_at) VALUES ('N1', '2026-01-06', 6, 't', 't')", /CHECK constraint failed/, "mood_entries"],
    ["mood_value 0", "INSERT INTO mood_entries (nim, date, mood_value, created_at, updated_at) VALUES ('N1', '2026-01-07', 0, 't', 't')", /CHECK constraint failed/, "mood_entries"],
    ["a second mood for one (nim, date)", "INSERT INTO mood_entries (nim, date, mood_value, created_at, updated_at) VALUES ('N1', '2026-01-05', 2, 't', 't')", /UNIQUE constraint failed/, "mood_entries"],
    ["IPK 4.5", "UPDATE mahasiswa SET IPK = 4.5 WHERE NIM = 'N1'", /CHECK constraint failed/, "mahasiswa"],
    ["IPK below 0", "UPDATE mahasiswa SET IPK = -0.1 WHERE NIM = 'N1'", /CHECK constraint failed/, "mahasiswa"],
    ["an advisor that is no lecturer", "UPDATE mahasiswa SET NIP_doswal = 'NOPE' WHERE NIM = 'N1'", /FOREIGN KEY constraint failed/, "mahasiswa"],
    ["a mood of an unknown student", "INSERT INTO mood_entries (nim, date, mood_value, created_at, updated_at) VALUES ('N404', '2026-01-05', 3, 't', 't')", /FOREIGN KEY constraint failed/, "mood_entries"],
    ["a second profile for one user", "INSERT INTO mahasiswa (NIM, Id_User) VALUES ('N2', 2)", /UNIQUE constraint failed/, "mahasiswa"],
    ["a screening level outside Rendah/Sedang/Tinggi", "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES ('N1', 't', '{}', 'Parah', 'Rendah', '', 1, 1)", /CHECK constraint failed/, "riwayat_skrining"],
    ["deleting a student who has moods", "DELETE FROM mahasiswa WHERE NIM = 'N1'", /FOREIGN KEY constraint failed/, "mahasiswa"],
  ];
  for (const [name, statement, error, table] of cases) {
    test(name, () => {
      const before = sqlite.query(`SELECT * FROM ${table}`).all();
      expect(() => sqlite.run(statement)).toThrow(error);
      expect(sqlite.query(`SELECT * FROM ${table}`).all()).toEqual(before);
    });
  }

  test("the valid counterparts are accepted (the cases above fail for their own reason)", () => {
    sqlite.run("BEGIN");
    try {
      sqlite.run("INSERT INTO users (username, password_hash, role) VALUES ('admin', 'h', 'admin')");
      sqlite.run("INSERT INTO mood_entries (nim, date, mood_value, created_at, updated_at) VALUES ('N1', '2026-01-06', 5, 't', 't')");
      sqlite.run("UPDATE mahasiswa SET IPK = 4 WHERE NIM = 'N1'");
      sqlite.run("UPDATE mahasiswa SET IPK = NULL WHERE NIM = 'N1'");
      sqlite.run(
        "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES ('N1', 't', '{}', 'Tinggi', 'Rendah', '', 1, 1)",
      );
      expect(count("mood_entries")).toBe(2);
    } finally {
      sqlite.run("ROLLBACK");
    }
    expect(count("mood_entries")).toBe(1);
  });
});

describe("indexes", () => {
  function leadingColumns(table: string): string[][] {
    const indexes = sqlite.query<{ name: string }, []>(`PRAGMA index_list(${table})`).all();
    return indexes.map((index) =>
      sqlite
        .query<{ seqno: number; name: string }, []>(`PRAGMA index_info(${JSON.stringify(index.name)})`)
        .all()
        .sort((a, b) => a.seqno - b.seqno)
        .map((column) => column.name.toLowerCase()),
    );
  }

  const wanted: [table: string, columns: string[]][] = [
    ["riwayat_skrining", ["nim", "tanggal_skrining"]],
    ["mahasiswa", ["nip_doswal"]],
    ["catatan_konseling", ["nim"]],
    ["mood_entries", ["nim", "date"]],
    ["diary_entries", ["nim", "date"]],
  ];
  for (const [table, columns] of wanted) {
    test(`${table}(${columns.join(", ")}) has an index that starts with these columns`, () => {
      const found = leadingColumns(table).some((indexColumns) => columns.every((column, position) => indexColumns[position] === column));
      expect(found).toBe(true);
    });
  }

  function plan(query: string, ...parameters: string[]): string[] {
    return sqlite
      .query<{ detail: string }, string[]>(`EXPLAIN QUERY PLAN ${query}`)
      .all(...parameters)
      .map((row) => row.detail);
  }

  test("the latest screening of a student is found through an index, without sorting", () => {
    const details = plan("SELECT * FROM riwayat_skrining WHERE NIM = ? ORDER BY tanggal_skrining DESC LIMIT 1", "N1");
    expect(details.some((detail) => /^SEARCH riwayat_skrining USING (COVERING )?INDEX \w+ \(NIM=\?\)/.test(detail))).toBe(true);
    expect(details.some((detail) => detail.includes("TEMP B-TREE"))).toBe(false);
  });

  test("an advisor's students are found through an index", () => {
    const details = plan("SELECT * FROM mahasiswa WHERE NIP_doswal = ?", "D1");
    expect(details.some((detail) => /^SEARCH mahasiswa USING (COVERING )?INDEX \w+ \(NIP_doswal=\?\)/.test(detail))).toBe(true);
    expect(details.some((detail) => /^SCAN mahasiswa/.test(detail))).toBe(false);
  });
});
