import { invalid } from "./errors";

// The faculty's calendar (decisions §11): weeks, dates in exports and what the web
// interface shows follow one IANA time zone, Asia/Jakarta unless configured. Stored
// timestamps and the API's JSON stay UTC.

export const defaultTimeZone = "Asia/Jakarta";

// Bun's JavaScriptCore has Temporal (Bun's own TOML reader returns its objects); TypeScript
// 5.9 does not declare it yet: the little used here.
interface ZonedMoment {
  readonly epochMilliseconds: number;
  readonly timeZoneId: string;
  getTimeZoneTransition(direction: "next"): ZonedMoment | null;
}
declare const Temporal: { Instant: { fromEpochMilliseconds(milliseconds: number): { toZonedDateTimeISO(timeZone: string): ZonedMoment } } };

/**
 * The zone's canonical name, or a 400/exit 1 naming what was given. Temporal reads a name
 * exactly as Intl.DateTimeFormat does (the same canonical name for every IANA name and
 * alias, in any case), without loading a locale's formats: ≈ 7 ms less at every start.
 */
export function readTimeZone(name: string): string {
  try {
    return Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(name.trim()).timeZoneId;
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

const daySeconds = 24 * 3600;

/**
 * Every change of the zone's offset from 1970 to 2100, the first entry the offset of 1970.
 * The moments at which the zone's rules change are asked of the clock library (Temporal's
 * transitions: about 250 for a zone with daylight saving time, in well under a
 * millisecond, instead of sampling 47,000 days), and each keeps the offset that
 * `offsetMinutesAt` reads from then on; a transition that leaves that offset as it was
 * (a change of name, or of seconds only) is no change.
 */
export function offsetChanges(timeZone: string, from = Date.UTC(1970, 0, 1) / 1000, to = Date.UTC(2100, 0, 1) / 1000): OffsetChange[] {
  const at = (seconds: number) => offsetMinutesAt(timeZone, seconds * 1000);
  const changes: OffsetChange[] = [{ startsAt: from, offsetMinutes: at(from) }];
  let transition = Temporal.Instant.fromEpochMilliseconds(from * 1000).toZonedDateTimeISO(timeZone).getTimeZoneTransition("next");
  while (transition) {
    // The first whole second with the new offset.
    const startsAt = Math.ceil(transition.epochMilliseconds / 1000);
    if (startsAt > to) break;
    const offsetMinutes = at(startsAt);
    if (offsetMinutes !== changes.at(-1)!.offsetMinutes) changes.push({ startsAt, offsetMinutes });
    transition = transition.getTimeZoneTransition("next");
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
  return localClock(time, timeZone, false);
}

/**
 * A moment as a log line begins (issue 44): the faculty's wall clock to the millisecond with
 * its offset, `2026-11-25T00:30:00.123+07:00`, sortable and unambiguous like UTC, readable as WIB.
 */
export const logTimestamp = (time: number, timeZone: string) => localClock(time, timeZone, true);

function localClock(time: number, timeZone: string, milliseconds: boolean): string {
  const { shifted, offset } = wallClock(time, timeZone);
  const sign = offset < 0 ? "-" : "+";
  const date = `${shifted.getUTCFullYear()}-${two(shifted.getUTCMonth() + 1)}-${two(shifted.getUTCDate())}`;
  const clock = `${two(shifted.getUTCHours())}:${two(shifted.getUTCMinutes())}:${two(shifted.getUTCSeconds())}${milliseconds ? `.${String(shifted.getUTCMilliseconds()).padStart(3, "0")}` : ""}`;
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
