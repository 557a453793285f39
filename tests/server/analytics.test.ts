import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnalyticsBatch, ClientErrorReport } from '../../src/contract/analytics.ts';
import { analyticsEvents, users } from '../../server/db/schema.ts';
import { SESSION_TTL_MS, createSession } from '../../server/domain/accounts/sessions.ts';
import { MAX_STORED_RESPONSE_DATA, STORED_EVENTS_PER_HOUR } from '../../server/domain/analytics/analytics.ts';
import { ERROR_REPORTS_PER_MINUTE, EVENT_BATCHES_PER_MINUTE, TOO_MANY_EVENTS_ERROR } from '../../server/routes/analytics.routes.ts';
import { MAX_EVENTS_PER_BATCH } from '../../src/contract/analytics.constants.ts';
import { createTestContext, type TestContext } from './harness.ts';

const occurred_at = '2025-01-02T03:04:05.000Z';

const pageViewBatch = (path: string, extra: Partial<AnalyticsBatch> = {}): AnalyticsBatch => ({
  analytics_id: 'life-concierge-test',
  events: [{ name: 'page_view', properties: { path }, occurred_at }],
  ...extra,
});

const errorReport: ClientErrorReport = {
  analytics_id: 'life-concierge-test',
  name: 'HTTPError',
  message: 'Request failed with status code 500 Internal Server Error: GET /api/v1/requests/open',
  component: 'Requests',
  feature: 'requests',
  path: '/requests',
  response: { status: 500, status_text: 'Internal Server Error', data: { error: 'An unexpected error occurred' } },
  user_properties: { internal_user: true },
  occurred_at,
};

describe('POST /api/v1/analytics', () => {
  let context: TestContext;
  let userExternalId: string;
  let userId: number;

  beforeAll(async () => {
    context = await createTestContext();
    const [user] = await context.db
      .insert(users)
      .values({ email: 'ada@example.com', passwordHash: 'not-used-here', firstName: 'Ada', lastName: 'Lovelace' })
      .returning();
    userExternalId = user.externalId;
    userId = user.id;
  });
  afterAll(() => context.close());
  beforeEach(() => context.db.delete(analyticsEvents));

  const storedEvents = () => context.db.select().from(analyticsEvents).orderBy(analyticsEvents.id);

  it('accepts an anonymous batch and stores every event with the analytics id and no user', async () => {
    const batch: AnalyticsBatch = {
      analytics_id: 'life-concierge-test',
      events: [
        { name: 'page_view', properties: { path: '/sign-in' }, occurred_at },
        {
          name: 'ui_interaction',
          properties: {
            element_type: 'offering_card',
            element_id: 'offering_benefit_card',
            category: 'offering',
            offering_id: 12,
            provider_name: 'Acme Health',
            featured: true,
          },
          occurred_at,
        },
      ],
    };
    const response = await context.app.inject({ method: 'POST', url: '/api/v1/analytics/events', payload: batch });

    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ accepted: 2 });
    const rows = await storedEvents();
    expect(rows.map((row) => [row.name, row.userExternalId])).toEqual([
      ['page_view', null],
      ['ui_interaction', null],
    ]);
    expect(rows[0].properties).toEqual({ path: '/sign-in', occurred_at, analytics_id: 'life-concierge-test' });
    expect(rows[1].properties).toMatchObject({ element_id: 'offering_benefit_card', offering_id: 12, featured: true });
  });

  it("attaches the session user's external_id and the internal_user property when the call carries a valid session", async () => {
    const { token } = await createSession(context.db, userId);
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/events',
      headers: { authorization: token },
      payload: pageViewBatch('/dashboard', { user_properties: { internal_user: true } }),
    });

    expect(response.statusCode).toBe(202);
    const [row] = await storedEvents();
    expect(row.userExternalId).toBe(userExternalId);
    expect(row.properties).toMatchObject({ path: '/dashboard', internal_user: true });
  });

  it('records a call with an expired session as anonymous instead of answering 401', async () => {
    const twoDaysAgo = new Date(Date.now() - 2 * SESSION_TTL_MS);
    const expired = await createSession(context.db, userId, twoDaysAgo);

    const response = await context.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/events',
      headers: { authorization: `Bearer ${expired.token}` },
      payload: pageViewBatch('/requests'),
    });

    expect(response.statusCode).toBe(202);
    const [row] = await storedEvents();
    expect(row.userExternalId).toBeNull();
  });

  it('anonymises secret path parameters even when the client sent them raw', async () => {
    await context.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/events',
      payload: pageViewBatch('/reset-password/Zm9vYmFyLXNlY3JldA'),
    });
    const [row] = await storedEvents();
    expect(row.properties.path).toBe('/reset-password/:resetToken');
  });

  it('rejects an unknown event name and an empty batch with 422, storing nothing', async () => {
    const unknownName = await context.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/events',
      payload: { analytics_id: 'x', events: [{ name: 'purchase', properties: {}, occurred_at }] },
    });
    const empty = await context.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/events',
      payload: { analytics_id: 'x', events: [] },
    });

    expect(unknownName.statusCode).toBe(422);
    expect(unknownName.json().error).toMatch(/^events/);
    expect(empty.statusCode).toBe(422);
    expect(await storedEvents()).toEqual([]);
  });

  it('stores an error report as an event named error, with the session user', async () => {
    const { token } = await createSession(context.db, userId);
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/errors',
      headers: { authorization: token },
      payload: { ...errorReport, path: '/attachments/user-1%2Fscan.pdf' },
    });

    expect(response.statusCode).toBe(202);
    const [row] = await storedEvents();
    expect(row.name).toBe('error');
    expect(row.userExternalId).toBe(userExternalId);
    expect(row.properties).toMatchObject({
      component: 'Requests',
      feature: 'requests',
      message: errorReport.message,
      path: '/attachments/:fileKey',
      response: { status: 500, status_text: 'Internal Server Error', data: { error: 'An unexpected error occurred' } },
      internal_user: true,
    });
  });

  it('rejects an error report without a message with 422', async () => {
    const { message: _message, ...withoutMessage } = errorReport;
    const response = await context.app.inject({ method: 'POST', url: '/api/v1/analytics/errors', payload: withoutMessage });
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatch(/^message/);
  });
});

