import { describe, expect, it } from 'vitest';
import { formatDate, relativeTime } from '../../../src/widgets/format.ts';

const NOW = new Date('2025-06-15T12:00:00Z');
const secondsAgo = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('relativeTime', () => {
  it.each([
    [0, 'Just now'],
    [59, 'Just now'],
    [MINUTE, '1 minute ago'],
    [5 * MINUTE, '5 minutes ago'],
    [HOUR - 1, '59 minutes ago'],
    [HOUR, '1 hour ago'],
    [DAY - 1, '23 hours ago'],
    [DAY, '1 day ago'],
    [29 * DAY, '29 days ago'],
    [30 * DAY, '1 month ago'],
    [364 * DAY, '12 months ago'],
    [365 * DAY, '1 year ago'],
    [3 * 365 * DAY, '3 years ago'],
  ])('%i seconds ago reads %s', (seconds, expected) => {
    expect(relativeTime(secondsAgo(seconds), NOW)).toBe(expected);
  });

  it('accepts ISO strings as the server sends them', () => {
    expect(relativeTime('2025-06-15T11:00:00Z', NOW)).toBe('1 hour ago');
  });

  it('reads a slightly future time (clock skew) as Just now', () => {
    expect(relativeTime(new Date(NOW.getTime() + 5000), NOW)).toBe('Just now');
  });
});

describe('formatDate', () => {
  const date = new Date(2025, 2, 7, 9, 30);

  it('defaults to mm/dd/yy, where yy is the full year', () => {
    expect(formatDate(date)).toBe('03/07/2025');
  });

  it('knows the short and long tokens', () => {
    expect(formatDate(date, 'd/m/y')).toBe('7/3/25');
    expect(formatDate(date, 'DD, MM d, yy')).toBe('Friday, March 7, 2025');
    expect(formatDate(date, 'D M dd')).toBe('Fri Mar 07');
  });

  it('copies quoted text as is', () => {
    expect(formatDate(date, "'day' d")).toBe('day 7');
  });
});
