import { type Page, expect, test } from '@playwright/test';
import { MONITORING_PORT, SENTRY_COLLECTOR_PORT } from './ports.ts';
import { type Envelope, type SentryCollector, startSentryCollector } from './sentryCollector.ts';
import { createRequestThroughApi, firstTemplateOf, latestLink, pageToken, signIn } from './support.ts';

/**
 * Issue 15 point 4: monitoring on Sentry. Without a DSN (the suite's main server) a reported error goes to the
 * console and nothing else leaves the page. With one (a second server, its app built with a DSN that names a
 * stand-in for Sentry), errors, replays and traces travel through the app's own tunnel, and the stand-in decodes
 * what would have reached Sentry: here it is read for the SPEC's context and for every secret the journey typed.
 */

const SUGGESTIONS_CALL = '**/api/v1/recommended_request_categories';
const SUGGESTIONS_FAILURE = { error: 'Suggestions are out for a walk' };

/** The dashboard's suggestions fail from now on: a reported error (SPEC §8) with a response to describe. */
async function failSuggestions(page: Page) {
  await page.route(SUGGESTIONS_CALL, (route) => route.fulfill({ status: 500, json: SUGGESTIONS_FAILURE }));
}

test('without a DSN nothing leaves the page: a reported error goes to the console', async ({ page, baseURL }) => {
  const appOrigin = new URL(baseURL!).origin;
  const elsewhere: string[] = [];
  const monitoringTraffic: string[] = [];
  page.on('request', (sent) => {
    const url = new URL(sent.url());
    if (url.origin !== appOrigin && url.protocol !== 'data:') elsewhere.push(sent.url());
    if (url.pathname.startsWith('/api/v1/monitoring') || /monitoring\.(sentry|replay)-/.test(url.pathname)) monitoringTraffic.push(sent.url());
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });

  await failSuggestions(page);
  await page.goto('/sign-in');
  await signIn(page, 'employee@demo.test');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect.poll(() => consoleErrors.some((text) => text.startsWith('Error in Dashboard (dashboard)'))).toBe(true);

  expect(elsewhere).toEqual([]);
  expect(monitoringTraffic).toEqual([]);
  expect((await page.request.post('/api/v1/monitoring', { data: '{}' })).status()).toBe(404);
});

test.describe('with a DSN', () => {
  test.use({ baseURL: `http://127.0.0.1:${MONITORING_PORT}` });

  let collector: SentryCollector;
  test.beforeAll(async () => {
    collector = await startSentryCollector(SENTRY_COLLECTOR_PORT);
  });
  test.afterAll(() => collector.close());

  const items = (project: string, type: string) =>
    collector.envelopes.filter((envelope: Envelope) => envelope.project === project).flatMap((envelope) => envelope.items.filter((item) => item.type === type));

  test('errors with their context, a masked replay and joined traces reach Sentry through the tunnel, with no secret in them', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const email = 'employee@demo.test';
    const newPassword = 'monitored-password-7Q';
    const phone = '2125550199';
    const message = 'Please ring the garage on Tuesday about the brakes';
    const replayLoaded = () => page.waitForResponse((response) => /monitoring\.replay-[^/]+\.js$/.test(response.url()));

    // A reset link: its page is not recorded, and its token never leaves the browser.
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText(/you will receive a password recovery link/)).toBeVisible();
    const resetPath = new URL(await latestLink(request, email, '/reset-password/')).pathname;
    const resetToken = resetPath.split('/')[2]!;
    const sdkOnResetPage = page.waitForResponse((response) => /monitoring\.sentry-[^/]+\.js$/.test(response.url()));
    await page.goto(resetPath);
    await sdkOnResetPage;
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    const replayOnSignIn = replayLoaded();
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await replayOnSignIn;

    // Typed while the replay records: a password, a message and a phone number.
    await signIn(page, email, newPassword);
    await expect(page).toHaveURL(/\/dashboard$/);
    const sessionToken = await pageToken(page);
    const created = await createRequestThroughApi(request, sessionToken, await firstTemplateOf(request, sessionToken, 'Car'));
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Requests' }).first().click();
    await page.getByRole('link', { name: new RegExp(`^${created.name}`) }).first().click();
    await page.getByLabel('Your message').fill(message);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('log', { name: 'Conversation' })).toContainText(message);

    await page.locator('a[href="/account"]').first().click();
    await page.getByRole('button', { name: 'Add a phone number' }).click();
    await page.getByLabel('Mobile phone number').pressSequentially(phone);
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await expect(page).toHaveURL(/\/account$/);

    // A reported error: the dashboard's suggestions fail.
    await failSuggestions(page);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard' }).first().click();
    await expect(page).toHaveURL(/\/dashboard$/);

    const errorEvent = () =>
      items('1', 'event')
        .map((item) => item.payload as { tags?: Record<string, unknown> })
        .find((event) => event.tags?.component === 'Dashboard');
    await expect.poll(errorEvent, { timeout: 20_000 }).toBeTruthy();
    await expect.poll(() => items('1', 'replay_recording').length, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => items('1', 'replay_event').length).toBeGreaterThan(0);

    // SPEC §8: the component, the feature, and the failed response's status, text and data.
    expect(errorEvent()).toMatchObject({
      exception: { values: [expect.objectContaining({ type: 'HTTPError' })] },
      tags: { component: 'Dashboard', feature: 'dashboard', internal_user: false },
      contexts: { response: { status: 500, status_text: 'Internal Server Error', data: SUGGESTIONS_FAILURE } },
    });

    // A transaction with the API call as a span, and the server's transaction of that call in the same trace.
    type Transaction = { contexts: { trace: { trace_id: string } }; transaction: string; spans: { op?: string; description?: string }[] };
    const browserTransactions = () => items('1', 'transaction').map((item) => item.payload as Transaction);
    const withApiSpan = () =>
      browserTransactions().find((transaction) =>
        transaction.spans.some((span) => span.op === 'http.client' && span.description?.includes('/api/v1/requests/open')),
      );
    await expect.poll(withApiSpan, { timeout: 20_000 }).toBeTruthy();
    const traceId = withApiSpan()!.contexts.trace.trace_id;
    await expect
      .poll(() => items('2', 'transaction').some((item) => (item.payload as Transaction).contexts.trace.trace_id === traceId), { timeout: 20_000 })
      .toBe(true);
    expect(browserTransactions().map((transaction) => transaction.transaction)).toContain('/dashboard');

    // The replay recorded the typing, masked: the message's characters as asterisks, never the text.
    const recording = items('1', 'replay_recording').map((item) => item.text).join('\n');
    expect(recording).toContain('*'.repeat(message.length));

    const kinds = new Map<string, number>();
    for (const received of collector.envelopes) {
      for (const item of received.items) {
        const kind = `${received.project === '1' ? 'browser' : 'server'} ${item.type}`;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
    }
    console.log(`Envelope items at the stand-in for Sentry: ${[...kinds].sort().map(([kind, count]) => `${kind} ${count}`).join(', ')}`);

    // Nothing that left the machine holds a secret or anything the employee typed.
    const everything = collector.envelopes.flatMap((envelope) => [JSON.stringify(envelope.header), ...envelope.items.map((item) => item.text)]).join('\n');
    for (const secret of [resetToken, newPassword, phone, '(212) 555-0199', message, sessionToken]) {
      expect(everything, `the envelopes hold "${secret}"`).not.toContain(secret);
    }
    expect(everything).toContain('/reset-password/[redacted]');
  });
});