describe('POST /api/v1/analytics/events rate limit', () => {
  let context: TestContext;
  beforeAll(async () => {
    context = await createTestContext();
  });
  afterAll(() => context.close());

  it(`answers 429 after ${EVENT_BATCHES_PER_MINUTE} batches a minute from one client`, async () => {
    const send = () =>
      context.app.inject({
        method: 'POST',
        url: '/api/v1/analytics/events',
        remoteAddress: '203.0.113.7',
        payload: pageViewBatch('/sign-in'),
      });
    for (let sent = 0; sent < EVENT_BATCHES_PER_MINUTE; sent += 1) {
      expect((await send()).statusCode).toBe(202);
    }
    expect((await send()).statusCode).toBe(429);

    const otherClient = await context.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/events',
      remoteAddress: '203.0.113.8',
      payload: pageViewBatch('/sign-in'),
    });
    expect(otherClient.statusCode).toBe(202);
    const stored = await context.db.select().from(analyticsEvents).where(eq(analyticsEvents.name, 'page_view'));
    expect(stored).toHaveLength(EVENT_BATCHES_PER_MINUTE + 1);
  });
});

describe('analytics flooding (issue 9 point 4)', () => {
  let context: TestContext;
  const lines: string[] = [];
  beforeAll(async () => {
    context = await createTestContext({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => lines.push(line) } });
  });
  afterAll(() => context.close());

  const sendReport = (remoteAddress: string, headers: Record<string, string> = {}, report: ClientErrorReport = errorReport) =>
    context.app.inject({ method: 'POST', url: '/api/v1/analytics/errors', remoteAddress, headers, payload: report });

  it('made-up Bearer values share the client address quota instead of getting one each', async () => {
    const statuses: number[] = [];
    for (let sent = 0; sent <= ERROR_REPORTS_PER_MINUTE; sent += 1) {
      statuses.push((await sendReport('203.0.113.20', { authorization: `Bearer junk-${sent}` })).statusCode);
    }
    expect(statuses.slice(0, ERROR_REPORTS_PER_MINUTE)).toEqual(Array(ERROR_REPORTS_PER_MINUTE).fill(202));
    expect(statuses[ERROR_REPORTS_PER_MINUTE]).toBe(429);
  });

  it(`stores at most ${STORED_EVENTS_PER_HOUR} events an hour per sender, whatever the batch size`, async () => {
    const fullBatch = pageViewBatch('/dashboard', {
      events: Array.from({ length: MAX_EVENTS_PER_BATCH }, () => ({ name: 'page_view' as const, properties: { path: '/dashboard' }, occurred_at })),
    });
    let stored = 0;
    let refused = 0;
    for (let sent = 0; sent < STORED_EVENTS_PER_HOUR / MAX_EVENTS_PER_BATCH + 2; sent += 1) {
      const response = await context.app.inject({ method: 'POST', url: '/api/v1/analytics/events', remoteAddress: '203.0.113.21', payload: fullBatch });
      if (response.statusCode === 202) stored += (response.json() as { accepted: number }).accepted;
      else {
        expect(response.statusCode).toBe(429);
        expect(response.json()).toEqual({ error: TOO_MANY_EVENTS_ERROR });
        refused += 1;
      }
    }
    expect(stored).toBe(STORED_EVENTS_PER_HOUR);
    expect(refused).toBe(2);
  });

  it('logs a short summary at warn level, never the sender’s long text, and cuts oversized response data', async () => {
    const long = 'A'.repeat(1900);
    const response = await sendReport('203.0.113.22', {}, {
      ...errorReport,
      message: `boom ${long}`,
      stack: `at ${long}`,
      response: { status: 500, status_text: 'x', data: { blob: 'B'.repeat(20_000) } },
    });
    expect(response.statusCode).toBe(202);
    const logged = lines.filter((line) => line.includes('client error reported') && line.includes('boom'));
    expect(logged).toHaveLength(1);
    const entry = JSON.parse(logged[0]) as { level: number; clientError: { message: string } };
    expect(entry.level).toBe(40);
    expect(entry.clientError.message.length).toBeLessThanOrEqual(200);
    expect(logged[0]).not.toContain('B'.repeat(100));
    expect(logged[0].length).toBeLessThan(1000);

    type StoredReport = { message: string; response: { data: { truncated: boolean; preview: string } } };
    const reports = await context.db.select().from(analyticsEvents).where(eq(analyticsEvents.name, 'error'));
    const stored = reports.map((row) => row.properties as StoredReport).find((report) => report.message.startsWith('boom'));
    const data = stored!.response.data;
    expect(data.truncated).toBe(true);
    expect(data.preview).toHaveLength(MAX_STORED_RESPONSE_DATA);
  });

  it('takes e-mailed links and bearer values out of a report before logging or storing it (issue 33 point 6)', async () => {
    const resetLink = 'http://localhost:3000/reset-password/SECRETresetTOKEN123';
    const bearer = 'Bearer SECRETsessionTOKEN0123456789';
    const response = await sendReport('203.0.113.23', {}, {
      ...errorReport,
      message: `redaction check: failed after ${resetLink} with ${bearer}`,
      stack: `at open (${resetLink})`,
    });
    expect(response.statusCode).toBe(202);
    const logged = lines.filter((line) => line.includes('redaction check'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('/reset-password/[redacted]');
    expect(logged[0]).toContain('Bearer [redacted]');
    const reports = await context.db.select().from(analyticsEvents).where(eq(analyticsEvents.name, 'error'));
    const stored = JSON.stringify(reports.map((row) => row.properties));
    expect(stored).toContain('redaction check');
    for (const text of [...logged, stored]) {
      expect(text).not.toContain('SECRETresetTOKEN123');
      expect(text).not.toContain('SECRETsessionTOKEN');
    }
  });
});
