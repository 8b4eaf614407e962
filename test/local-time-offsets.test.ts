import { expect, test } from "bun:test";
import { offsetChanges, offsetMinutesAt, readTimeZone, type OffsetChange } from "../src/local-time";

// The zone's offset changes (time_zone_offsets, decisions §11) are taken from the clock
// library's transitions, and its name is read by Temporal: both must be exactly what the
// earlier code found, the offset sampled every day from 1970 to 2100 with each change
// narrowed to the second, and the name Intl.DateTimeFormat gives.

function dailyScan(timeZone: string, from = Date.UTC(1970, 0, 1) / 1000, to = Date.UTC(2100, 0, 1) / 1000): OffsetChange[] {
  const day = 24 * 3600;
  const at = (seconds: number) => offsetMinutesAt(timeZone, seconds * 1000);
  const changes: OffsetChange[] = [{ startsAt: from, offsetMinutes: at(from) }];
  for (let start = from; start < to; start += day) {
    const before = changes.at(-1)!.offsetMinutes;
    const next = Math.min(start + day, to);
    if (at(next) === before) continue;
    let [low, high] = [start, next];
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (at(middle) === before) low = middle;
      else high = middle;
    }
    changes.push({ startsAt: high, offsetMinutes: at(high) });
  }
  return changes;
}

test.each([
  // Indonesia's three zones: no change since 1970.
  "Asia/Jakarta",
  "Asia/Makassar",
  "Asia/Jayapura",
  // Daylight saving time in the north and in the south (Brazil's ended in 2019).
  "Europe/Berlin",
  "America/Sao_Paulo",
  // Half-hour offsets and a half-hour daylight saving step; Ramadan pauses; a day skipped.
  "America/St_Johns",
  "Australia/Lord_Howe",
  "Africa/Casablanca",
  "Pacific/Apia",
  "Asia/Tehran",
  "UTC",
])("%s: the same changes as the daily scan over 1970–2100", (zone) => {
  expect(offsetChanges(zone)).toEqual(dailyScan(zone));
});

test("a range that starts or ends between changes: the offset at its start, changes up to and including its end", () => {
  const [start, end] = [Date.UTC(2026, 5, 1) / 1000, Date.UTC(2026, 9, 25, 1) / 1000];
  expect(offsetChanges("Europe/Berlin", start, end)).toEqual(dailyScan("Europe/Berlin", start, end));
  expect(offsetChanges("Europe/Berlin", start, end)).toEqual([
    { startsAt: start, offsetMinutes: 120 },
    { startsAt: end, offsetMinutes: 60 },
  ]);
  expect(offsetChanges("Europe/Berlin", start, end - 1)).toEqual([{ startsAt: start, offsetMinutes: 120 }]);
});

test("a zone's name is read as Intl.DateTimeFormat reads it: every zone, aliases, any case, and the same refusals", () => {
  const intl = (name: string) => {
    try {
      return new Intl.DateTimeFormat("en-US", { timeZone: name.trim() }).resolvedOptions().timeZone;
    } catch {
      return "refused";
    }
  };
  const read = (name: string) => {
    try {
      return readTimeZone(name);
    } catch {
      return "refused";
    }
  };
  const zones = Intl.supportedValuesOf("timeZone");
  const names = [
    ...zones,
    ...zones.map((zone) => zone.toLowerCase()),
    ...["UTC", "utc", "Etc/UTC", "GMT", "Etc/GMT+7", "etc/gmt-7", " Asia/Jakarta ", "ASIA/JAKARTA", "Asia/Ujung_Pandang", "Asia/Calcutta", "Asia/Saigon"],
    ...["US/Pacific", "Europe/Kiev", "Singapore", "Japan", "EST5EDT", "CET", "WIB", "Mars/Olympus", "", "Asia/Jakarta/", "../Asia/Jakarta"],
  ];
  expect(names.filter((name) => read(name) !== intl(name))).toEqual([]);
  expect(read("WIB")).toBe("refused");
});
