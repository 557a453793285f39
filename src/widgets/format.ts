/** Display formatting shared by the screens: relative times and dates (SPEC §9); file sizes are in src/contract/uploads.ts. */

const MINUTE_SECONDS = 60;
const HOUR_SECONDS = 60 * MINUTE_SECONDS;
const DAY_SECONDS = 24 * HOUR_SECONDS;
/** SPEC §9: a month is 30 days, a year 365 days. */
const MONTH_SECONDS = 30 * DAY_SECONDS;
const YEAR_SECONDS = 365 * DAY_SECONDS;

const RELATIVE_UNITS = [
  { seconds: YEAR_SECONDS, name: 'year' },
  { seconds: MONTH_SECONDS, name: 'month' },
  { seconds: DAY_SECONDS, name: 'day' },
  { seconds: HOUR_SECONDS, name: 'hour' },
  { seconds: MINUTE_SECONDS, name: 'minute' },
] as const;

/** 'Just now' under a minute, then '1 minute ago', '5 hours ago', '2 months ago', '1 year ago'. */
export function relativeTime(date: Date | string | number, now: Date = new Date()): string {
  const elapsedSeconds = Math.floor((now.getTime() - new Date(date).getTime()) / 1000);
  for (const unit of RELATIVE_UNITS) {
    const count = Math.floor(elapsedSeconds / unit.seconds);
    if (count >= 1) return `${count} ${unit.name}${count === 1 ? '' : 's'} ago`;
  }
  // Under a minute, and clock skew that puts the date slightly in the future.
  return 'Just now';
}

const pad2 = (value: number) => String(value).padStart(2, '0');

/*
 * Date patterns in the datepicker dialect the spec's default 'mm/dd/yy' comes from: d / dd day, D / DD day name
 * short / long, m / mm month, M / MM month name short / long, y two-digit year, yy four-digit year. Anything else,
 * and text in single quotes, is copied as is.
 */
const DATE_TOKENS: ReadonlyArray<[string, (date: Date) => string]> = [
  ['yy', (date) => String(date.getFullYear())],
  ['y', (date) => pad2(date.getFullYear() % 100)],
  ['MM', (date) => date.toLocaleDateString('en-US', { month: 'long' })],
  ['M', (date) => date.toLocaleDateString('en-US', { month: 'short' })],
  ['mm', (date) => pad2(date.getMonth() + 1)],
  ['m', (date) => String(date.getMonth() + 1)],
  ['DD', (date) => date.toLocaleDateString('en-US', { weekday: 'long' })],
  ['D', (date) => date.toLocaleDateString('en-US', { weekday: 'short' })],
  ['dd', (date) => pad2(date.getDate())],
  ['d', (date) => String(date.getDate())],
];

/** SPEC §9 default 'mm/dd/yy', e.g. '03/07/2025'. */
export function formatDate(date: Date | string | number, pattern = 'mm/dd/yy'): string {
  const value = new Date(date);
  let result = '';
  let index = 0;
  while (index < pattern.length) {
    if (pattern[index] === "'") {
      const closing = pattern.indexOf("'", index + 1);
      const end = closing === -1 ? pattern.length : closing;
      result += pattern.slice(index + 1, end);
      index = end + 1;
      continue;
    }
    const token = DATE_TOKENS.find(([name]) => pattern.startsWith(name, index));
    if (token) {
      result += token[1](value);
      index += token[0].length;
    } else {
      result += pattern[index];
      index += 1;
    }
  }
  return result;
}
