import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dueInWords, promiseInWords, promiseTime } from '../../src/contract/sla.ts';
import {
  type BusinessCalendar,
  type OpeningHours,
  addBusinessMinutes,
  businessMinutesBetween,
  isOpenAt,
  targetInWords,
} from '../../src/contract/businessHours.ts';

const nineToSix: OpeningHours = { opens: '09:00', closes: '18:00' };
const weekdays = (hours: OpeningHours) => [hours, hours, hours, hours, hours, null, null] as const;

const paris: BusinessCalendar = { timeZone: 'Europe/Paris', week: weekdays(nineToSix), holidays: [] };
const newYork: BusinessCalendar = { timeZone: 'America/New_York', week: weekdays(nineToSix), holidays: [] };
/** Open across the DST changes' small hours (01:00-05:00), every day: the changes fall inside opening hours. */
const nightShiftParis: BusinessCalendar = {
  timeZone: 'Europe/Paris',
  week: [1, 2, 3, 4, 5, 6, 7].map(() => ({ opens: '01:00', closes: '05:00' })) as unknown as BusinessCalendar['week'],
  holidays: [],
};
const allDayNewYork: BusinessCalendar = {
  timeZone: 'America/New_York',
  week: [1, 2, 3, 4, 5, 6, 7].map(() => ({ opens: '00:00', closes: '24:00' })) as unknown as BusinessCalendar['week'],
  holidays: [],
};

const calendars = [paris, newYork, nightShiftParis, allDayNewYork, { ...paris, holidays: ['2026-12-24', '2026-12-25', '2027-01-01'] }];

/** Instants around the DST changes of 2026 and the year's end, to the second. */
const instants = fc.date({ min: new Date('2026-03-01T00:00:00Z'), max: new Date('2027-01-15T00:00:00Z'), noInvalidDate: true });
const durations = fc.integer({ min: 1, max: 5 * 9 * 60 * 3 });
const calendarArbitrary = fc.constantFrom(...calendars);

