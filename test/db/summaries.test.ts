import type { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/db";
import { applyMigrations } from "../../src/db/migrate";
import { migrations } from "../../src/db/migrations";
import { dropSummaryTriggers, installSummaries, summariesCurrent } from "../../src/db/summaries";
import { temporaryDir } from "../helpers";
import { measuresOfEarlierRows } from "./earlier-rows";

// The summary tables must always equal what the screenings say, whatever writes them and
// in whatever order. The oracle below recomputes both tables in plain TypeScript from
// riwayat_skrining and mahasiswa, independently of the triggers' SQL.

interface Screening {
  id: number;
  nim: string;
  tanggal: string;
  stres: string;
  motivasi: string;
  score: number;
  sdi: number;
}

const levels = ["Rendah", "Sedang", "Tinggi"] as const;
const lecturers = ["D1", "D2", "D3"] as const;
// Around a week boundary (Sunday 2026-11-15 / Monday 2026-11-16 UTC) and a year boundary,
// with exact repeats so that Id_skrining has to break ties; one value that does not parse.
const dates = [
  "2026-11-09T08:00:00.000Z",
  "2026-11-15T23:59:59.999Z",
  "2026-11-16T00:00:00.000Z",
  "2026-11-16T00:00:00.000Z",
  "2026-11-22T10:00:00.000Z",
  "2026-12-31T12:00:00.000Z",
  "2027-01-03T12:00:00.000Z",
  "2027-01-04T00:00:00.000Z",
  "bukan tanggal",
];

function mondayOf(tanggal: string): string | null {
  const time = Date.parse(tanggal);
  if (Number.isNaN(time)) return null;
  const day = Math.floor(time / 86_400_000);
  const sinceMonday = (((day + 3) % 7) + 7) % 7;
  return new Date((day - sinceMonday) * 86_400_000).toISOString().slice(0, 10);
}

function expectedSummaries(sqlite: Database) {
  const screenings = sqlite
    .query<Screening, []>("SELECT Id_skrining AS id, NIM AS nim, tanggal_skrining AS tanggal, tingkat_stres AS stres, tingkat_motivasi AS motivasi, score_stress AS score, score_sdi AS sdi FROM riwayat_skrining")
    .all();
  // A restricted student is counted under no lecturer.
  const advisorOf = new Map(
    sqlite
      .query<{ nim: string; nip: string | null }, []>("SELECT NIM AS nim, CASE WHEN dibatasi_sejak IS NULL THEN NIP_doswal END AS nip FROM mahasiswa")
      .all()
      .map((row) => [row.nim, row.nip]),
  );

  const latest = [...Map.groupBy(screenings, (screening) => screening.nim)].map(([nim, own]) => {
    const ordered = own.toSorted((a, b) => (a.tanggal < b.tanggal ? -1 : a.tanggal > b.tanggal ? 1 : a.id - b.id));
    const last = ordered.at(-1)!;
    const previous = ordered.at(-2);
    const isSpike = previous !== undefined && last.score - previous.score >= 30;
    return {
      NIM: nim,
      Id_skrining: last.id,
      tanggal_skrining: last.tanggal,
      tingkat_stres: last.stres,
      tingkat_motivasi: last.motivasi,
      is_spike: Number(isSpike),
      early_warning: Number(isSpike || (last.stres === "Tinggi" && last.motivasi === "Rendah")),
      score_stress: last.score,
      score_sdi: last.sdi,
      NIP: advisorOf.get(nim) ?? null,
    };
  });

  const levelCounts = new Map<string, { NIP: string; tingkat_stres: string; tingkat_motivasi: string; students: number }>();
  for (const row of latest) {
    if (row.NIP === null) continue;
    const key = `${row.NIP} ${row.tingkat_stres} ${row.tingkat_motivasi}`;
    const counted = levelCounts.get(key) ?? { NIP: row.NIP, tingkat_stres: row.tingkat_stres, tingkat_motivasi: row.tingkat_motivasi, students: 0 };
    counted.students += 1;
    levelCounts.set(key, counted);
  }

  const weeks = new Map<string, Record<string, string | number>>();
  for (const screening of screenings) {
    const nip = advisorOf.get(screening.nim);
    const week = mondayOf(screening.tanggal);
    if (!nip || week === null) continue;
    const key = `${nip} ${week}`;
    const row = weeks.get(key) ?? {
      NIP: nip,
      week_start: week,
      stress_rendah: 0,
      stress_sedang: 0,
      stress_tinggi: 0,
      motivasi_rendah: 0,
      motivasi_sedang: 0,
      motivasi_tinggi: 0,
    };
    row[`stress_${screening.stres.toLowerCase()}`] = (row[`stress_${screening.stres.toLowerCase()}`] as number) + 1;
    row[`motivasi_${screening.motivasi.toLowerCase()}`] = (row[`motivasi_${screening.motivasi.toLowerCase()}`] as number) + 1;
    weeks.set(key, row);
  }
  return {
    // Decisions §20: how many students have a screening (the reliable change's threshold).
    students: latest.length,
    latest: latest.toSorted((a, b) => (a.NIM < b.NIM ? -1 : 1)),
    weeks: [...weeks.values()].toSorted((a, b) => (`${a.NIP} ${a.week_start}` < `${b.NIP} ${b.week_start}` ? -1 : 1)),
    levels: [...levelCounts.values()].toSorted((a, b) =>
      `${a.NIP} ${a.tingkat_stres} ${a.tingkat_motivasi}` < `${b.NIP} ${b.tingkat_stres} ${b.tingkat_motivasi}` ? -1 : 1,
    ),
  };
}

function storedSummaries(sqlite: Database) {
  return {
    students: sqlite.query<{ students: number }, []>("SELECT students FROM latest_skrining_summary").get()!.students,
    latest: sqlite.query("SELECT * FROM latest_skrining ORDER BY NIM").all(),
    weeks: sqlite.query("SELECT * FROM lecturer_weekly_levels ORDER BY NIP, week_start").all(),
    levels: sqlite.query("SELECT * FROM lecturer_latest_levels ORDER BY NIP, tingkat_stres, tingkat_motivasi").all(),
  };
}

/** A database with three lecturers and four students (one without a lecturer), no screenings. */
function population(): Database {
  const path = join(temporaryDir("skrining-summaries-"), "skrining.db");
  writeFileSync(path, populationTemplate());
  return openDatabase(path).$client;
}

let template: Buffer | undefined;
/** The population's database file, migrated once: the property below opens a copy 150 times. */
function populationTemplate(): Buffer {
  if (template === undefined) {
    const path = join(temporaryDir("skrining-summaries-"), "skrining.db");
    const sqlite = openDatabase(path).$client;
    sqlite.run(`INSERT INTO users (Id_User, username, password_hash, role) VALUES
      (1, 'd1', 'h', 'dosen'), (2, 'd2', 'h', 'dosen'), (3, 'd3', 'h', 'dosen'),
      (4, 'm1', 'h', 'mahasiswa'), (5, 'm2', 'h', 'mahasiswa'), (6, 'm3', 'h', 'mahasiswa'), (7, 'm4', 'h', 'mahasiswa')`);
    sqlite.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Satu', 1), ('D2', 'Dua', 2), ('D3', 'Tiga', 3)");
    sqlite.run("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES ('N1', 4, 'D1'), ('N2', 5, 'D1'), ('N3', 6, 'D2'), ('N4', 7, NULL)");
    sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
    sqlite.close();
    template = readFileSync(path);
  }
  return template;
}

const level = fc.constantFrom(...levels);
// Differences of exactly 29, 30 and 31 around the spike threshold.
const score = fc.constantFrom(0, 29, 30, 59, 60, 90, 150);
const pick = fc.nat({ max: 1000 });
const lecturerOrNone = fc.constantFrom<string | null>(...lecturers, null);

/** Every way the data can change, as SQL against whichever rows exist when it runs. */
const operation = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("insert" as const), student: pick, tanggal: fc.constantFrom(...dates), stres: level, motivasi: level, score }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), screening: pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("edit" as const), screening: pick, tanggal: fc.constantFrom(...dates), stres: level, score }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("move screening" as const), screening: pick, student: pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("advisor" as const), student: pick, nip: lecturerOrNone }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("advisor by upsert" as const), student: pick, nip: lecturerOrNone }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("rename student" as const), student: pick, nip: lecturerOrNone, changeAdvisor: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("rename lecturer" as const), lecturer: pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete lecturer" as const), lecturer: pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("restriction" as const), student: pick, restricted: fc.boolean() }) },
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

