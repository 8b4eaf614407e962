import type { Database } from "bun:sqlite";
import type { OffsetChange } from "../local-time";
import { followUpMovesWithAdvisor } from "./tindak-lanjut-advisor";
import { newMeasuresVersion, refillMeasures, removeFromSums } from "./measures";

// The three summary tables of src/db/tables/screening.ts (latest_skrining, lecturer_weekly_levels,
// lecturer_latest_levels) are kept current by SQLite triggers, so that every writer (a route, the CLI, an admin with the
// sqlite3 shell) keeps them right inside its own transaction.
//
// The triggers are defined here rather than in a migration: a drizzle-kit table rebuild
// (create, copy, DROP, RENAME) is refused while a trigger names the dropped table. The
// migration runner therefore drops them before migrating and installs them again after,
// refilling both tables from riwayat_skrining; it does the same when the triggers in a
// database differ from these (an older version, or a trigger dropped by hand).

/** An increase of `score_stress` over the previous screening that counts as a spike (a sudden change). */
export const spikeThreshold = 30;

/** Stress `Tinggi` with motivation `Rendah`, of a row with the two level columns. */
export const levelWarning = "tingkat_stres = 'Tinggi' AND tingkat_motivasi = 'Rendah'";

/** A spike, or the level warning, of a row with a `spike` column. */
export const earlyWarning = `spike OR (${levelWarning})`;

/**
 * The Monday (`YYYY-MM-DD`) of the week holding a stored UTC timestamp, in the faculty's
 * time zone: the timestamp is moved by the offset in force at that moment
 * (time_zone_offsets; UTC while the table is empty), then back to its Monday. Null if the
 * timestamp does not parse.
 */
const weekStartOf = (tanggal: string) => `date(${tanggal},
    coalesce((SELECT printf('%+d minutes', offset_minutes) FROM time_zone_offsets WHERE starts_at <= unixepoch(${tanggal}) ORDER BY starts_at DESC LIMIT 1), '+0 minutes'),
    '-6 days', 'weekday 1')`;

/** The lecturer a student (a row of mahasiswa named `student`) is counted under: none while restricted. */
const countedUnder = (student: string) => `CASE WHEN ${student}.dibatasi_sejak IS NULL THEN ${student}.NIP_doswal END`;

/**
 * Rewrites the latest_skrining row of one student from their screenings, or removes it
 * when none is left. An update in place keeps the row where it is: a student's row is
 * rewritten at every screening.
 */
function refreshLatest(nim: string): string {
  return `
  DELETE FROM latest_skrining WHERE NIM = ${nim} AND NOT EXISTS (SELECT 1 FROM riwayat_skrining WHERE NIM = ${nim});
  ${writeLatest(nim)}`;
}

/** Writes the latest_skrining row of a student who has a screening (after one was added, nothing can be left to remove). */
function writeLatest(nim: string): string {
  return `
  INSERT INTO latest_skrining (NIM, Id_skrining, tanggal_skrining, tingkat_stres, tingkat_motivasi, is_spike, early_warning, score_stress, score_sdi, NIP)
  SELECT NIM, Id_skrining, tanggal_skrining, tingkat_stres, tingkat_motivasi, spike, ${earlyWarning}, score_stress, score_sdi,
    (SELECT ${countedUnder("student")} FROM mahasiswa AS student WHERE student.NIM = ${nim})
  FROM (
    SELECT latest.NIM, latest.Id_skrining, latest.tanggal_skrining, latest.tingkat_stres, latest.tingkat_motivasi, latest.score_stress, latest.score_sdi,
      coalesce(latest.score_stress - (
        SELECT previous.score_stress FROM riwayat_skrining AS previous
        WHERE previous.NIM = latest.NIM AND (previous.tanggal_skrining, previous.Id_skrining) < (latest.tanggal_skrining, latest.Id_skrining)
        ORDER BY previous.tanggal_skrining DESC, previous.Id_skrining DESC LIMIT 1
      ) >= ${spikeThreshold}, 0) AS spike
    FROM riwayat_skrining AS latest
    WHERE latest.NIM = ${nim}
    ORDER BY latest.tanggal_skrining DESC, latest.Id_skrining DESC LIMIT 1
  )
  WHERE true
  ON CONFLICT (NIM) DO UPDATE SET
    Id_skrining = excluded.Id_skrining,
    tanggal_skrining = excluded.tanggal_skrining,
    tingkat_stres = excluded.tingkat_stres,
    tingkat_motivasi = excluded.tingkat_motivasi,
    is_spike = excluded.is_spike,
    early_warning = excluded.early_warning,
    score_stress = excluded.score_stress,
    score_sdi = excluded.score_sdi,
    NIP = excluded.NIP;`;
}

