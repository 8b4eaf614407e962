import { invalid } from "./errors";

// The faculty's calendar (decisions §11): weeks, dates in exports and what the web
// interface shows follow one IANA time zone, Asia/Jakarta unless configured. Stored
// timestamps and the API's JSON stay UTC.

export const defaultTimeZone = "Asia/Jakarta";

/** The zone's canonical name, or a 400/exit 1 naming what was given. */
export function readTimeZone(name: string): string {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name.trim() }).resolvedOptions().timeZone;
  } catch {
    throw invalid(`Zona waktu ${JSON.stringify(name)} tidak dikenal; gunakan nama IANA seperti Asia/Jakarta, Asia/Makassar atau Asia/Jayapura.`);
  }
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes to add to UTC for the zone's wall clock at `time` (420 for WIB). */
export function offsetMinutesAt(timeZone: string, time: number): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormats.set(timeZone, format);
  }
  // "GMT+07:00", "GMT-03:30", or "GMT" for UTC itself.
  const name = format.formatToParts(time).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === "-" ? -minutes : minutes;
}

export interface OffsetChange {
  /** Unix seconds from which `offsetMinutes` holds. */
  startsAt: number;
  offsetMinutes: number;
}

const hourSeconds = 3600;
const daySeconds = 24 * hourSeconds;

/**
 * Every change of the zone's offset from 1970 to 2100, the first entry the offset of 1970.
 * The offset is sampled daily; a change is then narrowed to the second, so a daylight
 * saving switch is found exactly. About 50,000 samples: done once per zone.
 */
export function offsetChanges(timeZone: string, from = Date.UTC(1970, 0, 1) / 1000, to = Date.UTC(2100, 0, 1) / 1000): OffsetChange[] {
  const at = (seconds: number) => offsetMinutesAt(timeZone, seconds * 1000);
  const changes: OffsetChange[] = [{ startsAt: from, offsetMinutes: at(from) }];
  for (let day = from; day < to; day += daySeconds) {
    const before = changes.at(-1)!.offsetMinutes;
    const next = Math.min(day + daySeconds, to);
    if (at(next) === before) continue;
    // The offset changes in (day, next]: the first second with the new offset.
    let [low, high] = [day, next];
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (at(middle) === before) low = middle;
      else high = middle;
    }
    changes.push({ startsAt: high, offsetMinutes: at(high) });
  }
  return changes;
}

const changesByZone = new Map<string, OffsetChange[]>();

/** `offsetChanges` of a zone over the whole range, computed once per process. */
export function zoneOffsetChanges(timeZone: string): OffsetChange[] {
  let changes = changesByZone.get(timeZone);
  if (!changes) {
    changes = offsetChanges(timeZone);
    changesByZone.set(timeZone, changes);
  }
  return changes;
}

const two = (value: number) => String(value).padStart(2, "0");

/** The wall-clock parts of `time` in the zone, as UTC fields of a shifted date. */
function wallClock(time: number, timeZone: string): { shifted: Date; offset: number } {
  const offset = offsetMinutesAt(timeZone, time);
  return { shifted: new Date(time + offset * 60_000), offset };
}

/**
 * A stored UTC timestamp as the faculty reads it, ISO 8601 with its offset:
 * `2026-11-24T17:30:00.000Z` → `2026-11-25T00:30:00+07:00`. Text that is no timestamp is
 * returned unchanged (an export never loses what was stored).
 */
export function formatLocalTimestamp(stored: string, timeZone: string): string {
  const time = Date.parse(stored);
  if (Number.isNaN(time)) return stored;
  const { shifted, offset } = wallClock(time, timeZone);
  const sign = offset < 0 ? "-" : "+";
  const date = `${shifted.getUTCFullYear()}-${two(shifted.getUTCMonth() + 1)}-${two(shifted.getUTCDate())}`;
  const clock = `${two(shifted.getUTCHours())}:${two(shifted.getUTCMinutes())}:${two(shifted.getUTCSeconds())}`;
  return `${date}T${clock}${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
}

/** The calendar date (`YYYY-MM-DD`) that `time` falls on in the zone. */
export function localDate(time: number, timeZone: string): string {
  return wallClock(time, timeZone).shifted.toISOString().slice(0, 10);
}

/**
 * The moment (Unix milliseconds) the local day `date` (`YYYY-MM-DD`) begins in the zone:
 * its midnight, found from the offset in force just before it and then at it.
 */
export function localDayStart(date: string, timeZone: string): number {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  const guess = midnightUtc - offsetMinutesAt(timeZone, midnightUtc) * 60_000;
  return midnightUtc - offsetMinutesAt(timeZone, guess) * 60_000;
}

/** The date of the Monday that begins the week holding `time` in the zone (weeks start Monday 00:00). */
export function localWeekStart(time: number, timeZone: string): string {
  const date = new Date(`${localDate(time, timeZone)}T00:00:00Z`);
  // getUTCDay: 0 is Sunday; days since Monday.
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}

/** `date` (`YYYY-MM-DD`) moved by whole days on the calendar, whatever the zone. */
export function addDays(date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}

/** `YYYY-Www` of the ISO week that starts on the Monday `monday` (the week belongs to the year of its Thursday). */
export function isoWeekLabel(monday: string): string {
  const thursday = new Date(`${addDays(monday, 3)}T00:00:00Z`);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * daySeconds * 1000)) + 1;
  return `${year}-W${two(week)}`;
}