let renames = 0;

function apply(sqlite: Database, change: Operation): void {
  const all = (sql: string) => sqlite.query<{ key: string }, []>(sql).all().map((row) => row.key);
  const choose = (keys: string[], index: number) => (keys.length === 0 ? undefined : keys[index % keys.length]);
  const student = "student" in change ? choose(all("SELECT NIM AS key FROM mahasiswa ORDER BY NIM"), change.student) : undefined;
  const screening = "screening" in change ? choose(all("SELECT Id_skrining AS key FROM riwayat_skrining ORDER BY Id_skrining"), change.screening) : undefined;
  const lecturer = "lecturer" in change ? choose(all("SELECT NIP AS key FROM dosen ORDER BY NIP"), change.lecturer) : undefined;
  switch (change.kind) {
    case "insert":
      sqlite.run(
        "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES (?, ?, '{}', ?, ?, 's', ?, 0)",
        [student!, change.tanggal, change.stres, change.motivasi, change.score],
      );
      return;
    case "delete":
      if (screening !== undefined) sqlite.run("DELETE FROM riwayat_skrining WHERE Id_skrining = ?", [screening]);
      return;
    case "edit":
      if (screening !== undefined) sqlite.run("UPDATE riwayat_skrining SET tanggal_skrining = ?, tingkat_stres = ?, score_stress = ? WHERE Id_skrining = ?", [change.tanggal, change.stres, change.score, screening]);
      return;
    case "move screening":
      if (screening !== undefined) sqlite.run("UPDATE riwayat_skrining SET NIM = ? WHERE Id_skrining = ?", [student!, screening]);
      return;
    case "advisor":
      sqlite.run("UPDATE mahasiswa SET NIP_doswal = (SELECT NIP FROM dosen WHERE NIP = ?) WHERE NIM = ?", [change.nip, student!]);
      return;
    case "advisor by upsert":
      // As `skrining accounts import` updates an existing student.
      sqlite.run(
        "INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES (?, 0, (SELECT NIP FROM dosen WHERE NIP = ?)) ON CONFLICT (NIM) DO UPDATE SET NIP_doswal = excluded.NIP_doswal",
        [student!, change.nip],
      );
      return;
    case "rename student":
      // ON UPDATE CASCADE carries the screenings along, in the same statement as a new advisor or not.
      if (change.changeAdvisor) {
        sqlite.run("UPDATE mahasiswa SET NIM = ?, NIP_doswal = (SELECT NIP FROM dosen WHERE NIP = ?) WHERE NIM = ?", [`R${++renames}`, change.nip, student!]);
      } else {
        sqlite.run("UPDATE mahasiswa SET NIM = ? WHERE NIM = ?", [`R${++renames}`, student!]);
      }
      return;
    case "rename lecturer":
      if (lecturer !== undefined) sqlite.run("UPDATE dosen SET NIP = ? WHERE NIP = ?", [`L${++renames}`, lecturer]);
      return;
    case "restriction":
      // `privacy restrict` and `unrestrict`: the student is counted under no lecturer meanwhile.
      sqlite.run("UPDATE mahasiswa SET dibatasi_sejak = ? WHERE NIM = ?", [change.restricted ? "2026-11-20T00:00:00.000Z" : null, student!]);
      return;
    case "delete lecturer":
      // ON DELETE SET NULL leaves the advisees without a lecturer.
      if (lecturer !== undefined) sqlite.run("DELETE FROM dosen WHERE NIP = ?", [lecturer]);
      return;
  }
}

