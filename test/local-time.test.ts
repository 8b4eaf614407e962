import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { addDays, formatLocalTimestamp, isoWeekLabel, localWeekStart, offsetChanges, readTimeZone } from "../src/local-time";
import { runCli, temporaryDir } from "./helpers";

describe("the faculty's calendar", () => {
  test.each([
    ["2026-11-24T17:30:00.000Z", "Asia/Jakarta", "2026-11-25T00:30:00+07:00"],
    ["2026-11-24T17:30:00.000Z", "Asia/Makassar", "2026-11-25T01:30:00+08:00"],
    ["2026-11-24T17:30:00.000Z", "Asia/Jayapura", "2026-11-25T02:30:00+09:00"],
    ["2026-11-24T17:30:00.000Z", "UTC", "2026-11-24T17:30:00+00:00"],
    ["2026-03-29T00:59:59.000Z", "Europe/Berlin", "2026-03-29T01:59:59+01:00"],
    ["2026-03-29T01:00:00.000Z", "Europe/Berlin", "2026-03-29T03:00:00+02:00"],
    ["2026-11-24T17:30:00.000Z", "America/St_Johns", "2026-11-24T14:00:00-03:30"],
    ["bukan tanggal", "Asia/Jakarta", "bukan tanggal"],
  ])("%s in %s reads %s", (stored, zone, expected) => expect(formatLocalTimestamp(stored, zone)).toBe(expected));

  test.each([
    [Date.UTC(2026, 10, 22, 16, 59, 59, 999), "2026-11-16"],
    [Date.UTC(2026, 10, 22, 17), "2026-11-23"],
    [Date.UTC(2026, 10, 29, 16, 59), "2026-11-23"],
  ])("in WIB, %d is in the week of Monday %s", (time, monday) => expect(localWeekStart(time, "Asia/Jakarta")).toBe(monday));

  test("weeks are labelled by the ISO year of their Thursday; days move on the calendar", () => {
    expect(isoWeekLabel("2025-12-29")).toBe("2026-W01");
    expect(isoWeekLabel("2026-12-28")).toBe("2026-W53");
    expect(isoWeekLabel("2027-01-04")).toBe("2027-W01");
    expect(addDays("2026-03-02", -7)).toBe("2026-02-23");
    expect(addDays("2024-02-26", 7)).toBe("2024-03-04");
  });

  test("offset changes are found to the second, none for a zone without them", () => {
    expect(offsetChanges("Asia/Jakarta")).toEqual([{ startsAt: 0, offsetMinutes: 420 }]);
    const berlin2026 = offsetChanges("Europe/Berlin", Date.UTC(2026, 0, 1) / 1000, Date.UTC(2027, 0, 1) / 1000);
    expect(berlin2026).toEqual([
      { startsAt: Date.UTC(2026, 0, 1) / 1000, offsetMinutes: 60 },
      { startsAt: Date.UTC(2026, 2, 29, 1) / 1000, offsetMinutes: 120 },
      { startsAt: Date.UTC(2026, 9, 25, 1) / 1000, offsetMinutes: 60 },
    ]);
  });

  test("a zone is read by its IANA name in any case; an unknown one is refused by name", () => {
    expect(readTimeZone("asia/makassar")).toBe("Asia/Makassar");
    expect(() => readTimeZone("WIB")).toThrow('Zona waktu "WIB" tidak dikenal');
  });
});

test("--tz and SKRINING_TZ: an unknown zone stops a command before it creates anything", async () => {
  for (const [args, env] of [
    [["--tz", "Mars/Olympus"], {}],
    [[], { SKRINING_TZ: "Mars/Olympus" }],
  ] as const) {
    const dataDir = join(temporaryDir(), "data");
    const result = await runCli([...args, "--data", dataDir, "accounts", "list"], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('Zona waktu "Mars/Olympus" tidak dikenal');
    expect(existsSync(dataDir)).toBe(false);
  }
});
