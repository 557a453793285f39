import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { manualClock } from '../../server/domain/ports/clock.ts';
import { LOOPBACK_ONLY_ERROR, SYSTEM_CLOCK_ERROR } from '../../server/routes/dev.routes.ts';
import { type TestContext, createTestContext } from './harness.ts';
import { errorOf } from './helpers.ts';

/**
 * POST /api/dev/clock: how the end-to-end service story moves a test server's turnaround clock. Only a test run
 * started with MANUAL_CLOCK_START has a clock to move; production has neither the variable nor the route.
 */

const START = new Date('2026-11-24T09:00:00.000Z');
const clock = manualClock(START);
let context: TestContext;
beforeAll(async () => {
  context = await createTestContext({}, { clock });
});
afterAll(async () => {
  await context.close();
});

const moveClock = (body: unknown, options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  context.app.inject({ method: 'POST', url: '/api/dev/clock', payload: body as object, remoteAddress: '127.0.0.1', ...options });

describe('POST /api/dev/clock', () => {
  it('sets the clock to an instant and moves it on by minutes, answering where it stands', async () => {
    const set = await moveClock({ set: '2026-11-24T10:00:00+01:00' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ now: START.toISOString() });
    const advanced = await moveClock({ advance_minutes: 50 });
    expect(advanced.json()).toEqual({ now: '2026-11-24T09:50:00.000Z' });
    expect(clock.now().toISOString()).toBe('2026-11-24T09:50:00.000Z');
  });

  it.each([
    [{ advance_minutes: 0 }, 'advance_minutes'],
    [{ advance_minutes: 1.5 }, 'advance_minutes'],
    [{ advance_minutes: 60 * 24 * 60 + 1 }, 'advance_minutes'],
    [{ set: 'next Tuesday' }, 'set'],
  ])('refuses %j with a 422 naming the field', async (body, field) => {
    const before = clock.now().getTime();
    const response = await moveClock(body);
    expect(response.statusCode).toBe(422);
    expect(JSON.stringify((response.json() as { fields: unknown }).fields)).toContain(field);
    expect(clock.now().getTime()).toBe(before);
  });

  it('refuses a body that both sets and moves, or does neither', async () => {
    for (const body of [{ set: START.toISOString(), advance_minutes: 5 }, {}]) {
      expect((await moveClock(body)).statusCode).toBe(422);
    }
  });

  it.each([
    ['another machine', { remoteAddress: '203.0.113.7' }],
    ['a proxy on this machine forwarding someone', { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '127.0.0.1' } }],
  ])('refuses %s', async (_who, options) => {
    const before = clock.now().getTime();
    const response = await moveClock({ advance_minutes: 5 }, options);
    expect(response.statusCode).toBe(403);
    expect(errorOf(response)).toBe(LOOPBACK_ONLY_ERROR);
    expect(clock.now().getTime()).toBe(before);
  });

  it("answers 409 on a server that keeps the system's time", async () => {
    const systemTime = await createTestContext();
    try {
      const response = await systemTime.app.inject({ method: 'POST', url: '/api/dev/clock', payload: { advance_minutes: 5 }, remoteAddress: '127.0.0.1' });
      expect(response.statusCode).toBe(409);
      expect(errorOf(response)).toBe(SYSTEM_CLOCK_ERROR);
    } finally {
      await systemTime.close();
    }
  });

  it('does not exist in production, even with a movable clock', async () => {
    const productionClock = manualClock(START);
    const production = await createTestContext({ NODE_ENV: 'production' }, { clock: productionClock });
    try {
      const response = await production.app.inject({ method: 'POST', url: '/api/dev/clock', payload: { advance_minutes: 5 }, remoteAddress: '127.0.0.1' });
      expect(response.statusCode).toBe(404);
      expect(productionClock.now()).toEqual(START);
    } finally {
      await production.close();
    }
  });
});

describe('MANUAL_CLOCK_START', () => {
  it('is taken by test runs only', () => {
    expect(loadConfig({ NODE_ENV: 'test', MANUAL_CLOCK_START: START.toISOString() }).MANUAL_CLOCK_START).toBe(START.toISOString());
    for (const NODE_ENV of ['production', 'development']) {
      expect(() => loadConfig({ NODE_ENV, MANUAL_CLOCK_START: START.toISOString() })).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV, MANUAL_CLOCK_START: START.toISOString() })).toThrow(/MANUAL_CLOCK_START: only test runs/);
    }
  });

  it('must be an instant', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', MANUAL_CLOCK_START: 'Tuesday morning' })).toThrow(/MANUAL_CLOCK_START/);
  });
});
