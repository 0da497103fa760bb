import type { Millis } from '../ports/storage';

/**
 * Calendar days in a store's time zone (decisions §23), with `Intl` only: a day is the span from
 * the first instant whose local date is that day to the first instant of the next one, so days
 * across a DST change last 23 or 25 hours (or whatever the zone says), and zones with offsets in
 * minutes (Asia/Kathmandu, +05:45) are exact.
 */

/** A local calendar date, `YYYY-MM-DD`. */
export type LocalDate = string;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `timeZone` is an IANA zone `Intl` knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The local date of an instant in `timeZone` (an unknown zone counts as UTC). */
export function localDateOf(at: Millis, timeZone: string): LocalDate {
  const zone = isKnownTimeZone(timeZone) ? timeZone : 'UTC';
  let year = '';
  let month = '';
  let day = '';
  for (const part of formatterFor(zone).formatToParts(at)) {
    if (part.type === 'year') year = part.value;
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
  }
  return `${year.padStart(4, '0')}-${month}-${day}`;
}

function utcMidnight(date: LocalDate): Millis {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}

/** `date` moved by `days` calendar days. */
export function addDays(date: LocalDate, days: number): LocalDate {
  return new Date(utcMidnight(date) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The number of days of the month `date` is in. */
export function daysInMonth(date: LocalDate): number {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

const MINUTE = 60_000;

/**
 * The first instant (to the minute: every offset of the tz database is whole minutes since 1972)
 * whose local date in `timeZone` is `date` or later. Offsets lie within −12 h … +14 h, so the
 * answer lies within UTC midnight −15 h … +13 h: a binary search over that window, which needs no
 * knowledge of the zone's rules and is right on DST days (a midnight that does not exist starts
 * the day at 01:00).
 */
export function startOfDay(date: LocalDate, timeZone: string): Millis {
  const midnight = utcMidnight(date);
  let lo = (midnight - 15 * 3_600_000) / MINUTE; // local date before `date`
  let hi = (midnight + 13 * 3_600_000) / MINUTE; // local date `date` or after
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDateOf(mid * MINUTE, timeZone) >= date) hi = mid;
    else lo = mid;
  }
  return hi * MINUTE;
}

/** The instants `[start, end)` of local day `date`. */
export function dayRange(date: LocalDate, timeZone: string): { start: Millis; end: Millis } {
  return { start: startOfDay(date, timeZone), end: startOfDay(addDays(date, 1), timeZone) };
}