/**
 * Adds (sign 1) or removes (sign -1) the screenings that `source` yields as
 * (NIP, tanggal, stres, motivasi) to the weekly counts. Screenings of students without a
 * lecturer, or with a date that does not parse, are not counted anywhere.
 */
function addWeeks(source: string, sign: 1 | -1): string {
  const sum = (column: string, level: string) => `${sign} * sum(${column} = '${level}')`;
  return `
  INSERT INTO lecturer_weekly_levels (NIP, week_start, stress_rendah, stress_sedang, stress_tinggi, motivasi_rendah, motivasi_sedang, motivasi_tinggi)
  SELECT NIP, ${weekStartOf("tanggal")} AS week,
    ${sum("stres", "Rendah")}, ${sum("stres", "Sedang")}, ${sum("stres", "Tinggi")},
    ${sum("motivasi", "Rendah")}, ${sum("motivasi", "Sedang")}, ${sum("motivasi", "Tinggi")}
  FROM (${source})
  WHERE NIP IS NOT NULL AND week IS NOT NULL
  GROUP BY NIP, week
  ON CONFLICT (NIP, week_start) DO UPDATE SET
    stress_rendah = stress_rendah + excluded.stress_rendah,
    stress_sedang = stress_sedang + excluded.stress_sedang,
    stress_tinggi = stress_tinggi + excluded.stress_tinggi,
    motivasi_rendah = motivasi_rendah + excluded.motivasi_rendah,
    motivasi_sedang = motivasi_sedang + excluded.motivasi_sedang,
    motivasi_tinggi = motivasi_tinggi + excluded.motivasi_tinggi;`;
}

/** Every screening is counted once under stress, so a week whose stress counts sum to 0 is empty. */
const pruneEmptyWeeks = (nips: string) => `
  DELETE FROM lecturer_weekly_levels WHERE NIP IN (${nips}) AND stress_rendah + stress_sedang + stress_tinggi = 0;`;

/**
 * Adds (sign 1) or removes (sign -1) one latest_skrining row (NEW or OLD) in its
 * lecturer's level counts; a row counted under no lecturer changes nothing. A count that
 * reaches 0 is removed.
 */
function countLatest(row: "NEW" | "OLD", sign: 1 | -1): string {
  const pair = `NIP = ${row}.NIP AND tingkat_stres = ${row}.tingkat_stres AND tingkat_motivasi = ${row}.tingkat_motivasi`;
  return sign === 1
    ? `
  INSERT INTO lecturer_latest_levels (NIP, tingkat_stres, tingkat_motivasi, students)
  SELECT ${row}.NIP, ${row}.tingkat_stres, ${row}.tingkat_motivasi, 1 WHERE ${row}.NIP IS NOT NULL
  ON CONFLICT (NIP, tingkat_stres, tingkat_motivasi) DO UPDATE SET students = students + 1;`
    : `
  UPDATE lecturer_latest_levels SET students = students - 1 WHERE ${pair};
  DELETE FROM lecturer_latest_levels WHERE ${pair} AND students = 0;`;
}

