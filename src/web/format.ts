// Dates and numbers as a person in the faculty reads them: Indonesian, in the faculty's
// time zone (the API's timestamps are UTC, decisions §11).

/** The faculty's time zone: Western Indonesia Time unless the page says otherwise. */
export const timeZone = document.querySelector<HTMLMetaElement>('meta[name="skrining-timezone"]')?.content || "Asia/Jakarta";

const dateFormat = new Intl.DateTimeFormat("id-ID", { timeZone, day: "numeric", month: "long", year: "numeric" });
const shortDateFormat = new Intl.DateTimeFormat("id-ID", { timeZone, day: "numeric", month: "short" });
const dateTimeFormat = new Intl.DateTimeFormat("id-ID", { timeZone, day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" });
const numberFormat = new Intl.NumberFormat("id-ID", { maximumFractionDigits: 2 });

/** `2026-11-24T07:15:03Z` → `24 November 2026` (local); a calendar date `2026-11-24` as it is. */
export function formatDate(value: string): string {
  return dateFormat.format(/^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00Z`) : new Date(value));
}

/** `24 Nov` — for chart axes. */
export function formatShortDate(value: string): string {
  return shortDateFormat.format(/^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00Z`) : new Date(value));
}

/** `24 November 2026 14.15` in the faculty's time zone. */
export function formatDateTime(value: string): string {
  return dateTimeFormat.format(new Date(value));
}

const calendarDate = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
const timeFormat = new Intl.DateTimeFormat("id-ID", { timeZone, hour: "2-digit", minute: "2-digit" });

/** The calendar date `YYYY-MM-DD` of a moment in the faculty's time zone. */
export function localDate(moment: Date): string {
  const parts = calendarDate.formatToParts(moment);
  const part = (type: string) => parts.find((each) => each.type === type)!.value;
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** Today as `YYYY-MM-DD` in the faculty's time zone: the date of today's mood. */
export const todayLocal = (): string => localDate(new Date());

/** `14.15`: the time of day of a timestamp in the faculty's time zone. */
export function formatTime(value: string): string {
  return timeFormat.format(new Date(value));
}

/** `3.5` → `3,5`. */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

const longDate = new Intl.DateTimeFormat("id-ID", { timeZone, weekday: "long", day: "numeric", month: "long", year: "numeric" });

/** `2026-11-24` → `Selasa, 24 November 2026`: a mood or a diary day as a person says it. */
export const formatDay = (date: string) => longDate.format(new Date(`${date}T12:00:00Z`));
