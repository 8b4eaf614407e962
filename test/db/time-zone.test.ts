import type { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openDatabase } from "../../src/db";
import { useTimeZone, weeksTimeZone } from "../../src/db/summaries";
import { zoneOffsetChanges } from "../../src/local-time";
import { loadConfig } from "../../src/config";
import { closeContext, createContext } from "../../src/context";
import { temporaryDir, testEnvironment } from "../helpers";

// The weekly counts follow the faculty's time zone (decisions §11): a screening belongs to
// the week that holds its local moment, with the offset in force at that moment.

let sqlite: Database;
beforeEach(() => {
  sqlite = openDatabase(join(temporaryDir("skrining-zone-"), "skrining.db")).$client;
  sqlite.run("INSERT INTO users (Id_User, username, password_hash, role) VALUES (1, 'd1', 'h', 'dosen'), (2, 'm1', 'h', 'mahasiswa')");
  sqlite.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Satu', 1)");
  sqlite.run("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES ('N1', 2, 'D1')");
});
afterEach(() => sqlite.close());

const screen = (tanggal: string) =>
  sqlite.run(
    "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES ('N1', ?, '{}', 'Sedang', 'Sedang', 's', 100, 1)",
    [tanggal],
  );

/** Week start → screenings counted in it. */
const weeks = () =>
  Object.fromEntries(
    sqlite
      .query<{ week_start: string; screenings: number }, []>("SELECT week_start, stress_rendah + stress_sedang + stress_tinggi AS screenings FROM lecturer_weekly_levels ORDER BY week_start")
      .all()
      .map((row) => [row.week_start, row.screenings]),
  );

test("before any zone is set the weeks are UTC's; setting one recounts them, setting it again changes nothing", () => {
  screen("2026-11-22T16:59:59.999Z"); // Sunday 23:59:59.999 WIB
  screen("2026-11-22T17:00:00.000Z"); // Monday 00:00 WIB, still Sunday in UTC
  expect(weeksTimeZone(sqlite)).toBeNull();
  expect(weeks()).toEqual({ "2026-11-16": 2 });

  expect(useTimeZone(sqlite, "Asia/Jakarta", zoneOffsetChanges)).toBe(true);
  expect(weeksTimeZone(sqlite)).toBe("Asia/Jakarta");
  expect(weeks()).toEqual({ "2026-11-16": 1, "2026-11-23": 1 });

  let asked = 0;
  expect(useTimeZone(sqlite, "Asia/Jakarta", (zone) => (asked++, zoneOffsetChanges(zone)))).toBe(false);
  expect(asked).toBe(0);

  expect(useTimeZone(sqlite, "UTC", zoneOffsetChanges)).toBe(true);
  expect(weeks()).toEqual({ "2026-11-16": 2 });
});

test("new screenings go to their local week through the triggers", () => {
  useTimeZone(sqlite, "Asia/Jakarta", zoneOffsetChanges);
  screen("2026-11-22T16:59:59.999Z");
  screen("2026-11-22T17:00:00.000Z");
  screen("2026-11-29T16:59:59.999Z");
  expect(weeks()).toEqual({ "2026-11-16": 1, "2026-11-23": 2 });
  sqlite.run("DELETE FROM riwayat_skrining WHERE tanggal_skrining = '2026-11-22T16:59:59.999Z'");
  expect(weeks()).toEqual({ "2026-11-23": 2 });
});

describe("a zone with daylight saving time: the offset in force at each moment", () => {
  // Europe/Berlin moved from UTC+1 to UTC+2 at 01:00 UTC on Sunday 2026-03-29.
  test.each([
    ["2026-03-22T22:30:00.000Z", "2026-03-16"], // Sunday 22:30 UTC + 1 h (winter time) = Sunday 23:30 → the week of 03-16
    ["2026-03-29T22:30:00.000Z", "2026-03-30"], // Sunday 22:30 UTC + 2 h (summer time) = Monday 00:30 → the new week
    ["2026-03-29T21:59:59.999Z", "2026-03-23"], // Sunday 23:59:59.999 summer time → still the old week
  ])("%s counts in the week of %s", (tanggal, week) => {
    useTimeZone(sqlite, "Europe/Berlin", zoneOffsetChanges);
    screen(tanggal);
    expect(Object.keys(weeks())).toEqual([week]);
  });
});

test("opening the data folder in another zone recounts the weeks and says so; a new folder says nothing", () => {
  const dataDir = temporaryDir("skrining-zone-");
  const lines: string[] = [];
  const logger = { info: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
  const open = (zone: string) => createContext(loadConfig(dataDir, { ...testEnvironment, SKRINING_TZ: zone }), logger);

  closeContext(open("Asia/Jakarta"));
  expect(lines.filter((line) => line.includes("zona waktu"))).toEqual([]);

  const context = open("Asia/Jakarta");
  context.db.$client.run("INSERT INTO users (Id_User, username, password_hash, role) VALUES (101, 'd1', 'h', 'dosen'), (102, 'm1', 'h', 'mahasiswa')");
  context.db.$client.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Satu', 101)");
  context.db.$client.run("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES ('N1', 102, 'D1')");
  context.db.$client.run(
    "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES ('N1', '2026-11-22T17:00:00.000Z', '{}', 'Sedang', 'Sedang', 's', 100, 1)",
  );
  closeContext(context);
  expect(lines.filter((line) => line.includes("zona waktu"))).toEqual([]);

  const moved = open("UTC");
  expect(lines.filter((line) => line.includes("zona waktu"))).toEqual(["Minggu statistik kini dihitung menurut zona waktu UTC (sebelumnya Asia/Jakarta)."]);
  expect(moved.db.$client.query("SELECT week_start FROM lecturer_weekly_levels").all()).toEqual([{ week_start: "2026-11-16" }]);
  closeContext(moved);
});
