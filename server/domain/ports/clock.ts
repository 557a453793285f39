/**
 * The time as the server's rules see it. Production uses the system clock; tests (and the e2e story) hand buildApp a
 * clock they move on, so that a turnaround target can fall due without waiting for it. Only code that reasons about
 * promised times (the SLA clock and its sweeper) reads it; everything else keeps `new Date()`.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface ManualClock extends Clock {
  set(instant: Date): void;
  advance(ms: number): void;
}

/** A clock that stands still until moved: for tests only. */
export function manualClock(start: Date): ManualClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (instant) => {
      current = instant.getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

/** Whether a test may move this clock (the dev clock route answers only for such a clock). */
export function isManualClock(clock: Clock): clock is ManualClock {
  return 'set' in clock && 'advance' in clock;
}
