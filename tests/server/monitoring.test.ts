import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENVELOPES_PER_MINUTE } from '../../server/routes/monitoring.routes.ts';
import { type ServerMonitoring, scrubServerEvent, startServerMonitoring } from '../../server/monitoring.ts';
import { MONITORING_TUNNEL_PATH } from '../../src/contract/monitoring.ts';
import { type SentryCollector, startSentryCollector } from '../e2e/sentryCollector.ts';
import { type TestContext, createTestContext } from './harness.ts';
import { PASSWORD, authHeaders, registerUser, signInRequest, signedIn } from './helpers.ts';

/**
 * Issue 15 point 4, the server's side: the browser's tunnel (it forwards to its DSN's host and to nothing else) and the
 * server's own errors, checked at a stand-in for Sentry that decodes what it receives. That the server's transactions
 * continue the browser's trace is checked end to end (tests/e2e/monitoring.spec.ts), over real HTTP.
 */

let collector: SentryCollector;
let monitoring: ServerMonitoring | null;
let context: TestContext;
let browserDsn: string;
let addressCounter = 0;
/** Each test its own client address, so that the tunnel's rate limit of one does not reach another. */
const nextClientAddress = () => `10.9.0.${(addressCounter += 1)}`;

function envelope(dsn: string, event: Record<string, unknown> = { message: 'hello' }): string {
  return `${JSON.stringify({ dsn, event_id: 'a'.repeat(32) })}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify(event)}\n`;
}

function postEnvelope(body: string | Buffer, headers: Record<string, string> = {}, remoteAddress = nextClientAddress()) {
  return context.app.inject({ method: 'POST', url: MONITORING_TUNNEL_PATH, payload: body, headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers }, remoteAddress });
}

const serverItems = (type: string) =>
  collector.envelopes.filter((received) => received.project === '2').flatMap((received) => received.items.filter((item) => item.type === type));

beforeAll(async () => {
  collector = await startSentryCollector(0);
  browserDsn = `http://browserkey@127.0.0.1:${collector.port}/1`;
  const serverDsn = `http://serverkey@127.0.0.1:${collector.port}/2`;
  // Before the app is built: the Fastify integration hooks in as the instance is created.
  monitoring = await startServerMonitoring({ SENTRY_DSN: serverDsn, NODE_ENV: 'test' });
  context = await createTestContext({ AUTH_RATE_LIMIT: '1000', SENTRY_DSN: serverDsn, VITE_SENTRY_DSN: browserDsn });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await monitoring?.close();
  await collector?.close();
});