describe('business hours', () => {
  it('never puts a due time in closed hours: the minute before it is business time', () => {
    fc.assert(
      fc.property(calendarArbitrary, instants, durations, (calendar, start, minutes) => {
        const due = addBusinessMinutes(start, minutes, calendar);
        expect(isOpenAt(new Date(due.getTime() - 1), calendar)).toBe(true);
        expect(businessMinutesBetween(new Date(due.getTime() - 60_000), due, calendar)).toBe(1);
      }),
    );
  });

  it('gives back the duration added when it measures from the start to the due time', () => {
    fc.assert(
      fc.property(calendarArbitrary, instants, durations, (calendar, start, minutes) => {
        expect(businessMinutesBetween(start, addBusinessMinutes(start, minutes, calendar), calendar)).toBe(minutes);
      }),
    );
  });

  it('adds in steps as it adds at once (how a paused clock pushes its due times)', () => {
    fc.assert(
      fc.property(calendarArbitrary, instants, durations, durations, (calendar, start, first, second) => {
        const once = addBusinessMinutes(start, first + second, calendar);
        const inSteps = addBusinessMinutes(addBusinessMinutes(start, first, calendar), second, calendar);
        expect(inSteps.getTime()).toBe(once.getTime());
      }),
    );
  });

  it('measures additively across any instant between', () => {
    fc.assert(
      fc.property(calendarArbitrary, instants, instants, instants, (calendar, ...three) => {
        const [a, b, c] = three.sort((x, y) => x.getTime() - y.getTime());
        const whole = businessMinutesBetween(a, c, calendar);
        expect(businessMinutesBetween(a, b, calendar) + businessMinutesBetween(b, c, calendar)).toBeCloseTo(whole, 6);
      }),
    );
  });

  it('counts nothing when closed: a request filed at night or at the weekend starts at the next opening', () => {
    // Friday 2026-11-27 22:00 in Paris (21:00 UTC): the clock starts Monday 09:00 (08:00 UTC).
    const fridayNight = new Date('2026-11-27T21:00:00Z');
    expect(addBusinessMinutes(fridayNight, 4 * 60, paris).toISOString()).toBe('2026-11-30T12:00:00.000Z');
    // Saturday noon: the same Monday.
    expect(addBusinessMinutes(new Date('2026-11-28T11:00:00Z'), 4 * 60, paris).toISOString()).toBe('2026-11-30T12:00:00.000Z');
    expect(businessMinutesBetween(fridayNight, new Date('2026-11-30T08:00:00Z'), paris)).toBe(0);
    expect(isOpenAt(new Date('2026-11-28T11:00:00Z'), paris)).toBe(false);
    expect(isOpenAt(new Date('2026-11-30T08:00:00Z'), paris)).toBe(true);
    expect(isOpenAt(new Date('2026-11-30T17:00:00Z'), paris)).toBe(false);
  });

  it('carries over the closing time into the next opening day', () => {
    // Tuesday 16:00 Paris (15:00 UTC) + 4 h: 2 h on Tuesday, 2 h on Wednesday: 11:00 Paris.
    expect(addBusinessMinutes(new Date('2026-11-24T15:00:00Z'), 240, paris).toISOString()).toBe('2026-11-25T10:00:00.000Z');
    // Three working days of nine hours from Monday 09:00 end Wednesday 18:00.
    expect(addBusinessMinutes(new Date('2026-11-30T08:00:00Z'), 3 * 9 * 60, paris).toISOString()).toBe('2026-12-02T17:00:00.000Z');
  });

  it('skips holidays', () => {
    const christmas = { ...paris, holidays: ['2026-12-24', '2026-12-25'] };
    // Wednesday 23 December 17:00 Paris + 2 h: one hour that day, the next on Monday 28th (24th, 25th off, weekend).
    expect(addBusinessMinutes(new Date('2026-12-23T16:00:00Z'), 120, christmas).toISOString()).toBe('2026-12-28T09:00:00.000Z');
    expect(isOpenAt(new Date('2026-12-24T10:00:00Z'), christmas)).toBe(false);
  });

  it('follows the spring change of Paris: 9 to 18 wall-clock stays 9 hours, an hour earlier in UTC', () => {
    // Friday 27 March 2026 is on CET (UTC+1); Monday 30 March on CEST (UTC+2).
    expect(addBusinessMinutes(new Date('2026-03-27T16:00:00Z'), 120, paris).toISOString()).toBe('2026-03-30T08:00:00.000Z');
    // Open 01:00-05:00: on Sunday 29 March 02:00-03:00 never happens, so that opening lasts three real hours.
    expect(businessMinutesBetween(new Date('2026-03-28T23:00:00Z'), new Date('2026-03-29T04:00:00Z'), nightShiftParis)).toBe(180);
  });

  it('follows the autumn change of Paris: 02:00-03:00 happens twice, so that opening lasts five real hours', () => {
    expect(businessMinutesBetween(new Date('2026-10-24T23:00:00Z'), new Date('2026-10-25T05:00:00Z'), nightShiftParis)).toBe(300);
    // Friday 23 October 17:00 CEST + 2 h: one hour that day, one on Monday 26th, now UTC+1: 10:00 local.
    expect(addBusinessMinutes(new Date('2026-10-23T15:00:00Z'), 120, paris).toISOString()).toBe('2026-10-26T09:00:00.000Z');
  });

  it('follows New York on its own dates, weeks apart from Europe', () => {
    // 8 March 2026, 2:00 -> 3:00 EDT: that Sunday has 23 hours; 1 November 2026 has 25.
    expect(businessMinutesBetween(new Date('2026-03-08T05:00:00Z'), new Date('2026-03-09T04:00:00Z'), allDayNewYork)).toBe(23 * 60);
    expect(businessMinutesBetween(new Date('2026-11-01T04:00:00Z'), new Date('2026-11-02T05:00:00Z'), allDayNewYork)).toBe(25 * 60);
    // Friday 6 March 17:00 EST + 2 h: Monday 9 March 10:00 EDT (14:00 UTC).
    expect(addBusinessMinutes(new Date('2026-03-06T22:00:00Z'), 120, newYork).toISOString()).toBe('2026-03-09T14:00:00.000Z');
  });

  it('keeps calendars in two time zones apart: the same instant is open in one and closed in the other', () => {
    const parisMorning = new Date('2026-11-30T08:30:00Z'); // 09:30 Paris, 03:30 New York
    expect(isOpenAt(parisMorning, paris)).toBe(true);
    expect(isOpenAt(parisMorning, newYork)).toBe(false);
    expect(addBusinessMinutes(parisMorning, 60, newYork).toISOString()).toBe('2026-11-30T15:00:00.000Z');
  });

  it('refuses to search forever in a calendar that never opens', () => {
    const closed = { ...paris, week: [null, null, null, null, null, null, null] as const };
    expect(() => addBusinessMinutes(new Date('2026-11-30T08:00:00Z'), 60, closed)).toThrow('no opening hours');
  });

  it('words targets in working hours or days', () => {
    expect(targetInWords(240, 540)).toBe('4 working hours');
    expect(targetInWords(3 * 540, 540)).toBe('3 working days');
    expect(targetInWords(60, 540)).toBe('1 working hour');
    expect(targetInWords(90, 540)).toBe('90 working minutes');
  });
});

describe('the promise in words', () => {
  const promise = {
    first_response_within: '4 working hours',
    first_response_by: '2026-12-01T10:00:00.000Z',
    resolution_within: '3 working days',
    resolution_by: '2026-12-03T17:00:00.000Z',
  };
  const inParis = (iso: string) => promiseTime(iso, 'en-GB', 'Europe/Paris');

  it('tells the employee when to expect a first answer, then the end, and nothing while there is nothing to expect', () => {
    expect(promiseInWords(promise, inParis)).toBe('We usually reply within 4 working hours; expect a first answer by Tue 11:00.');
    expect(promiseInWords({ ...promise, first_response_by: null }, inParis)).toBe(
      'We usually complete requests within 3 working days; expect it done by Thu 18:00.',
    );
    expect(promiseInWords({ ...promise, first_response_by: null, resolution_by: null }, inParis)).toBeNull();
  });

  it('tells the concierge the time left or over', () => {
    const now = new Date('2026-12-01T10:00:00Z');
    expect(dueInWords(new Date('2026-12-01T12:00:00Z'), now)).toBe('due in 2 h');
    expect(dueInWords(new Date('2026-12-01T09:25:00Z'), now)).toBe('breached 35 min ago');
    expect(dueInWords(new Date('2026-12-04T10:00:00Z'), now)).toBe('due in 3 d');
  });
});