describe("the summary tables follow every change to screenings, students and lecturers", () => {
  test("after any sequence of changes they equal a recomputation from the screenings, and so does a refill", () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 40 }), (changes) => {
        const sqlite = population();
        try {
          for (const change of changes) {
            apply(sqlite, change);
            expect(storedSummaries(sqlite)).toEqual(expectedSummaries(sqlite));
          }
          // The refill that installing the triggers does (after migrations) agrees too.
          sqlite.transaction(() => {
            dropSummaryTriggers(sqlite);
            installSummaries(sqlite);
          })();
          expect(storedSummaries(sqlite)).toEqual(expectedSummaries(sqlite));
        } finally {
          sqlite.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  test("a rejected statement leaves them as they were", () => {
    const sqlite = population();
    try {
      apply(sqlite, { kind: "insert", student: 0, tanggal: dates[0]!, stres: "Tinggi", motivasi: "Rendah", score: 150 });
      const before = storedSummaries(sqlite);
      // The CHECK on tingkat_stres fails after the trigger's statements would have run.
      expect(() =>
        sqlite.run(
          "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES ('N1', ?, '{}', 'Parah', 'Rendah', 's', 150, 0)",
          [dates[4]!],
        ),
      ).toThrow(/CHECK constraint failed/);
      expect(() => sqlite.run("UPDATE mahasiswa SET NIP_doswal = 'D404' WHERE NIM = 'N1'")).toThrow(/FOREIGN KEY constraint failed/);
      expect(storedSummaries(sqlite)).toEqual(before);
    } finally {
      sqlite.close();
    }
  });
});

describe("installing the triggers", () => {
  test("a database whose triggers were dropped or changed gets them back, with the tables refilled, when it is opened", () => {
    const path = join(temporaryDir("skrining-summaries-"), "skrining.db");
    const first = openDatabase(path).$client;
    first.run("INSERT INTO users (Id_User, username, password_hash, role) VALUES (1, 'd1', 'h', 'dosen'), (2, 'm1', 'h', 'mahasiswa')");
    first.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Satu', 1)");
    first.run("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES ('N1', 2, 'D1')");
    first.run("DROP TRIGGER summary_riwayat_insert");
    first.run("DROP TRIGGER summary_mahasiswa_advisor");
    first.run("CREATE TRIGGER summary_from_an_older_version AFTER DELETE ON dosen BEGIN SELECT 1; END");
    first.run(
      "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES ('N1', ?, '{}', 'Tinggi', 'Rendah', 's', 150, 0)",
      [dates[0]!],
    );
    expect(first.query("SELECT count(*) AS rows FROM latest_skrining").get()).toEqual({ rows: 0 });
    expect(summariesCurrent(first)).toBe(false);
    first.close();

    const reopened = openDatabase(path).$client;
    try {
      expect(summariesCurrent(reopened)).toBe(true);
      expect(reopened.query("SELECT name FROM sqlite_master WHERE name = 'summary_from_an_older_version'").all()).toEqual([]);
      expect(storedSummaries(reopened)).toEqual(expectedSummaries(reopened));
      expect(storedSummaries(reopened).latest).toHaveLength(1);
      // Re-opening an up-to-date database installs nothing again.
      expect(applyMigrations(reopened, migrations)).toEqual([]);
      const changes = reopened.query<{ changes: number }, []>("SELECT total_changes() AS changes").get()!.changes;
      applyMigrations(reopened, migrations);
      expect(reopened.query<{ changes: number }, []>("SELECT total_changes() AS changes").get()!.changes).toBe(changes);
    } finally {
      reopened.close();
    }
  });
});

describe("migration 0002 (the summary tables) and the later ones on a populated database of the version before", () => {
  test("keeps every row and fills the summary tables from the screenings already there", () => {
    const previous = migrations.slice(0, migrations.findIndex((migration) => migration.tag === "0002_lecturer_summaries"));
    const sqlite = openDatabase(join(temporaryDir("skrining-summaries-"), "skrining.db"), previous).$client;
    try {
      sqlite.run("INSERT INTO users (Id_User, username, password_hash, role) VALUES (1, 'd1', 'h', 'dosen'), (2, 'm1', 'h', 'mahasiswa'), (3, 'm2', 'h', 'mahasiswa'), (4, 'm3', 'h', 'mahasiswa')");
      sqlite.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Satu', 1)");
      sqlite.run("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES ('N1', 2, 'D1'), ('N2', 3, 'D1'), ('N3', 4, NULL)");
      const insert = sqlite.prepare(
        "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES (?, ?, '{}', ?, ?, 's', ?, 0)",
      );
      // N1: a rise of exactly 30 on a Monday (a spike, in the week after the first one).
      insert.run("N1", "2026-11-15T23:00:00.000Z", "Sedang", "Sedang", 90);
      insert.run("N1", "2026-11-16T00:00:00.000Z", "Sedang", "Tinggi", 120);
      // N2: two screenings with the same timestamp; the higher Id_skrining is the latest.
      insert.run("N2", "2026-11-10T08:00:00.000Z", "Rendah", "Rendah", 10);
      insert.run("N2", "2026-11-10T08:00:00.000Z", "Tinggi", "Rendah", 130);
      // N3 has no lecturer: a latest screening, but no week anywhere.
      insert.run("N3", "2026-11-11T08:00:00.000Z", "Tinggi", "Tinggi", 150);
      const tables = ["mahasiswa", "riwayat_skrining"] as const;
      const before = tables.map((table) => sqlite.query(`SELECT * FROM ${table} ORDER BY rowid`).all());

      // The triggers need every table they read (0004 adds the time zone's offsets): they are installed once all exist.
      expect(applyMigrations(sqlite, migrations)).toEqual(migrations.slice(previous.length).map((migration) => migration.tag));

      // 0005 adds the restriction column, empty for every student; 0009 the model's probabilities, empty for every screening;
      // 0017 the measures of decisions §20 (these rows have no answers to judge).
      const [mahasiswaBefore, screeningsBefore] = before as [object[], object[]];
      expect(tables.map((table) => sqlite.query(`SELECT * FROM ${table} ORDER BY rowid`).all())).toEqual([
        mahasiswaBefore.map((row) => ({ ...row, dibatasi_sejak: null })),
        screeningsBefore.map((row) => ({ ...row, stress_probability: null, motivasi_probability: null, ...measuresOfEarlierRows })),
      ]);
      expect(summariesCurrent(sqlite)).toBe(true);
      const stored = storedSummaries(sqlite);
      expect(stored).toEqual(expectedSummaries(sqlite));
      expect(stored.latest).toEqual([
        { NIM: "N1", Id_skrining: 2, tanggal_skrining: "2026-11-16T00:00:00.000Z", tingkat_stres: "Sedang", tingkat_motivasi: "Tinggi", is_spike: 1, early_warning: 1, score_stress: 120, score_sdi: 0, NIP: "D1" },
        { NIM: "N2", Id_skrining: 4, tanggal_skrining: "2026-11-10T08:00:00.000Z", tingkat_stres: "Tinggi", tingkat_motivasi: "Rendah", is_spike: 1, early_warning: 1, score_stress: 130, score_sdi: 0, NIP: "D1" },
        { NIM: "N3", Id_skrining: 5, tanggal_skrining: "2026-11-11T08:00:00.000Z", tingkat_stres: "Tinggi", tingkat_motivasi: "Tinggi", is_spike: 0, early_warning: 0, score_stress: 150, score_sdi: 0, NIP: null },
      ]);
      // 0013 (issue 28): the lecturer's latest levels, N3 (no lecturer) counted nowhere.
      expect(stored.levels).toEqual([
        { NIP: "D1", tingkat_stres: "Sedang", tingkat_motivasi: "Tinggi", students: 1 },
        { NIP: "D1", tingkat_stres: "Tinggi", tingkat_motivasi: "Rendah", students: 1 },
      ]);
      const week = (week_start: string, stress: [number, number, number], motivasi: [number, number, number]) => ({
        NIP: "D1",
        week_start,
        stress_rendah: stress[0],
        stress_sedang: stress[1],
        stress_tinggi: stress[2],
        motivasi_rendah: motivasi[0],
        motivasi_sedang: motivasi[1],
        motivasi_tinggi: motivasi[2],
      });
      expect(stored.weeks).toEqual([week("2026-11-09", [1, 1, 1], [2, 1, 0]), week("2026-11-16", [0, 1, 0], [0, 0, 1])]);
    } finally {
      sqlite.close();
    }
  });
});
