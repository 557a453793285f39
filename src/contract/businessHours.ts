import { CalendarDate, CalendarDateTime, fromAbsolute, parseDate, toCalendarDate, toZoned } from '@internationalized/date';

/**
 * Business-hours arithmetic for the turnaround targets (issue 28): pure, no I/O, shared by the server (due times,
 * the sweeper) and any view that words a promise. Time-zone rules come from @internationalized/date (the platform's
 * IANA data), never from hand-made offsets: an opening hour is a wall-clock time in the calendar's zone, so a day
 * on which the clocks change has the opening hours the sign on the door says, and the elapsed time between them.
 *
 * A business duration is real elapsed time that falls inside an opening interval [opens, closes) of a day that is
 * not a holiday. Instants are `Date`s; durations are minutes (fractions allowed: the clock counts milliseconds).
 */

/** One day's opening hours, wall-clock "HH:MM" in the calendar's zone; "24:00" closes at midnight. */
export interface OpeningHours {
  opens: string;
  closes: string;
}

/** Monday first, Sunday last: null is a closed day. */
export type WeeklyHours = readonly [
  OpeningHours | null,
  OpeningHours | null,
  OpeningHours | null,
  OpeningHours | null,
  OpeningHours | null,
  OpeningHours | null,
  OpeningHours | null,
];

export interface BusinessCalendar {
  /** An IANA time zone, e.g. Europe/Paris. */
  timeZone: string;
  week: WeeklyHours;
  /** Closed all day, as local dates "YYYY-MM-DD". */
  holidays: readonly string[];
}

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

const MINUTE_MS = 60_000;
/** Past this many days without an opening, the calendar is taken to have none (its holidays are capped at 366). */
const SEARCH_LIMIT_DAYS = 3 * 366;

export class CalendarNeverOpensError extends Error {
  constructor() {
    super('This calendar has no opening hours.');
  }
}

/** "HH:MM" as minutes since midnight, or null when it is not a time of day (24:00 is the end of the day). */
export function minutesOfDay(time: string): number | null {
  const match = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(time);
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes <= 24 * 60 ? minutes : null;
}

/** Monday = 0 ... Sunday = 6, whatever the locale's first day of the week. */
function weekdayIndex(date: CalendarDate): number {
  // 1970-01-05 was a Monday.
  const daysSinceMonday = date.compare(new CalendarDate(1970, 1, 5));
  return ((daysSinceMonday % 7) + 7) % 7;
}

/**
 * The absolute instant of a wall-clock time on a local date. A time the clocks skip moves forward past the gap; a
 * time that happens twice is its first occurrence ('compatible', as Temporal does).
 */
function instantAt(date: CalendarDate, minutes: number, timeZone: string): number {
  const day = minutes === 24 * 60 ? date.add({ days: 1 }) : date;
  const minuteOfDay = minutes % (24 * 60);
  const local = new CalendarDateTime(day.year, day.month, day.day, Math.floor(minuteOfDay / 60), minuteOfDay % 60);
  return toZoned(local, timeZone, 'compatible').toDate().getTime();
}

/** The opening interval [start, end) of a local date, in epoch milliseconds, or null when closed that day. */
function openingOf(calendar: BusinessCalendar, holidays: ReadonlySet<string>, date: CalendarDate): [number, number] | null {
  const hours = calendar.week[weekdayIndex(date)];
  if (!hours || holidays.has(date.toString())) return null;
  const opens = minutesOfDay(hours.opens);
  const closes = minutesOfDay(hours.closes);
  if (opens === null || closes === null || closes <= opens) return null;
  const start = instantAt(date, opens, calendar.timeZone);
  const end = instantAt(date, closes, calendar.timeZone);
  return end > start ? [start, end] : null;
}

/** The opening intervals from the local day of `fromMs` on, in order, ending after `limitDays` days. */
function* openingsFrom(calendar: BusinessCalendar, fromMs: number, limitDays = SEARCH_LIMIT_DAYS): Generator<[number, number]> {
  const holidays = new Set(calendar.holidays);
  // The day before too: a day's hours may end after midnight local time of the next (24:00 on a DST change).
  let date = toCalendarDate(fromAbsolute(fromMs, calendar.timeZone)).subtract({ days: 1 });
  let closedDays = 0;
  for (let day = 0; day < limitDays; day += 1, date = date.add({ days: 1 })) {
    const interval = openingOf(calendar, holidays, date);
    if (!interval) {
      closedDays += 1;
      if (closedDays > SEARCH_LIMIT_DAYS) throw new CalendarNeverOpensError();
      continue;
    }
    closedDays = 0;
    if (interval[1] > fromMs) yield interval;
  }
}

/** The instant `minutes` of business time after `start` (start itself for 0). Throws for a calendar that never opens. */
export function addBusinessMinutes(start: Date, minutes: number, calendar: BusinessCalendar): Date {
  let remaining = Math.round(minutes * MINUTE_MS);
  const from = start.getTime();
  if (remaining <= 0) return new Date(from);
  for (const [opens, closes] of openingsFrom(calendar, from, Number.POSITIVE_INFINITY)) {
    const begin = Math.max(opens, from);
    if (remaining <= closes - begin) return new Date(begin + remaining);
    remaining -= closes - begin;
  }
  throw new CalendarNeverOpensError();
}

/** Business minutes from `start` to `end` (0 when end is not after start). */
export function businessMinutesBetween(start: Date, end: Date, calendar: BusinessCalendar): number {
  const from = start.getTime();
  const to = end.getTime();
  if (to <= from) return 0;
  let total = 0;
  for (const [opens, closes] of openingsFrom(calendar, from, Number.POSITIVE_INFINITY)) {
    if (opens >= to) break;
    total += Math.min(closes, to) - Math.max(opens, from);
  }
  return total / MINUTE_MS;
}

/** Whether the calendar is open at this instant (opening time included, closing time not). */
export function isOpenAt(instant: Date, calendar: BusinessCalendar): boolean {
  const at = instant.getTime();
  for (const [opens, closes] of openingsFrom(calendar, at, 3)) {
    if (opens <= at && at < closes) return true;
  }
  return false;
}

/** The local date "YYYY-MM-DD" is a real date (holidays are checked with it). */
export function isLocalDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  try {
    return parseDate(text).toString() === text;
  } catch {
    return false;
  }
}

/** Whether the platform knows this IANA time zone. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return name.includes('/') || name === 'UTC';
  } catch {
    return false;
  }
}

/** The longest opening of the week in minutes: a "working day" when a target is worded in days. */
export function workingDayMinutes(calendar: BusinessCalendar): number {
  return Math.max(
    0,
    ...calendar.week.map((hours) => {
      if (!hours) return 0;
      const opens = minutesOfDay(hours.opens);
      const closes = minutesOfDay(hours.closes);
      return opens === null || closes === null ? 0 : Math.max(0, closes - opens);
    }),
  );
}

/** A target in plain words: "4 working hours", "3 working days", "90 working minutes". */
export function targetInWords(minutes: number, dayMinutes: number): string {
  const plural = (count: number, unit: string) => `${count} working ${unit}${count === 1 ? '' : 's'}`;
  if (dayMinutes > 0 && minutes >= dayMinutes && minutes % dayMinutes === 0) return plural(minutes / dayMinutes, 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}