/** One screening row (NEW or OLD) under the lecturer its student has now, unless the student is restricted. */
const screeningOfStudent = (row: "NEW" | "OLD") =>
  `SELECT ${countedUnder("student")} AS NIP, ${row}.tanggal_skrining AS tanggal, ${row}.tingkat_stres AS stres, ${row}.tingkat_motivasi AS motivasi
   FROM mahasiswa AS student WHERE student.NIM = ${row}.NIM`;

const lecturerOf = (nim: string) => `SELECT NIP_doswal FROM mahasiswa WHERE NIM = ${nim}`;

/** A student's screenings under the lecturer the OLD or NEW row counts them under (none while restricted). */
const screeningsOfStudent = (row: "NEW" | "OLD") =>
  `SELECT ${countedUnder(row)} AS NIP, tanggal_skrining AS tanggal, tingkat_stres AS stres, tingkat_motivasi AS motivasi
   FROM riwayat_skrining WHERE NIM IN (OLD.NIM, NEW.NIM)`;

const screeningColumns = "NIM, Id_skrining, tanggal_skrining, tingkat_stres, tingkat_motivasi, score_stress, score_sdi";

/** Decisions §20: a student more or fewer with a screening. */
const studentsChange = (sign: "+" | "-") => `UPDATE latest_skrining_summary SET students = students ${sign} 1 WHERE id = 1;`;

/** Trigger name → its statement. The names share a prefix so that older ones can be found and dropped. */
const summaryTriggers: ReadonlyMap<string, string> = new Map(
  Object.entries({
    summary_riwayat_insert: `AFTER INSERT ON riwayat_skrining BEGIN ${writeLatest("NEW.NIM")} ${addWeeks(screeningOfStudent("NEW"), 1)} END`,
    summary_riwayat_delete: `AFTER DELETE ON riwayat_skrining BEGIN ${refreshLatest("OLD.NIM")} ${addWeeks(screeningOfStudent("OLD"), -1)} ${pruneEmptyWeeks(lecturerOf("OLD.NIM"))} END`,
    // Decisions §20: the submission's job adds a screening to the stress item sums; a deletion, whoever makes it, takes it out.
    // A deletion or a screening the job did not write (unjudged) changes the sums' version, so the job reads them again.
    summary_riwayat_item_sums: `AFTER DELETE ON riwayat_skrining WHEN OLD.validitas_alasan IS NOT NULL BEGIN ${removeFromSums} END`,
    summary_riwayat_measures_delete: `AFTER DELETE ON riwayat_skrining BEGIN ${newMeasuresVersion} END`,
    summary_riwayat_unjudged_insert: `AFTER INSERT ON riwayat_skrining WHEN NEW.validitas_alasan IS NULL BEGIN ${newMeasuresVersion} END`,
    summary_riwayat_update_latest: `AFTER UPDATE OF ${screeningColumns} ON riwayat_skrining BEGIN ${refreshLatest("OLD.NIM")} ${refreshLatest("NEW.NIM")} ${newMeasuresVersion} END`,
    // When ON UPDATE CASCADE renames a student's screenings, OLD.NIM no longer exists in
    // mahasiswa: the screenings stay with the same student and lecturer, so nothing moves.
    summary_riwayat_update_weeks: `AFTER UPDATE OF ${screeningColumns} ON riwayat_skrining
      WHEN OLD.NIM = NEW.NIM OR EXISTS (SELECT 1 FROM mahasiswa WHERE NIM = OLD.NIM)
      BEGIN ${addWeeks(screeningOfStudent("OLD"), -1)} ${addWeeks(screeningOfStudent("NEW"), 1)} ${pruneEmptyWeeks(lecturerOf("OLD.NIM"))} END`,
    // A new advisor (also through a lecturer's NIP changing or the lecturer being deleted)
    // takes the student's weeks along; a restriction removes them, its end brings them
    // back. One trigger for both columns, so that a statement changing both moves the
    // weeks once. The screenings may carry OLD.NIM or NEW.NIM, depending on whether a NIM
    // change in the same statement has cascaded yet.
    summary_mahasiswa_advisor: `AFTER UPDATE OF NIP_doswal, dibatasi_sejak ON mahasiswa
      WHEN OLD.NIP_doswal IS NOT NEW.NIP_doswal OR (OLD.dibatasi_sejak IS NULL) IS NOT (NEW.dibatasi_sejak IS NULL)
      BEGIN ${addWeeks(screeningsOfStudent("OLD"), -1)} ${addWeeks(screeningsOfStudent("NEW"), 1)} ${pruneEmptyWeeks("OLD.NIP_doswal")}
        UPDATE latest_skrining SET NIP = ${countedUnder("NEW")} WHERE NIM IN (OLD.NIM, NEW.NIM); END`,
    // The level counts follow the latest rows, whatever changed them.
    summary_latest_insert: `AFTER INSERT ON latest_skrining BEGIN ${countLatest("NEW", 1)} ${studentsChange("+")} END`,
    summary_latest_delete: `AFTER DELETE ON latest_skrining BEGIN ${countLatest("OLD", -1)} ${studentsChange("-")} END`,
    summary_latest_update: `AFTER UPDATE OF NIP, tingkat_stres, tingkat_motivasi ON latest_skrining
      WHEN OLD.NIP IS NOT NEW.NIP OR OLD.tingkat_stres IS NOT NEW.tingkat_stres OR OLD.tingkat_motivasi IS NOT NEW.tingkat_motivasi
      BEGIN ${countLatest("OLD", -1)} ${countLatest("NEW", 1)} END`,
    summary_follow_up_advisor: followUpMovesWithAdvisor,
  }).map(([name, body]) => [name, `CREATE TRIGGER ${name} ${body}`]),
);