describe('the browser’s tunnel', () => {
  it('forwards an envelope for the browser DSN to that DSN’s host, with the user agent and nothing else of the browser', async () => {
    const before = collector.envelopes.length;
    const response = await postEnvelope(envelope(browserDsn, { message: 'through the tunnel' }), {
      'user-agent': 'TestBrowser/1.0',
      referer: 'http://localhost:3000/reset-password/secret-token',
      'x-forwarded-for': '203.0.113.9',
      cookie: 'a=b',
    });
    expect(response.statusCode, response.body).toBe(200);
    const forwarded = collector.envelopes.slice(before).find((received) => received.project === '1');
    expect(forwarded?.items[0]?.payload).toEqual({ message: 'through the tunnel' });
    expect(forwarded?.headers['user-agent']).toBe('TestBrowser/1.0');
    for (const name of ['referer', 'x-sentry-forwarded-for', 'x-forwarded-for', 'cookie', 'origin']) expect(forwarded?.headers[name]).toBeUndefined();
  });

  it('takes the envelope as bytes, whatever its content type (a compressed replay comes so)', async () => {
    const response = await postEnvelope(Buffer.from(envelope(browserDsn)), { 'content-type': 'application/octet-stream' });
    expect(response.statusCode).toBe(200);
  });

  it('refuses an envelope for any other DSN (403), or without a DSN or a header (400), and forwards nothing', async () => {
    const browserEnvelopes = () => collector.envelopes.filter((received) => received.project === '1').length;
    const before = browserEnvelopes();
    const refusals = await Promise.all([
      postEnvelope(envelope('http://key@attacker.example/1')),
      postEnvelope(envelope(browserDsn.replace('browserkey', 'otherkey'))),
      postEnvelope(`${JSON.stringify({ event_id: 'x' })}\n{"type":"event"}\n{}\n`),
      postEnvelope('not an envelope'),
    ]);
    expect(refusals.map((refusal) => refusal.statusCode)).toEqual([403, 403, 400, 400]);
    expect(browserEnvelopes()).toBe(before);
  });

  it(`takes ${ENVELOPES_PER_MINUTE} envelopes a minute from one client, then answers 429 with Retry-After`, async () => {
    const client = nextClientAddress();
    const refused = envelope('http://key@elsewhere.example/1');
    for (let index = 0; index < ENVELOPES_PER_MINUTE; index += 1) {
      expect((await postEnvelope(refused, {}, client)).statusCode).toBe(403);
    }
    const limited = await postEnvelope(refused, {}, client);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers no input with a 5xx (fuzz)', async () => {
    const line = fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.json({ maxDepth: 2 }), fc.constant(JSON.stringify({ dsn: 'http://key@elsewhere.example/1' })));
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 4 }), fc.constantFrom('text/plain', 'application/json', 'application/x-sentry-envelope', ''), async (lines, contentType) => {
        const response = await postEnvelope(lines.join('\n'), contentType ? { 'content-type': contentType } : {});
        expect(response.statusCode, response.body).toBeLessThan(500);
      }),
      { numRuns: 150, seed: 20261125 },
    );
  });

  it('does not exist when the app is not built to report to Sentry', async () => {
    const plain = await createTestContext();
    try {
      const response = await plain.app.inject({ method: 'POST', url: MONITORING_TUNNEL_PATH, payload: envelope(browserDsn), headers: { 'content-type': 'text/plain' } });
      expect(response.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('the server’s own monitoring', () => {
  it('sends a failing call’s error without its query parameters, the password it carried, or the credentials', async () => {
    const email = await registerUser(context);
    const token = await signedIn(context, email);
    // Two different failures: Sentry drops an error that repeats the previous one (same cause, same stack).
    await context.db.execute(sql`ALTER TABLE sessions RENAME TO sessions_away`);
    try {
      expect((await signInRequest(context, email, PASSWORD)).statusCode).toBe(500);
    } finally {
      await context.db.execute(sql`ALTER TABLE sessions_away RENAME TO sessions`);
    }
    await context.db.execute(sql`ALTER TABLE users RENAME TO users_away`);
    try {
      expect((await context.app.inject({ method: 'GET', url: '/api/v1/users/current', headers: authHeaders(token) })).statusCode).toBe(500);
    } finally {
      await context.db.execute(sql`ALTER TABLE users_away RENAME TO users`);
    }
    await expect.poll(() => serverItems('event').length, { timeout: 10_000 }).toBe(2);
    const events = serverItems('event');
    expect(events.map((item) => (item.payload as { transaction?: string }).transaction).sort()).toEqual([
      'GET /api/v1/users/current',
      'POST /api/v1/users/sign_in',
    ]);
    for (const item of events) {
      expect(item.text).not.toContain(PASSWORD);
      expect(item.text).not.toContain(token);
      expect(item.text).not.toMatch(/params: (?!\[redacted\])/);
      const { request } = item.payload as { request?: { headers?: Record<string, string> } };
      expect(Object.keys(request?.headers ?? {}).map((name) => name.toLowerCase())).not.toContain('authorization');
    }
  });
});

describe('scrubServerEvent', () => {
  it('drops the body, cookies and credential headers, and redacts tokens in addresses and statement parameters', () => {
    const scrubbed = scrubServerEvent({
      request: {
        url: 'http://localhost/api/v1/users/unlock?unlock_token=abc',
        data: { user: { password: 'hunter22' } },
        cookies: { a: 'b' },
        headers: { Authorization: 'Bearer t', 'mfa-token': 'm', 'user-agent': 'UA' },
      },
      exception: { values: [{ type: 'Error', value: 'Failed query: select 1\nparams: digest,abc' }] },
      user: { id: '7', email: 'a@b.c', ip_address: '1.2.3.4' },
    });
    expect(scrubbed.request).toEqual({ url: 'http://localhost/api/v1/users/unlock?unlock_token=[redacted]', headers: { 'user-agent': 'UA' } });
    expect(scrubbed.exception?.values?.[0]?.value).toBe('Failed query: select 1\nparams: [redacted]');
    expect(scrubbed.user).toEqual({ id: '7' });
  });
});