// Every trigger the migration runner drops and reinstalls shares this prefix (the follow-up
// one included: it names tindak_lanjut, which a rebuild may drop).
const triggerPrefix = "summary_";

/** Whether the database holds exactly the triggers above (none missing, none changed, none left over). */
export function summariesCurrent(sqlite: Database): boolean {
  const installed = sqlite
    .query<{ name: string; sql: string }, [string]>("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name GLOB ? || '*'")
    .all(triggerPrefix);
  return installed.length === summaryTriggers.size && installed.every((trigger) => summaryTriggers.get(trigger.name) === trigger.sql);
}

/**
 * Whether the migrations that create what the triggers write and read have run: the time
 * zone's offsets, the restriction, the follow-up cases, the latest score and the level
 * counts with the latest row's lecturer (issue 28), the record of advisor changes (decisions
 * §19), the sums and the latest scores of decisions §20 (the newest of them).
 */
export function summaryTablesExist(sqlite: Database): boolean {
  const found = sqlite
    .query<{ tables: number; columns: number }, []>(
      `SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('latest_skrining', 'lecturer_weekly_levels', 'time_zone_offsets', 'tindak_lanjut',
            'lecturer_latest_levels', 'pergantian_dosen_wali', 'stress_item_sums', 'stress_item_sums_removed', 'latest_skrining_summary')) AS tables,
        (SELECT count(*) FROM pragma_table_info('mahasiswa') WHERE name = 'dibatasi_sejak')
          + (SELECT count(*) FROM pragma_table_info('latest_skrining') WHERE name IN ('score_stress', 'NIP', 'score_sdi'))
          + (SELECT count(*) FROM pragma_table_info('riwayat_skrining') WHERE name = 'validitas_alasan') AS columns`,
    )
    .get();
  return found?.tables === 9 && found.columns === 5;
}

/** Drops every summary trigger, this version's and any older one's. Call inside a transaction. */
export function dropSummaryTriggers(sqlite: Database): void {
  const names = sqlite
    .query<{ name: string }, [string]>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name GLOB ? || '*'")
    .all(triggerPrefix);
  for (const { name } of names) sqlite.run(`DROP TRIGGER "${name}"`);
}

/**
 * Refills the three tables from riwayat_skrining in one pass each (about 2.5 s for a
 * million screenings), then creates the triggers (before, the refill would fire them).
 * Call inside a transaction, after dropSummaryTriggers.
 */
export function installSummaries(sqlite: Database): void {
  sqlite.run("DELETE FROM latest_skrining");
  // Rows in (NIM, tanggal, Id) order, as the covering index gives them: lag() is the
  // previous screening, and a row without a next one is the student's latest.
  sqlite.run(`
    INSERT INTO latest_skrining (NIM, Id_skrining, tanggal_skrining, tingkat_stres, tingkat_motivasi, is_spike, early_warning, score_stress, score_sdi, NIP)
    SELECT screening.NIM, Id_skrining, tanggal_skrining, tingkat_stres, tingkat_motivasi, spike, ${earlyWarning}, score_stress, score_sdi, ${countedUnder("student")}
    FROM (
      SELECT NIM, Id_skrining, tanggal_skrining, tingkat_stres, tingkat_motivasi, score_stress, score_sdi,
        coalesce(score_stress - lag(score_stress) OVER student >= ${spikeThreshold}, 0) AS spike,
        lead(Id_skrining) OVER student AS next
      FROM riwayat_skrining
      WINDOW student AS (PARTITION BY NIM ORDER BY tanggal_skrining, Id_skrining)
    ) AS screening LEFT JOIN mahasiswa AS student ON student.NIM = screening.NIM
    WHERE next IS NULL`);
  sqlite.run("DELETE FROM lecturer_latest_levels");
  sqlite.run(`
    INSERT INTO lecturer_latest_levels (NIP, tingkat_stres, tingkat_motivasi, students)
    SELECT NIP, tingkat_stres, tingkat_motivasi, count(*) FROM latest_skrining WHERE NIP IS NOT NULL GROUP BY NIP, tingkat_stres, tingkat_motivasi`);
  refillWeeks(sqlite);
  refillMeasures(sqlite);
  for (const statement of summaryTriggers.values()) sqlite.run(statement);
}

/** Counts every screening into its lecturer's week again. Call inside a transaction. */
function refillWeeks(sqlite: Database): void {
  sqlite.run("DELETE FROM lecturer_weekly_levels");
  sqlite.run(
    addWeeks(
      `SELECT student.NIP_doswal AS NIP, screening.tanggal_skrining AS tanggal, screening.tingkat_stres AS stres, screening.tingkat_motivasi AS motivasi
       FROM riwayat_skrining AS screening JOIN mahasiswa AS student ON student.NIM = screening.NIM
       WHERE student.dibatasi_sejak IS NULL`,
      1,
    ),
  );
}

export function hasWeeklyCounts(sqlite: Database): boolean {
  return sqlite.query("SELECT 1 FROM lecturer_weekly_levels LIMIT 1").get() !== null;
}

/** The zone whose offsets the weeks are counted in; null before `useTimeZone` ever ran (UTC weeks). */
export function weeksTimeZone(sqlite: Database): string | null {
  return sqlite.query<{ zone: string }, []>("SELECT zone FROM time_zone_offsets LIMIT 1").get()?.zone ?? null;
}

/**
 * Makes the weekly counts follow `timeZone`: when it is not the zone they are counted in,
 * the zone's offsets replace the table's and every week is counted again, in one
 * IMMEDIATE transaction. Answers whether anything changed.
 */
export function useTimeZone(sqlite: Database, timeZone: string, changesOf: (timeZone: string) => readonly OffsetChange[]): boolean {
  return sqlite
    .transaction(() => {
      if (weeksTimeZone(sqlite) === timeZone) return false;
      sqlite.run("DELETE FROM time_zone_offsets");
      const insert = sqlite.prepare("INSERT INTO time_zone_offsets (starts_at, offset_minutes, zone) VALUES (?, ?, ?)");
      for (const change of changesOf(timeZone)) insert.run(change.startsAt, change.offsetMinutes, timeZone);
      refillWeeks(sqlite);
      return true;
    })
    .immediate();
}
